/** Largest request body (JSON) the service reads; larger ones get 413 REQUEST.TOO_LARGE. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * The body of POST /v1/estimates may carry measurements (docs/measurements.md): 8 MiB of series
 * text (some 250,000 samples) and the rest of the input. Their samples are counted before any work
 * (MEASUREMENT_MAX_SAMPLES); a body this large is read in a worker thread, not on the request
 * thread (modules/estimates/estimate-bodies.ts).
 */
export const MEASUREMENT_BODY_LIMIT_BYTES = 9 * 1024 * 1024;
/**
 * POST /graphql: a document and its variables, measurements included, read on the request thread.
 * A fortnight of 8 GPUs at 5 minutes (32,000 samples) is under 1 MiB as range answers; larger
 * measurements go to POST /v1/estimates.
 */
export const GRAPHQL_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** The routes whose bodies may carry measurements, and their body limits. */
export const MEASUREMENT_ROUTE_LIMITS: Readonly<Record<string, number>> = {
  '/v1/estimates': MEASUREMENT_BODY_LIMIT_BYTES,
  '/graphql': GRAPHQL_BODY_LIMIT_BYTES,
};
export const MEASUREMENT_ROUTES: readonly string[] = Object.keys(MEASUREMENT_ROUTE_LIMITS);

const MiB = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
/** What the 413 of a body says, for every route. */
export const BODY_LIMIT_TEXT = `${BODY_LIMIT_BYTES / 1024} KiB (${MiB(MEASUREMENT_BODY_LIMIT_BYTES)} for POST /v1/estimates and ${MiB(GRAPHQL_BODY_LIMIT_BYTES)} for POST /graphql, which carry measurements)`;

/**
 * Most values (objects, lists and list entries, counted by their `{`, `[` and `,` outside strings)
 * a JSON body may hold. The largest valid input (every allow list full, a week's profile, fifty
 * measurements and discounts) holds under 2,000; 60,000 small objects, each a few bytes, fit the
 * byte limit and would cost the parser and the garbage collector far more than they say.
 */
export const MAX_JSON_VALUES = 10_000;
