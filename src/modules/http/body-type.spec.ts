// Which request bodies the API reads: JSON, in UTF-8, uncompressed.
import { unsupportedBody } from './http-hooks.js';

describe(unsupportedBody.name, () => {
  it.each([
    ['application/json', undefined],
    ['application/json; charset=utf-8', undefined],
    ['application/json;charset="UTF8"', 'identity'],
    ['application/problem+json', undefined],
  ])('reads %s (Content-Encoding %s)', (type, encoding) => {
    expect(unsupportedBody(type, encoding)).toBeNull();
  });

  it.each([
    [undefined, undefined, 'must be sent as application/json (no content-type was given)'],
    ['text/plain', undefined, 'must be sent as application/json, not text/plain'],
    ['application/json; charset=utf-16', undefined, 'must be UTF-8, not utf-16'],
    ['application/json; charset=latin1', undefined, 'must be UTF-8, not latin1'],
    ['application/json', 'gzip', 'must be sent uncompressed (Content-Encoding gzip is not read)'],
    ['application/json', ['br', 'gzip'], 'must be sent uncompressed (Content-Encoding br,gzip is not read)'],
  ])('refuses %s with Content-Encoding %s: %s', (type, encoding, reason) => {
    expect(unsupportedBody(type, encoding)).toBe(reason);
  });
});
