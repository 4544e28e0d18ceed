// The utilization-to-power model (docs/carbon.md): a GPU draws a fixed idle share of its board
// power, and the rest grows linearly with utilization up to the board power (TDP) at full load:
//   watts(u) = TDP × (idle + (1 − idle) × u),  0 ≤ u ≤ 1.
// The same linear model as Cloud Carbon Footprint's "Average Watts = Min Watts + utilization ×
// (Max Watts − Min Watts)", with Min = idle × TDP (data/catalog/energy.yaml, IDLE_POWER_SHARE).

/** The share of board power drawn at utilization u (clamped to 0..1). */
export function powerShare(utilization: number, idleShare: number): number {
  const u = Math.min(1, Math.max(0, utilization));
  return idleShare + (1 - idleShare) * u;
}

/** kWh drawn from the grid per GPU-hour: board power × share × PUE, in kWh. */
export function kwhPerGpuHour({ tdpWatts, pue, share }: { tdpWatts: number; pue: number; share: number }): number {
  return (tdpWatts / 1000) * share * pue;
}
