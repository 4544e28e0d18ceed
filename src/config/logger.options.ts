import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Params } from 'nestjs-pino';
import { pino, type Logger as PinoLogger } from 'pino';
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

/** The request id: the caller's x-request-id when it looks like one, so one id follows a request across services. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * The process's one pino logger: structured JSON, or pretty lines when a person watches a
 * terminal. Fastify logs requests through it (with their ids) and Nest's Logger writes to it.
 */
export function createRootLogger(config: Pick<AppConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>): PinoLogger {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY === true);
  return pino({
    level: config.LOG_LEVEL,
    base: { service: 'gpu-cost-api' },
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  });
}

/** nestjs-pino on the root logger, for Nest's own logs; requests are logged by Fastify (see logRequest). */
export function loggerModuleParams(root: PinoLogger): Params {
  // No middleware: it would cost every request an AsyncLocalStorage scope for logs that Fastify's
  // request logger (request.log, which carries the request id) already writes.
  return { pinoHttp: { logger: root }, forRoutes: [] };
}

/**
 * One line per answered request ("request completed"), as pino-http wrote it, from Fastify's
 * onResponse hook. Nothing is built when info is off (LOG_LEVEL=warn and above). Health and
 * metrics are not logged: probes would drown everything else.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const log = request.log as PinoLogger;
  if (!log.isLevelEnabled('info')) return;
  const url = request.url;
  if (url.startsWith('/health') || url.startsWith('/metrics')) return;
  // The URL says what the query and route parameters say; they are left out of the line so that a
  // credential in them cannot slip past the redaction.
  log.info(
    {
      req: { id: request.id, method: request.method, url: redactUrl(url), remoteAddress: request.ip, headers: request.headers },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime),
    },
    'request completed',
  );
}
