import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../../config/app-config.js';

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count is the function Express makes of it (believe
 * the last `hops` addresses): Fastify 5.12 takes a bare number as believing none, which made every
 * client behind the proxy the proxy's own address, one rate limit and one failed-key lockout for
 * all. A count believes whoever connects, so it is for instances only the proxy reaches (the
 * NetworkPolicy of deploy/k8s, Compose's unpublished ports); else name the proxies' addresses.
 */
export function trustProxyOf(trust: AppConfig['TRUST_PROXY']): NonNullable<FastifyServerOptions['trustProxy']> {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}
