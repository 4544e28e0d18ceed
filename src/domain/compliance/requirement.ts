// The requirement: what the buyer needs, as opposed to the policy (what they may use). An offer
// that does not match the requirement is not a candidate at all: it is never "excluded" and never
// a near miss, because no policy change would make it useful.
import { Decimal } from '../money/money.js';
import type { GpuModel, Offer } from '../catalog/catalog.types.js';
import { PolicyError } from './policy.js';

/**
 * PER_INSTANCE: the offer's instance has exactly `gpuCount` GPUs. Exactly, not "at least": a
 * 16-GPU box is a different purchase than an 8-GPU one, and the listing filter `gpuCount` means
 * the same. TOTAL: `gpuCount` GPUs pooled over ceil(gpuCount / offer.gpuCount) instances of any
 * size, ranked by what that pool costs (so a partly idle last instance is paid for).
 */
export const GPU_COUNT_MODES = ['PER_INSTANCE', 'TOTAL'] as const;
export type GpuCountMode = (typeof GPU_COUNT_MODES)[number];

export interface GpuRequirement {
  /** Acceptable GPU model slugs; null = any model (then usually minGpuMemoryGb is set). */
  gpus: readonly string[] | null;
  minGpuMemoryGb: Decimal | null;
  /** null = any instance size, ranked per GPU-hour. */
  gpuCount: number | null;
  gpuCountMode: GpuCountMode;
}

export interface GpuRequirementInput {
  gpus?: readonly string[] | null;
  minGpuMemoryGb?: Decimal.Value | null;
  gpuCount?: number | null;
  gpuCountMode?: string | null;
}

export const ANY_REQUIREMENT: GpuRequirement = Object.freeze({
  gpus: null,
  minGpuMemoryGb: null,
  gpuCount: null,
  gpuCountMode: 'PER_INSTANCE',
});

/** Validates a requirement; errors name the field. GPU slugs are checked against a catalog later. */
export function resolveRequirement(input: GpuRequirementInput): GpuRequirement {
  const gpus = input.gpus?.length ? [...new Set(input.gpus.map((g) => g.trim().toLowerCase()))] : null;
  if (gpus?.some((g) => g === '')) throw new PolicyError('gpus', 'gpus has an empty entry');
  let minGpuMemoryGb: Decimal | null = null;
  if (input.minGpuMemoryGb != null) {
    try {
      minGpuMemoryGb = new Decimal(input.minGpuMemoryGb);
    } catch {
      throw new PolicyError('minGpuMemoryGb', `minGpuMemoryGb must be a number; got ${String(input.minGpuMemoryGb)}`);
    }
    if (!minGpuMemoryGb.isFinite() || minGpuMemoryGb.lt(0)) {
      throw new PolicyError('minGpuMemoryGb', 'minGpuMemoryGb must be zero or more');
    }
  }
  const gpuCount = input.gpuCount ?? null;
  if (gpuCount !== null && (!Number.isInteger(gpuCount) || gpuCount < 1)) {
    throw new PolicyError('gpuCount', `gpuCount must be a positive integer; got ${gpuCount}`);
  }
  const mode = (input.gpuCountMode ?? 'PER_INSTANCE').trim().toUpperCase();
  if (!(GPU_COUNT_MODES as readonly string[]).includes(mode)) {
    throw new PolicyError('gpuCountMode', `gpuCountMode must be one of ${GPU_COUNT_MODES.join(', ')}`);
  }
  return { gpus, minGpuMemoryGb, gpuCount, gpuCountMode: mode as GpuCountMode };
}

/** Whether a GPU model is acceptable (slug and memory); independent of the instance size. */
export function gpuMatches({ gpu, requirement }: { gpu: GpuModel; requirement: GpuRequirement }): boolean {
  if (requirement.gpus && !requirement.gpus.includes(gpu.slug)) return false;
  return !requirement.minGpuMemoryGb || gpu.memoryGb.gte(requirement.minGpuMemoryGb);
}

/** Whether an offer's instance size fits the requirement's GPU count. */
export function gpuCountMatches({ offer, requirement }: { offer: Offer; requirement: GpuRequirement }): boolean {
  if (requirement.gpuCount === null || requirement.gpuCountMode === 'TOTAL') return true;
  return offer.gpuCount === requirement.gpuCount;
}

export function matchesRequirement({ offer, gpu, requirement }: { offer: Offer; gpu: GpuModel; requirement: GpuRequirement }): boolean {
  return gpuMatches({ gpu, requirement }) && gpuCountMatches({ offer, requirement });
}

/** Instances to buy for the requirement: 1 unless pooling GPUs in TOTAL mode. */
export function instancesFor({ offer, requirement }: { offer: Offer; requirement: GpuRequirement }): number {
  if (requirement.gpuCount === null || requirement.gpuCountMode === 'PER_INSTANCE') return 1;
  return Math.ceil(requirement.gpuCount / offer.gpuCount);
}
