// Does one replica of a model fit on t GPUs, and how many sequences can it hold?
import type { ModelSpec } from './model-presets.js';
import { cachedTokens, kvBytesPerToken, weightBytes } from './model.js';
import type { Precision } from './precision.js';
import { at } from '../checked.js';

/** Vendor "GB" of GPU memory behaves like GiB (an A100-40GB reports 42,405,855,232 bytes). */
export const BYTES_PER_GPU_GB = 2 ** 30;
/** vLLM's gpu_memory_utilization default in 0.6.x; TensorRT-LLM also reserves 0.90 for KV. */
export const USABLE_MEMORY_FRACTION = 0.9;
/**
 * Per-GPU runtime overhead inside the usable budget: activations for a prefill chunk, CUDA
 * graphs, NCCL buffers. About 1 GiB per GPU for 7–70B models in vLLM's start-up memory profile;
 * HF accelerate suggests "up to 20%" of weights, which is more conservative for small models.
 */
export const RUNTIME_OVERHEAD_GB_PER_GPU = 1;
/** vLLM allocates the KV cache in blocks of 16 tokens. */
export const KV_BLOCK_TOKENS = 16;
export const TENSOR_PARALLEL_DEGREES = [1, 2, 4, 8] as const;
/** Context assumed by requiredGpuMemoryGb when the caller names none (Llama-2's full window). */
export const DEFAULT_CONTEXT_TOKENS = 4096;

export interface ReplicaMemory {
  tensorParallel: number;
  usableGb: number;
  weightsGb: number;
  overheadGb: number;
  kvPerSequenceGb: number;
  /** Sequences at the given context that fit beside weights and overhead (0 if none). */
  maxBatch: number;
}

/** Memory budget of one replica on t GPUs; all figures in GiB (= vendor GB). */
export function replicaMemory({
  model,
  precision,
  gpuMemoryGb,
  tensorParallel,
  contextTokens,
}: {
  model: ModelSpec;
  precision: Precision;
  gpuMemoryGb: number;
  tensorParallel: number;
  contextTokens: number;
}): ReplicaMemory {
  const usableGb = tensorParallel * gpuMemoryGb * USABLE_MEMORY_FRACTION;
  const weightsGb = weightBytes({ model, precision }) / BYTES_PER_GPU_GB;
  const overheadGb = tensorParallel * RUNTIME_OVERHEAD_GB_PER_GPU;
  const kvPerSequenceGb = kvPerSequenceBytes({ model, precision, contextTokens }) / BYTES_PER_GPU_GB;
  const freeGb = usableGb - weightsGb - overheadGb;
  const maxBatch = freeGb <= 0 ? 0 : Math.floor(freeGb / kvPerSequenceGb + 1e-9);
  return { tensorParallel, usableGb, weightsGb, overheadGb, kvPerSequenceGb, maxBatch };
}

function kvPerSequenceBytes({ model, precision, contextTokens }: { model: ModelSpec; precision: Precision; contextTokens: number }): number {
  const tokens = cachedTokens({ model, contextTokens: Math.max(1, contextTokens) });
  const blocks = Math.ceil(tokens / KV_BLOCK_TOKENS);
  return blocks * KV_BLOCK_TOKENS * kvBytesPerToken({ model, precision });
}

export type ReplicaFit =
  | {
      fits: true;
      /** Smallest tensor-parallel degree that fits. */
      tensorParallel: number;
      /** Every degree that fits (the cost model may prefer a larger one for throughput). */
      options: ReplicaMemory[];
    }
  | { fits: false; reason: string; neededGb: number; availableGb: number };

/**
 * Smallest tensor-parallel degree t ∈ {1, 2, 4, 8}, t ≤ GPUs per instance and dividing the
 * attention heads (vLLM requires it), whose t × memory × 0.9 holds weights, t GiB of runtime
 * overhead and the KV cache of `minBatch` sequences of `contextTokens`.
 */
export function fitReplica({
  model,
  precision,
  gpuMemoryGb,
  gpusPerInstance,
  contextTokens,
  minBatch = 1,
}: {
  model: ModelSpec;
  precision: Precision;
  gpuMemoryGb: number;
  gpusPerInstance: number;
  contextTokens: number;
  minBatch?: number;
}): ReplicaFit {
  const options: ReplicaMemory[] = [];
  let largestTried: ReplicaMemory | null = null;
  for (const t of TENSOR_PARALLEL_DEGREES) {
    if (t > gpusPerInstance || model.attentionHeads % t !== 0) continue;
    const memory = replicaMemory({ model, precision, gpuMemoryGb, tensorParallel: t, contextTokens });
    largestTried = memory;
    if (memory.maxBatch >= minBatch) options.push(memory);
  }
  if (options.length > 0) return { fits: true, tensorParallel: at(options, 0).tensorParallel, options };
  const m = largestTried ?? replicaMemory({ model, precision, gpuMemoryGb, tensorParallel: 1, contextTokens });
  const neededGb = m.weightsGb + m.overheadGb + minBatch * m.kvPerSequenceGb;
  return {
    fits: false,
    neededGb,
    availableGb: m.usableGb,
    reason:
      `${model.name} at ${precision} needs ${neededGb.toFixed(1)} GB (weights ${m.weightsGb.toFixed(1)} GB, ` +
      `runtime ${m.overheadGb.toFixed(1)} GB, KV cache ${(minBatch * m.kvPerSequenceGb).toFixed(2)} GB) but ` +
      `${m.tensorParallel} × ${gpuMemoryGb} GB × ${USABLE_MEMORY_FRACTION} gives ${m.usableGb.toFixed(1)} GB`,
  };
}

/**
 * GPU memory (vendor GB) one GPU needs to serve the model at this precision with `batch`
 * sequences of `contextTokens`: (weights + runtime overhead + KV cache) / usable fraction.
 * Lets the cheapest-offer search turn "serve model X at precision P" into minGpuMemoryGb.
 */
export function requiredGpuMemoryGb({
  model,
  precision,
  contextTokens = DEFAULT_CONTEXT_TOKENS,
  batch = 1,
}: {
  model: ModelSpec;
  precision: Precision;
  contextTokens?: number;
  batch?: number;
}): number {
  const weightsGb = weightBytes({ model, precision }) / BYTES_PER_GPU_GB;
  const kvGb = (batch * kvPerSequenceBytes({ model, precision, contextTokens })) / BYTES_PER_GPU_GB;
  return (weightsGb + RUNTIME_OVERHEAD_GB_PER_GPU + kvGb) / USABLE_MEMORY_FRACTION;
}
