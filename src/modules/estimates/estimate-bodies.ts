// Large bodies of POST /v1/estimates and POST /graphql (over 256 KiB: only measurements make them
// so) are read in a worker thread of the estimate pool (estimate-pool.ts), not on the request thread:
// - preParsing (collect): a body of a declared length is copied, chunk by chunk as it arrives
//   (two chunks of all such bodies a turn of the event loop), into one buffer of that length, in
//   place of Fastify's list of chunks joined at the end (one 8 MiB copy in one go); Fastify reads
//   an empty stream that reports the bytes received, so its checks of the length still apply;
// - the JSON parser (read): the buffer (or Fastify's, for a body sent without a length) is moved to
//   a worker, and what comes back is the body with each measurement text replaced by a token, and
//   the texts' series (estimate-body.ts; in a GraphQL body, the texts its estimate takes:
//   graphql-body.ts).
// The request thread then validates a small body as it would the whole one, and the estimate
// finds each text's series by its token (parsedTextsOf). An 8 MiB body cost the request thread
// 150-250 ms read here; docs/measurements.md, "Bounds", says what it costs now.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { PoolBusy, TimeBudgetExceeded, type BudgetedWorkerPool } from '../../common/budgeted-pool.js';
import { AppError } from '../../common/errors/app-error.js';
import { tooManySamples, tooManyValues } from '../../common/http/json-body.js';
import { BODY_LIMIT_BYTES, MEASUREMENT_ROUTE_LIMITS } from '../../common/http/limits.js';
import type { AppConfig } from '../../config/app-config.js';
import type { BodyOutcome, BodyRefusal, BodyTask, ReadText } from './estimate-body.js';

/** The texts of one request's body, read ahead, by token. */
export type ParsedTexts = ReadonlyMap<string, ReadText>;

const GRAPHQL = '/graphql';
const parsed = new WeakMap<object, ParsedTexts>();
/** Texts a GraphQL document may give to more than one estimate (aliases): their columns are copied to each, not moved. */
const shared = new WeakSet<ParsedTexts>();

/** The texts the worker read from this request's body (none: the body was read here, or had none). */
export function parsedTextsOf(request: object): ParsedTexts | undefined {
  return parsed.get(request);
}

/** Whether the columns of these texts may be moved to the estimate's worker (one estimate takes them), not copied. */
export function columnsMayMove(read: ParsedTexts): boolean {
  return !shared.has(read);
}

const installed = new WeakMap<object, EstimateBodies>();
/** The reader installed on a Fastify instance (app.setup.ts), for the estimate pool to lend its workers to. */
export function estimateBodiesOf(server: object): EstimateBodies | undefined {
  return installed.get(server);
}

/**
 * Chunks (64 KiB each) of large bodies read in one turn of the event loop, whatever their number:
 * read as fast as they came, ten bodies filled each turn with megabytes, and a health check waited
 * seconds for the turns it needs.
 */
const CHUNKS_PER_TURN = 2;
const paused: Readable[] = [];
let turnScheduled = false;

/** Resumes a paused body in a later turn, CHUNKS_PER_TURN of them a turn, in the order they paused. */
function resumeInTurn(payload: Readable): void {
  paused.push(payload);
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(function nextTurn() {
    for (const next of paused.splice(0, CHUNKS_PER_TURN)) next.resume();
    turnScheduled = paused.length > 0;
    if (turnScheduled) setImmediate(nextTurn);
  });
}

const isLarge = (request: FastifyRequest, length: number) =>
  length > BODY_LIMIT_BYTES && request.method === 'POST' && MEASUREMENT_ROUTE_LIMITS[request.routeOptions.url ?? ''] !== undefined;

/** Fastify's preParsing callback: the stream it reads the body from, and the bytes received (its RequestPayload). */
type PayloadDone = (error: Error | null, payload?: Readable & { receivedEncodedLength?: number }) => void;

export class EstimateBodies {
  /** The estimate pool's workers, once it exists (estimate-pool.ts); until then every body is read here. */
  private pool: BudgetedWorkerPool | undefined;
  /** Bodies collected by `collect`, until the parser moves them to a worker. */
  private readonly collected = new WeakMap<object, Uint8Array>();

  /** `server`: the Fastify instance whose hooks and parser use this reader (app.setup.ts). */
  constructor(
    private readonly config: Pick<AppConfig, 'MEASUREMENT_MAX_SAMPLES' | 'GRAPHQL_MAX_TOKENS'>,
    server: object,
  ) {
    installed.set(server, this);
  }

  /** Large bodies are read by these workers from now on: one pool and one queue for bodies and estimates. */
  use(pool: BudgetedWorkerPool): void {
    this.pool = pool;
  }

  /**
   * preParsing: a large estimate body of a declared length, within the limit, copied into one
   * buffer as it arrives (any other body is left to Fastify: over the limit, it answers 413 on the
   * length). The stream given back carries no bytes and reports them received, as Fastify asks of
   * a stream that replaces the body.
   */
  readonly collect = (request: FastifyRequest, _reply: FastifyReply, payload: Readable, done: PayloadDone): void => {
    const length = Number(request.headers['content-length']);
    if (!this.pool || !isLarge(request, length) || length > (MEASUREMENT_ROUTE_LIMITS[request.routeOptions.url ?? ''] ?? 0)) return done(null, payload);
    const bytes = new Uint8Array(length);
    const received = Object.assign(new Readable({ read: () => undefined }), { receivedEncodedLength: 0 });
    payload.on('data', (chunk: Buffer) => {
      // The HTTP parser passes no more than the declared length; Fastify compares the count with it.
      if (received.receivedEncodedLength + chunk.length <= length) bytes.set(chunk, received.receivedEncodedLength);
      received.receivedEncodedLength += chunk.length;
      payload.pause();
      resumeInTurn(payload);
    });
    payload.on('end', () => {
      this.collected.set(request, bytes);
      received.push(null);
    });
    payload.on('error', (error: Error) => received.destroy(error));
    done(null, received);
  };

  /** For boundedJsonParser (common/http/json-body.ts): a large estimate or GraphQL body, read in a worker; any other, null. */
  readonly read = (request: FastifyRequest, body: Buffer): Promise<unknown> | null => {
    const collected = this.collected.get(request);
    if (collected && this.pool) {
      this.collected.delete(request);
      return this.readElsewhere(this.pool, request, collected);
    }
    if (!this.pool || !isLarge(request, body.length)) return null;
    // Fastify's body is a buffer of its own (Buffer.concat of the chunks read): moved, not copied.
    const own = body.byteOffset === 0 && body.buffer.byteLength === body.length;
    return this.readElsewhere(this.pool, request, own ? new Uint8Array(body.buffer) : Uint8Array.from(body));
  };

  private async readElsewhere(pool: BudgetedWorkerPool, request: FastifyRequest, bytes: Uint8Array): Promise<unknown> {
    const graphql = request.routeOptions.url === GRAPHQL;
    const task: BodyTask = {
      bytes,
      nonce: randomUUID(),
      maxSamples: this.config.MEASUREMENT_MAX_SAMPLES,
      ...(graphql ? { graphql: { maxTokens: this.config.GRAPHQL_MAX_TOKENS } } : {}),
    };
    let outcome: BodyOutcome;
    try {
      outcome = await pool.run<BodyOutcome>(task, { transferList: [bytes.buffer as ArrayBuffer], name: 'readBody' });
    } catch (error) {
      throw busy(error);
    }
    if (outcome.kind === 'REFUSED') throw this.refusal(outcome.reason);
    if (outcome.texts.length) {
      const texts = new Map(outcome.texts);
      if (graphql) shared.add(texts);
      parsed.set(request, texts);
    }
    return outcome.body;
  }

  private refusal(reason: BodyRefusal): Error {
    switch (reason) {
      case 'TOO_MANY_VALUES':
        return tooManyValues();
      case 'TOO_MANY_SAMPLES':
        return tooManySamples(this.config.MEASUREMENT_MAX_SAMPLES);
      case 'EMPTY':
        return new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
      case 'NOT_JSON':
        return new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
    }
  }
}

/** A body the workers could not take or read in time (a full queue, a machine overloaded): 503, as a busy estimate. */
function busy(error: unknown): unknown {
  if (!(error instanceof PoolBusy) && !(error instanceof TimeBudgetExceeded)) return error;
  return new AppError('ESTIMATE.BUSY', 'UNAVAILABLE', 'Every estimate worker is busy; retry shortly');
}
