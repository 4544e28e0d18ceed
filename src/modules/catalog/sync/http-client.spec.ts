import { parseRetryAfter } from './http-client.js';

describe('parseRetryAfter (RFC 9110 10.2.3)', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('0')).toBe(0);
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(parseRetryAfter('Mon, 30 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 30 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
