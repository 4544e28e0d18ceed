import { hourLabel, profileOf } from './profiles';

// Expected values worked out by hand from the shapes' definitions in profiles.ts.
describe('profileOf', () => {
  it('flat: the peak every hour', () => {
    expect(profileOf('flat', 12.5)).toEqual(Array(24).fill(12.5));
  });

  it('business hours: the peak from 09:00 to 17:00, a tenth of it otherwise', () => {
    const p = profileOf('business', 200);
    expect(
      p
        .map((v, h) => [h, v])
        .filter(([, v]) => v === 200)
        .map(([h]) => h),
    ).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    expect(p.filter((v) => v === 20)).toHaveLength(16);
  });

  it('diurnal: the peak at 14:00, a fifth of it at 02:00, 0.6 of it at 08:00 and 20:00', () => {
    const p = profileOf('diurnal', 10);
    expect([p[14], p[2], p[8], p[20]]).toEqual([10, 2, 6, 6]);
    expect(Math.max(...p)).toBe(10);
    expect(p).toHaveLength(24);
  });
});

describe('profileOf a week', () => {
  it('five weekdays of the day shape, then a weekend at 30% of it; Monday 00:00 first', () => {
    const week = profileOf('business', 200, 'week');
    expect(week).toHaveLength(168);
    // Wednesday 10:00 is hour 2 × 24 + 10 = 58: the peak. Saturday 10:00 is hour 130: 30% of it, 60.
    expect([week[58], week[130], week[2 * 24 + 3], week[6 * 24 + 3]]).toEqual([200, 60, 20, 6]);
    expect(week.slice(0, 120)).toEqual([...Array(5)].flatMap(() => profileOf('business', 200)));
  });

  it('flat stays flat over the weekend', () => {
    expect(profileOf('flat', 7, 'week')).toEqual(Array(168).fill(7));
  });
});

describe('hourLabel', () => {
  it('names the weekday in a week, only the hour in a day', () => {
    expect([hourLabel(14, 24), hourLabel(0, 168), hourLabel(130, 168), hourLabel(167, 168)]).toEqual(['14h', 'Mon 00h', 'Sat 10h', 'Sun 23h']);
  });
});
