// optimizeFor CARBON: the plan with the least g CO2e at full load wins over the cheaper one; COST,
// the default, is unchanged; a plan with an offer of unknown carbon ranks after the known ones.
import { candidate, estimateInput, GPUS } from './estimate.factories.js';
import { estimateInferenceCost } from './estimate.js';
import type { GpuCandidate } from './estimate.types.js';

/** One on-demand offer per GPU; its g CO2e per GPU-hour as given (docs/carbon.md). */
const withCarbon = (c: GpuCandidate, g: number | null): GpuCandidate => ({ ...c, offers: c.offers.map((o) => ({ ...o, gCo2ePerGpuHour: g })) });
// The A100 is cheaper but on a dirty grid (Poland: 0.4 kW × 1.58 × 581 g = 367.2 g per GPU-hour);
// the H100 dearer but in Sweden (0.7 kW × 1.135 × 23 g = 18.27 g per GPU-hour).
const a100 = withCarbon(candidate(GPUS.a100_80, { ON_DEMAND: '1.50' }), 367.2);
const h100 = withCarbon(candidate(GPUS.h100, { ON_DEMAND: '3.90' }), 18.27);

function chosenGpu(optimizeFor: 'COST' | 'CARBON' | undefined, candidates: GpuCandidate[]): string {
  const out = estimateInferenceCost(estimateInput({ candidates, ...(optimizeFor ? { optimizeFor } : {}) }));
  if (out.kind !== 'OK') throw new Error(out.kind);
  return out.estimate.gpu.slug;
}

describe('optimizeFor', () => {
  it('COST (and the default) picks the cheaper A100; CARBON the H100 with fewer g CO2e per month', () => {
    expect(chosenGpu(undefined, [a100, h100])).toBe(GPUS.a100_80.slug);
    expect(chosenGpu('COST', [a100, h100])).toBe(GPUS.a100_80.slug);
    // At 1 request/s one replica serves either way: 730 GPU-hours × 367.2 g (A100) against 730 × 18.27 g (H100).
    expect(chosenGpu('CARBON', [a100, h100])).toBe(GPUS.h100.slug);
  });

  it('a plan whose offer has no carbon figure ranks after one that has', () => {
    expect(chosenGpu('CARBON', [withCarbon(a100, 367.2), withCarbon(h100, null)])).toBe(GPUS.a100_80.slug);
  });
});
