// Answers are functions of (catalog version, request, day): versions never change once published,
// and the only other input is the day that price ages count from. So a read's serialised answer
// is kept in a byte-bounded LRU under a key made of the current version id, the day and the
// normalised request, and sent again as it is, with a strong ETag (304 for If-None-Match) and a
// Cache-Control that lets an HTTP cache or CDN in front of several instances answer repeats.
//
// What never varies a key: the caller. Authentication and rate limits run before the cache is
// consulted (http-hooks.ts), so a cached answer never carries, or skips, a caller's limit.
import { LRUCache } from 'lru-cache';
import stringify from 'safe-stable-stringify';
import { MAX_INPUT_DEPTH, nestingDepth } from '../../common/errors/validation.js';
import { contentHash } from '../../common/http/content-hash.js';
import { isHttpCacheableGet } from '../../common/http/cacheable-routes.js';

/** Headers of an answer that are part of it and are sent again with a cached copy. */
export const REPLAYED_HEADERS = ['content-type', 'x-catalog-version', 'x-next-cursor'] as const;

export interface CachedAnswer {
  body: string;
  etag: string;
  headers: Partial<Record<(typeof REPLAYED_HEADERS)[number], string>>;
}

/** What the cache needs to know of a request: all plain values, no framework types. */
export interface CacheableRequest {
  method: string;
  /** The route's pattern (`/v1/offers/:offerId/history`), or undefined for an unmatched URL. */
  route: string | undefined;
  /** The URL's path, without the query. */
  path: string;
  query: unknown;
  body: unknown;
  accept: string | undefined;
}

export type Freshness =
  /** The answer may change when another version is published: a short max-age. */
  | { kind: 'current' }
  /** Pinned to a version, but price ages count from today: fresh until the next UTC midnight. */
  | { kind: 'until-midnight' }
  /** Pinned to a past instant: the version and the day are fixed, the answer never changes. */
  | { kind: 'immutable' };

export interface CachePlan {
  key: string;
  freshness: Freshness;
  /** GET answers get validators and Cache-Control; a POST (the estimate) is only kept here. */
  httpCacheable: boolean;
  /**
   * Kept from its first answer, not its second (ResponseCache.admits): the answer may have needed
   * the database, which a repeat should not ask again and which may be unreachable by then. A
   * request naming a version or an instant looks that version up; a GraphQL query may read the
   * price histories, and the cache cannot tell which do.
   */
  keepAtOnce: boolean;
}

/**
 * The key and freshness of a request whose answer may be cached, or null. `currentVersionId` is
 * the version this instance answers "current" requests from; `now` fixes the day.
 */
export function planCaching(request: CacheableRequest, currentVersionId: string | null, now: Date): CachePlan | null {
  if (currentVersionId === null || request.route === undefined) return null;
  const { method, route } = request;
  let httpCacheable = true;
  if (method === 'GET' || method === 'HEAD') {
    if (route === '/graphql') {
      if (isIntrospection(request.query)) return null;
    } else if (!isHttpCacheableGet(route)) return null;
  } else if (method === 'POST' && route === '/v1/estimates') {
    // A body too deep to be valid is refused by validation; it is not even serialised here.
    if (nestingDepth(request.body, MAX_INPUT_DEPTH) > MAX_INPUT_DEPTH) return null;
    httpCacheable = false;
  } else return null;
  const pins = route === '/graphql' ? {} : selectorOf(method === 'POST' ? request.body : request.query);
  const day = now.toISOString().slice(0, 10);
  const query = stringify(request.query) ?? '';
  const body = method === 'POST' ? stringify(request.body) : '';
  const key = `${method === 'HEAD' ? 'GET' : method} ${request.path} ${query} ${body} ${request.accept ?? ''} v=${currentVersionId} d=${day}`;
  const pinned = (typeof pins.version === 'string' && pins.version.length > 0) || typeof pins.asOf === 'string';
  return { key, freshness: freshnessOf(pins, now), httpCacheable, keepAtOnce: route === '/graphql' || pinned };
}

function selectorOf(input: unknown): { version?: unknown; asOf?: unknown } {
  return input !== null && typeof input === 'object' ? input : {};
}

/**
 * How long before now an `asOf` must lie for its answer to be marked immutable. A publication's
 * time is its commit's (catalog-writer.repository.ts), but an instance learns of it only at its
 * next poll (CATALOG_REFRESH_MS, at most 60 s), and the database's clock and this instance's may
 * differ by a little: an instant of the last minute may still get another version.
 */
export const IMMUTABLE_AFTER_MS = 60_000;

function freshnessOf({ version, asOf }: { version?: unknown; asOf?: unknown }, now: Date): Freshness {
  if (typeof asOf === 'string') {
    const t = Date.parse(asOf);
    // An instant safely past names one version forever, and price ages count from its day.
    if (Number.isFinite(t) && t <= now.getTime() - IMMUTABLE_AFTER_MS) return { kind: 'immutable' };
    return { kind: 'current' };
  }
  if (typeof version === 'string' && version.length > 0) return { kind: 'until-midnight' };
  return { kind: 'current' };
}

/** GraphQL introspection (`__schema`, `__type`) is never cached: it is cheap and tooling wants it live. */
function isIntrospection(query: unknown): boolean {
  const text = query !== null && typeof query === 'object' ? (query as { query?: unknown }).query : undefined;
  return typeof text === 'string' && /__schema|__type\b/.test(text);
}

/**
 * Who may keep an answer: `private` (the client only) when the service needs an API key, so that
 * a shared cache or CDN never stores an answer it would then give callers without one.
 */
export type CacheAudience = 'public' | 'private';

export function cacheControl(freshness: Freshness, refreshSeconds: number, now: Date, audience: CacheAudience): string {
  switch (freshness.kind) {
    case 'immutable':
      return `${audience}, max-age=31536000, immutable`;
    case 'until-midnight': {
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      return `${audience}, max-age=${Math.max(1, Math.floor((midnight - now.getTime()) / 1000))}`;
    }
    case 'current':
      // As long as this instance waits before it looks for a newer version; a cache may serve the
      // old answer a little longer while it asks again.
      return `${audience}, max-age=${refreshSeconds}, stale-while-revalidate=60`;
    default: {
      const never: never = freshness;
      return never;
    }
  }
}

/** A strong validator: the answer's bytes decide it, so equal answers share it across instances and days. */
export function etagOf(body: string): string {
  return `"${contentHash(body)}"`;
}

/** If-None-Match (weak comparison, RFC 9110 §13.1.2): does any listed tag, or `*`, match? */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The byte-bounded LRU of answers (RESPONSE_CACHE_MB), which keeps an answer from the second
 * time its request is answered. An answer asked once is not worth its memory: under a stream of
 * distinct requests, keeping each one cost a fifth of the CPU (the collector promoting and then
 * sweeping every answer) and evicted the answers that are asked again. So a first answer only
 * leaves its key in a bounded list of keys seen once; a second answer to a key on that list is
 * kept, and later ones are hits. Answers that may have needed the database are kept at once
 * (CachePlan.keepAtOnce, keep-answers.ts).
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, CachedAnswer>;
  /**
   * Keys answered once and not kept (yet), by their hash: a key is built by concatenation, and
   * V8 keeps such a string as a tree of its parts (8,192 estimate keys held 16 MiB). The oldest
   * are forgotten first; two keys sharing a hash would only get an answer kept one request early.
   */
  private readonly seenOnce: LRUCache<string, true>;
  /** RESPONSE_CACHE_MB=0: nothing is kept (answers still get their ETag and Cache-Control). */
  private readonly off: boolean;

  constructor(maxBytes: number) {
    this.off = maxBytes <= 0;
    this.lru = new LRUCache<string, CachedAnswer>({
      maxSize: Math.max(1, maxBytes),
      // One answer may take an eighth of the cache at most, so a few big CSV pages cannot flush it.
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      // UTF-16 in memory: two bytes per character, plus the key.
      sizeCalculation: (answer, key) => 2 * (answer.body.length + key.length) + 256,
    });
    // As many keys as the cache holds answers of 4 KiB (8,192 for 32 MiB), and never more than
    // 65,536 (lru-cache allocates its arrays for all of them at once): a few MiB at most.
    this.seenOnce = new LRUCache<string, true>({ max: Math.min(65_536, Math.max(256, Math.floor(maxBytes / 4096))) });
  }

  get(key: string): CachedAnswer | undefined {
    return this.lru.get(key);
  }

  /**
   * Called once per fresh answer: true when it is to be kept (`atOnce`, or its key was answered
   * before, not long ago), false when its key is only noted as seen once.
   */
  admits(key: string, atOnce = false): boolean {
    if (this.off) return false;
    if (atOnce) return true;
    const digest = contentHash(key);
    if (this.seenOnce.delete(digest)) return true;
    this.seenOnce.set(digest, true);
    return false;
  }

  set(key: string, answer: CachedAnswer): void {
    if (!this.off) this.lru.set(key, answer);
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }
}
