import { isDatabaseUnavailable, toProblem } from './problem-details.filter.js';

describe(isDatabaseUnavailable.name, () => {
  it('treats a statement timeout and the client-side query timeout as "PostgreSQL is not answering": 503, never 500', () => {
    const statementTimeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const clientTimeout = new Error('Query read timeout');
    const wrapped = Object.assign(new Error('prisma'), { cause: statementTimeout });
    for (const e of [statementTimeout, clientTimeout, wrapped]) {
      expect(isDatabaseUnavailable(e)).toBe(true);
      expect(toProblem(e)).toMatchObject({ status: 503, code: 'DATABASE.UNAVAILABLE' });
    }
    // A programming error is not an outage.
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
