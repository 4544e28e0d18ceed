// Builders for tests and benchmarks: whole inputs from defaults plus Partial<> overrides.
// GPU figures from gpu-and-llm-facts.md (dense, no sparsity).
import type { PricingModel } from '../catalog/catalog.types.js';
import { Decimal } from '../money/money.js';
import type { EstimateInput, GpuCandidate, TierOfferInput } from './estimate.types.js';
import type { GpuSpec } from './gpu-spec.js';

const spec = (
  slug: string,
  memoryGb: number,
  memoryBandwidthGbps: number,
  fp16Tflops: number,
  int8Tops: number,
  fp8Tflops: number | null,
): GpuSpec => ({ slug, memoryGb, memoryBandwidthGbps, fp16Tflops, int8Tops, fp8Tflops, fp8Support: fp8Tflops !== null });

export const GPUS = {
  t4: spec('t4-16gb', 16, 320, 65, 130, null),
  l4: spec('l4-24gb', 24, 300, 121, 242.5, 242.5),
  a10g: spec('a10g-24gb', 24, 600, 70, 140, null),
  l40s: spec('l40s-48gb', 48, 864, 362, 733, 733),
  a100_40: spec('a100-sxm-40gb', 40, 1555, 312, 624, null),
  a100_80: spec('a100-sxm-80gb', 80, 2039, 312, 624, null),
  h100: spec('h100-sxm-80gb', 80, 3350, 989, 1979, 1979),
  h100_pcie: spec('h100-pcie-80gb', 80, 2000, 756, 1513, 1513),
  h200: spec('h200-141gb', 141, 4800, 989, 1979, 1979),
  b200: spec('b200-180gb', 180, 8000, 2250, 4500, 4500),
  mi300x: spec('mi300x-192gb', 192, 5300, 1307, 2615, 2615),
} as const;

export function offer(pricingModel: PricingModel, pricePerInstanceHour: Decimal.Value, overrides: Partial<TierOfferInput> = {}): TierOfferInput {
  return {
    ref: `${pricingModel.toLowerCase()}-offer`,
    pricingModel,
    gpusPerInstance: 1,
    pricePerInstanceHour: new Decimal(pricePerInstanceHour),
    interruptionNoticeSeconds: pricingModel === 'SPOT' ? 120 : null,
    ...overrides,
  };
}

/** A GPU with per-GPU prices; each price becomes a 1-GPU offer unless overridden. */
export function candidate(
  gpu: GpuSpec,
  pricesPerGpuHour: Partial<Record<PricingModel, Decimal.Value>>,
  gpusPerInstance = 1,
): GpuCandidate {
  const offers: GpuCandidate['offers'] = {};
  for (const [model, price] of Object.entries(pricesPerGpuHour) as [PricingModel, Decimal.Value][]) {
    offers[model] = offer(model, new Decimal(price).mul(gpusPerInstance), {
      ref: `${gpu.slug}/${model.toLowerCase()}`,
      gpusPerInstance,
    });
  }
  return { gpu, offers };
}

/** Typical per-GPU-hour USD prices: on-demand, 1-year reserved (≈ −45%), spot (≈ −65%). */
export function standardCandidate(gpu: GpuSpec, onDemand: Decimal.Value, gpusPerInstance = 1): GpuCandidate {
  const od = new Decimal(onDemand);
  return candidate(gpu, { ON_DEMAND: od, RESERVED_1Y: od.mul(0.55), SPOT: od.mul(0.35) }, gpusPerInstance);
}

/** A diurnal profile: quiet nights, a daytime plateau, peak at 14:00. */
export function diurnalProfile(peakRequestsPerSecond: number): number[] {
  return Array.from({ length: 24 }, (_, h) => {
    const day = Math.max(0, Math.sin(((h - 6) / 16) * Math.PI));
    return Number((peakRequestsPerSecond * (0.1 + 0.9 * day)).toFixed(3));
  });
}

export function estimateInput(overrides: Partial<EstimateInput> = {}): EstimateInput {
  return {
    model: { preset: 'llama-3-8b' },
    precisions: ['FP16'],
    workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
    tolerance: 'INTOLERANT',
    candidates: [standardCandidate(GPUS.h100, '3.90')],
    currency: 'USD',
    ...overrides,
  };
}
