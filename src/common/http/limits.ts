/** Largest request body (JSON) the service reads; larger ones get 413 REQUEST.TOO_LARGE. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * The bodies that may carry an estimate's measurements (docs/measurements.md): 8 MiB of series
 * text (some 250,000 samples) and the rest of the input. Their samples are counted before any work
 * (MEASUREMENT_MAX_SAMPLES); the text is parsed in the estimate worker, not on the request thread.
 */
export const MEASUREMENT_BODY_LIMIT_BYTES = 9 * 1024 * 1024;
export const MEASUREMENT_ROUTES: readonly string[] = ['/v1/estimates', '/graphql'];

/** What the 413 of a body says, for every route. */
export const BODY_LIMIT_TEXT = `${BODY_LIMIT_BYTES / 1024} KiB (${MEASUREMENT_BODY_LIMIT_BYTES / 1024 / 1024} MiB for POST ${MEASUREMENT_ROUTES.join(' and ')}, which carry measurements)`;

/**
 * Most values (objects, lists and list entries, counted by their `{`, `[` and `,` outside strings)
 * a JSON body may hold. The largest valid input (every allow list full, a week's profile, fifty
 * measurements and discounts) holds under 2,000; 60,000 small objects, each a few bytes, fit the
 * byte limit and would cost the parser and the garbage collector far more than they say.
 */
export const MAX_JSON_VALUES = 10_000;
