import { profileOf } from './profiles';

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
