/** Largest request body (JSON) the service reads; larger ones get 413 REQUEST.TOO_LARGE. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Most values (objects, lists and list entries, counted by their `{`, `[` and `,` outside strings)
 * a JSON body may hold. The largest valid input (every allow list full, a week's profile, fifty
 * measurements and discounts) holds under 2,000; 60,000 small objects, each a few bytes, fit the
 * byte limit and would cost the parser and the garbage collector far more than they say.
 */
export const MAX_JSON_VALUES = 10_000;
