// Builders for tests and benchmarks: whole inputs from defaults plus Partial<> overrides.
import type { PricingModel } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import { Decimal } from '../money/money.js';
import type { EstimateInput, GpuCandidate, TierOfferInput } from './estimate.types.js';
import { REFERENCE_GPUS, type GpuSpec } from './gpu-spec.js';

export const GPUS = REFERENCE_GPUS;

export function offer(pricingModel: PricingModel, pricePerInstanceHour: Decimal.Value, overrides: Partial<TierOfferInput> = {}): TierOfferInput {
  return {
    ref: `${pricingModel.toLowerCase()}-offer`,
    provider: 'aws',
    region: 'aws:us-east-1',
    egressPricePerGb: new Decimal('0.09'),
    pricingModel,
    gpusPerInstance: 1,
    pricePerInstanceHour: new Decimal(pricePerInstanceHour),
    interruptionNoticeSeconds: PRICING_MODEL_TRAITS[pricingModel].interruptible ? 120 : null,
    ...overrides,
  };
}

/** A GPU with per-GPU prices; each price becomes a 1-GPU offer unless overridden. */
export function candidate(gpu: GpuSpec, pricesPerGpuHour: Partial<Record<PricingModel, Decimal.Value>>, gpusPerInstance = 1): GpuCandidate {
  const offers = (Object.entries(pricesPerGpuHour) as [PricingModel, Decimal.Value][]).map(([model, price]) =>
    offer(model, new Decimal(price).mul(gpusPerInstance), { ref: `${gpu.slug}/${model.toLowerCase()}`, gpusPerInstance }),
  );
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
