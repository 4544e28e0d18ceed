import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from './app-config.js';

/** Query parameters that may carry a credential; their values never reach the logs. */
const SECRET_PARAMS = /^(api[-_]?key|x-api-key|key|token|access[-_]?token|auth|authorization|password|secret)$/i;

/**
 * A URL fit for the logs: the values of credential-like query parameters, and anything shaped like
 * one of this service's API keys (gca_...), replaced by [REDACTED].
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query =
    q < 0
      ? ''
      : `?${url
          .slice(q + 1)
          .split('&')
          .map((pair) => {
            const eq = pair.indexOf('=');
            const name = eq < 0 ? pair : pair.slice(0, eq);
            let decoded = name;
            try {
              decoded = decodeURIComponent(name);
            } catch {
              // keep the raw name
            }
            return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[REDACTED]` : pair;
          })
          .join('&')}`;
  // Also percent-encoded: gca%5F...
  return `${path}${query}`.replace(/gca(?:_|%5F)[A-Za-z0-9_%-]+/gi, '[REDACTED]');
}

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
      serializers: {
        // The URL says what the query and route parameters say; they are left out so a credential
        // in them cannot slip past the redaction.
        req: ({ query: _query, params: _params, ...req }: { url?: string; query?: unknown; params?: unknown }) => ({
          ...req,
          url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
        }),
      },
      autoLogging: { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') },
      ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
    },
  };
}
