// The Measured view's pure parts: which format a pasted measurement is in, and the colour of a
// heatmap cell (a sequential blue scale from the Okabe–Ito blue, readable with colour blindness;
// every cell also states its figure).

/** A range-query answer is a JSON object; anything else is taken as CSV lines. */
export function measurementFormat(text: string): 'prometheus' | 'csv' {
  return text.trimStart().startsWith('{') ? 'prometheus' : 'csv';
}

/** The measurement input of one pasted text, or undefined for an empty one. */
export function seriesInput(text: string): { prometheus: string } | { csv: string } | undefined {
  if (!text.trim()) return undefined;
  return measurementFormat(text) === 'prometheus' ? { prometheus: text } : { csv: text };
}

/** Background and text colour of a utilization cell, 0–100 %; null (no sample) is grey. */
export function heatColour(pct: number | null): { background: string; color: string } {
  if (pct === null) return { background: '#eeeeee', color: '#1f2328' };
  const t = Math.max(0, Math.min(1, pct / 100));
  // From near-white (#f4f8fb) to the palette's blue (#0072B2).
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  const rgb = [mix(0xf4, 0x00), mix(0xf8, 0x72), mix(0xfb, 0xb2)] as const;
  // WCAG: black text has a contrast of at least 4.5:1 on a background of relative luminance 0.175
  // or more, white text below it; so every cell reads at AA.
  return { background: `rgb(${rgb.join(', ')})`, color: luminance(rgb) >= 0.175 ? '#000000' : '#ffffff' };
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function luminance([r, g, b]: readonly [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** An estimate request with measurements, as the shipped example (examples/estimate-measured.json) is written. */
export interface MeasuredRequest {
  model?: { preset?: string };
  workload?: { avgInputTokens?: number; avgOutputTokens?: number };
  policy?: { preset?: string };
  currency?: string;
  measurements?: {
    traffic?: { prometheus?: string; csv?: string; unit?: string };
    utilization?: { prometheus?: string; csv?: string };
    timezone?: string;
    fleet?: { gpu?: string; count?: number; provider?: string; region?: string; pricingModel?: string };
  };
}

/** The Measured view's fields filled from such a request: what it has, over the view's defaults. */
export function formFromRequest<F extends Record<string, string>>(request: MeasuredRequest, defaults: F): { form: F; traffic: string; utilization: string } {
  const m = request.measurements ?? {};
  const given: Record<string, string | number | undefined> = {
    model: request.model?.preset,
    tokensIn: request.workload?.avgInputTokens,
    tokensOut: request.workload?.avgOutputTokens,
    unit: m.traffic?.unit,
    preset: request.policy?.preset,
    timezone: m.timezone,
    currency: request.currency,
    fleetGpu: m.fleet?.gpu,
    fleetCount: m.fleet?.count,
    fleetProvider: m.fleet?.provider,
    fleetRegion: m.fleet?.region,
    fleetPricing: m.fleet?.pricingModel,
  };
  const form = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof F)[]) {
    const value = given[key as string];
    if (value !== undefined) form[key] = String(value) as F[keyof F];
  }
  return {
    form,
    traffic: m.traffic?.prometheus ?? m.traffic?.csv ?? '',
    utilization: m.utilization?.prometheus ?? m.utilization?.csv ?? '',
  };
}
