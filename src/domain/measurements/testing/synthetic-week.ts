// A synthetic fortnight of measurements with a known answer, for tests only: traffic with a weekday
// and weekend daily pattern (deterministic jitter), and the GPU utilization of a fleet whose mean is
// known by hand. The truths are stated here from the pattern, not computed by the code under test.

/** Requests/s of the pattern at an hour of the week (Monday 00:00 = 0), before jitter. */
export function trafficPattern(hourOfWeek: number): number {
  const weekday = hourOfWeek < 120;
  const hour = hourOfWeek % 24;
  const day = hour >= 8 && hour < 20;
  if (weekday) return day ? 6 + (hour - 8) * 0.5 : 1.5;
  return day ? 2.5 : 0.8;
}

/**
 * GPU utilization of the pattern, percent: weekdays 60 by day and 20 by night, weekends 15.
 * Mean over a week, by hand: (5 × (12 × 60 + 12 × 20) + 2 × 24 × 15) / 168 = 5,520 / 168 = 32.857…%.
 */
export function utilizationPattern(hourOfWeek: number): number {
  const hour = hourOfWeek % 24;
  if (hourOfWeek >= 120) return 15;
  return hour >= 8 && hour < 20 ? 60 : 20;
}
export const UTILIZATION_MEAN_PCT = 5520 / 168;

/** Per-GPU offsets that sum to zero, so the fleet's mean is the pattern's. */
export const GPU_OFFSETS = [-6, -4, -2, 0, 0, 2, 4, 6];

/** Deterministic jitter in [−5%, +5%] (a linear congruential sequence). */
export function jitter(seed: number): number {
  const x = (Math.imul(seed ^ 0x5bd1e995, 1103515245) + 12345) >>> 0;
  return 1 + ((x % 1001) / 1000 - 0.5) / 10;
}

export interface SyntheticSample {
  t: number;
  hourOfWeek: number;
  requestsPerSecond: number;
  /** One value per GPU. */
  utilization: number[];
}

/** Samples every `stepSeconds` from `start` (a Monday 00:00 UTC) for `days` days. */
export function syntheticSamples({ start, days, stepSeconds }: { start: number; days: number; stepSeconds: number }): SyntheticSample[] {
  const samples: SyntheticSample[] = [];
  for (let t = start, i = 0; t < start + days * 86_400; t += stepSeconds, i++) {
    const hourOfWeek = Math.floor((t - start) / 3600) % 168;
    const util = utilizationPattern(hourOfWeek);
    samples.push({
      t,
      hourOfWeek,
      requestsPerSecond: Math.round(trafficPattern(hourOfWeek) * jitter(i) * 1000) / 1000,
      utilization: GPU_OFFSETS.map((o) => util + o),
    });
  }
  return samples;
}

/** The range-query answer Prometheus would give for these samples. */
export function asMatrix(series: { metric: Record<string, string>; values: [number, number][] }[]): string {
  return JSON.stringify({
    status: 'success',
    data: { resultType: 'matrix', result: series.map((s) => ({ metric: s.metric, values: s.values.map(([t, v]) => [t, String(v)]) })) },
  });
}
