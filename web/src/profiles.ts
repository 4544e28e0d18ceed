// Shapes of an average day or week for the estimate form, scaled so that the busiest hour is
// `peak`. These are starting points to edit, not data about anyone's traffic: flat is the same
// every hour; business hours is the peak from 09:00 to 17:00 and a tenth of it otherwise; diurnal
// is a cosine with its high at 14:00 and its low (a fifth of the peak) at 02:00. A week is 168
// values, Monday 00:00 first: five such weekdays, then Saturday and Sunday at WEEKEND_SHARE of them
// (flat stays flat).
export const PROFILE_PRESETS = ['flat', 'diurnal', 'business'] as const;
export type ProfilePreset = (typeof PROFILE_PRESETS)[number];
export const PERIODS = ['day', 'week'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_HOURS: Record<Period, number> = { day: 24, week: 168 };
/** Weekend traffic of a business-facing service against its weekdays: a starting point, not a measurement. */
export const WEEKEND_SHARE = 0.3;
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export function profileOf(preset: ProfilePreset, peak: number, period: Period = 'day'): number[] {
  return Array.from({ length: PERIOD_HOURS[period] }, (_, hour) => {
    const weekend = hour >= 5 * 24 && preset !== 'flat';
    return round(peak * shape(preset, hour % 24) * (weekend ? WEEKEND_SHARE : 1));
  });
}

/** "Mon 14h" for an hour of the week, "14h" for an hour of the day. */
export function hourLabel(hour: number, periodHours: number): string {
  const h = `${String(hour % 24).padStart(2, '0')}h`;
  return periodHours > 24 ? `${WEEKDAYS[Math.floor(hour / 24)] ?? ''} ${h}` : h;
}

function shape(preset: ProfilePreset, hour: number): number {
  switch (preset) {
    case 'flat':
      return 1;
    case 'business':
      return hour >= 9 && hour < 17 ? 1 : 0.1;
    case 'diurnal':
      // 0.6 + 0.4·cos(2π(h − 14)/24): 1 at 14:00, 0.2 at 02:00.
      return 0.6 + 0.4 * Math.cos((2 * Math.PI * (hour - 14)) / 24);
  }
}

/** Four significant places at most: what a person would type. */
function round(value: number): number {
  return Number(value.toPrecision(4));
}
