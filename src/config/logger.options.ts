import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from './app-config.js';

/** Structured JSON logs with a request id per request; pretty lines when a person watches a terminal. */
export function loggerOptions(config: Pick<AppConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>): Params {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY === true);
  return {
    pinoHttp: {
      level: config.LOG_LEVEL,
      // Keep a caller's x-request-id so one id follows a request across services.
      genReqId: (req: IncomingMessage) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
      },
      customProps: () => ({ service: 'gpu-cost-api' }),
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      autoLogging: { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') },
      ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
    },
  };
}
