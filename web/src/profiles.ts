// Shapes of an average day for the estimate form: 24 requests/s values, hour 0 first, scaled so
// that the busiest hour is `peak`. These are starting points to edit, not data about anyone's
// traffic: flat is the same every hour; business hours is the peak from 09:00 to 17:00 and a tenth
// of it otherwise; diurnal is a cosine with its high at 14:00 and its low (a fifth of the peak)
// at 02:00.
export const PROFILE_PRESETS = ['flat', 'diurnal', 'business'] as const;
export type ProfilePreset = (typeof PROFILE_PRESETS)[number];

export function profileOf(preset: ProfilePreset, peak: number): number[] {
  return Array.from({ length: 24 }, (_, hour) => round(peak * shape(preset, hour)));
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
