/** Largest request body (JSON) the service reads; larger ones get 413 REQUEST.TOO_LARGE. */
export const BODY_LIMIT_BYTES = 256 * 1024;
