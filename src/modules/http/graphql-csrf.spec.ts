// The cache's copy of Apollo's CSRF rule, case by case as @apollo/server's preventCsrf reads them.
import { preflightForced } from './graphql-csrf.js';

describe(preflightForced.name, () => {
  it.each([
    ['no header at all', {}, false],
    ['a simple content type', { 'content-type': 'text/plain' }, false],
    ['a simple content type with parameters and another case', { 'content-type': 'Multipart/Form-Data; boundary=x' }, false],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, false],
    ['an empty apollo-require-preflight', { 'apollo-require-preflight': '' }, false],
    ['an unrelated header', { 'x-requested-with': 'XMLHttpRequest' }, false],
    ['apollo-require-preflight', { 'apollo-require-preflight': 'true' }, true],
    ['x-apollo-operation-name', { 'x-apollo-operation-name': 'Gpus' }, true],
    ['a simple content type and apollo-require-preflight', { 'content-type': 'text/plain', 'apollo-require-preflight': '1' }, true],
    ['a content type that needs a preflight', { 'content-type': 'application/json' }, true],
    // Apollo lets a content type through that it cannot parse.
    ['an unreadable content type', { 'content-type': 'text/plain garbage' }, true],
    ['an empty content type', { 'content-type': '' }, true],
  ])('%s: %j → %s', (_name, headers, expected) => {
    expect(preflightForced(headers)).toBe(expected);
  });
});
