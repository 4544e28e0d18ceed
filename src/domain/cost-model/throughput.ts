// Throughput of one replica from the roofline (docs/cost-model.md#the-roofline): a decode step is bound by
// reading weights + KV cache, or by the FLOPs of the batch, whichever takes longer.
import { replicaMemory } from '../sizing/fit.js';
import type { ModelSpec } from '../sizing/model-presets.js';
import { cachedTokens, kvBytesPerToken, weightBytesReadPerStep } from '../sizing/model.js';
import type { Precision } from '../sizing/precision.js';
import {
  DEFAULT_INTER_TOKEN_LATENCY_MS,
  DEFAULT_MAX_BATCH,
  EFFICIENCY,
  type Efficiency,
  FP32_SHARE_OF_FP16_PEAK,
  TENSOR_PARALLEL_EFFICIENCY,
} from './calibration.js';
import type { GpuSpec } from './gpu-spec.js';

export interface ReplicaThroughput {
  /** Concurrent sequences per decode step. */
  batch: number;
  /** Decode step time; null when the figure is a caller's measurement. */
  stepTimeMs: number | null;
  prefillTimeMsPerRequest: number | null;
  requestsPerSecond: number;
  outputTokensPerSecond: number;
  bound: 'MEMORY' | 'COMPUTE' | 'MEASURED';
  /** False when even batch 1 is slower per token than the target. */
  meetsLatencyTarget: boolean;
  /** Largest batch the KV cache holds at the workload's context. */
  memoryBatchLimit: number;
  /** Peak dense TFLOPS used for this precision on this GPU; null for a measurement. */
  peakTflops: number | null;
  /** FP8 without FP8 tensor cores and INT4 (AWQ) compute at the FP16 rate: weight-only. */
  weightOnly: boolean;
}

export interface ReplicaThroughputInput {
  model: ModelSpec;
  precision: Precision;
  gpu: GpuSpec;
  tensorParallel: number;
  avgInputTokens: number;
  avgOutputTokens: number;
  /** Time per output token the batch must stay within, ms; default 50. Infinity = offline. */
  interTokenLatencyMs?: number;
  /** Upper bound on the batch; default 256 (vLLM max_num_seqs). */
  maxBatch?: number;
  /** Force this batch (reproducing a benchmark that states it); skips the search. */
  batch?: number;
  efficiency?: Efficiency;
}

/** Peak dense TFLOPS (or TOPS) at a precision, and whether the precision is weight-only there. */
export function peakCompute({ gpu, precision }: { gpu: GpuSpec; precision: Precision }): {
  peakTflops: number;
  weightOnly: boolean;
} {
  switch (precision) {
    case 'FP32':
      return { peakTflops: gpu.fp16Tflops * FP32_SHARE_OF_FP16_PEAK, weightOnly: false };
    case 'FP16':
    case 'BF16':
      return { peakTflops: gpu.fp16Tflops, weightOnly: false };
    case 'FP8':
      // Ampere/Turing run FP8 checkpoints weight-only: 1-byte weights, FP16 math (vLLM fp8 docs).
      return gpu.fp8Support ? { peakTflops: gpu.fp8Tflops ?? gpu.int8Tops, weightOnly: false } : { peakTflops: gpu.fp16Tflops, weightOnly: true };
    case 'INT8':
      // SmoothQuant W8A8 uses INT8 tensor cores.
      return { peakTflops: gpu.int8Tops > 0 ? gpu.int8Tops : gpu.fp16Tflops, weightOnly: false };
    case 'INT4':
      // AWQ/GPTQ W4A16: weights dequantized to FP16 inside the matmul.
      return { peakTflops: gpu.fp16Tflops, weightOnly: true };
  }
}

/** Roofline throughput of one replica; null when not even one sequence fits in memory. */
export function estimateReplicaThroughput(input: ReplicaThroughputInput): ReplicaThroughput | null {
  const { model, precision, gpu, tensorParallel: t, avgInputTokens, avgOutputTokens } = input;
  const target = input.interTokenLatencyMs ?? DEFAULT_INTER_TOKEN_LATENCY_MS;
  const eff = input.efficiency ?? EFFICIENCY[precision];
  const tp = TENSOR_PARALLEL_EFFICIENCY[t] ?? 0.64;
  const { peakTflops, weightOnly } = peakCompute({ gpu, precision });

  const memory = replicaMemory({
    model,
    precision,
    gpuMemoryGb: gpu.memoryGb,
    tensorParallel: t,
    contextTokens: avgInputTokens + avgOutputTokens,
  });
  if (memory.maxBatch < 1 && input.batch === undefined) return null;

  const bytesPerSecond = t * gpu.memoryBandwidthGbps * 1e9 * eff.etaMem * tp;
  const flopsPerSecond = t * peakTflops * 1e12 * eff.etaFlop * tp;
  const activeParams = model.activeParametersB * 1e9;
  // Over a request's decode its context grows from input to input + output: average midway.
  const avgContext = cachedTokens({ model, contextTokens: avgInputTokens + avgOutputTokens / 2 });
  const kvPerToken = kvBytesPerToken({ model, precision });

  const memorySeconds = (b: number): number => (weightBytesReadPerStep({ model, precision, batch: b }) + b * avgContext * kvPerToken) / bytesPerSecond;
  const computeSeconds = (b: number): number => (2 * activeParams * b) / flopsPerSecond;
  const stepSeconds = (b: number): number => Math.max(memorySeconds(b), computeSeconds(b));

  let batch: number;
  if (input.batch !== undefined) {
    batch = input.batch;
  } else {
    const cap = Math.max(1, Math.min(memory.maxBatch, input.maxBatch ?? DEFAULT_MAX_BATCH));
    batch = largestBatchWithin({ cap, fits: (b) => stepSeconds(b) * 1000 <= target });
  }
  const step = stepSeconds(batch);
  const prefill = (2 * activeParams * avgInputTokens) / flopsPerSecond;
  const requestsPerSecond = 1 / (prefill + (avgOutputTokens * step) / batch);
  return {
    batch,
    stepTimeMs: step * 1000,
    prefillTimeMsPerRequest: prefill * 1000,
    requestsPerSecond,
    outputTokensPerSecond: requestsPerSecond * avgOutputTokens,
    bound: memorySeconds(batch) >= computeSeconds(batch) ? 'MEMORY' : 'COMPUTE',
    meetsLatencyTarget: step * 1000 <= target,
    memoryBatchLimit: memory.maxBatch,
    peakTflops,
    weightOnly,
  };
}

/** Step time grows with the batch, so the largest batch within the target is a binary search. */
function largestBatchWithin({ cap, fits }: { cap: number; fits: (batch: number) => boolean }): number {
  if (!fits(1)) return 1;
  let lo = 1;
  let hi = cap;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A caller's own measurement replaces the roofline. Either figure may be given; output tokens
 * per second are turned into requests with the workload's average output length.
 */
export function measuredReplicaThroughput({
  requestsPerSecond,
  outputTokensPerSecond,
  avgOutputTokens,
  memoryBatchLimit,
}: {
  requestsPerSecond?: number;
  outputTokensPerSecond?: number;
  avgOutputTokens: number;
  memoryBatchLimit: number;
}): ReplicaThroughput {
  const rps = requestsPerSecond ?? (outputTokensPerSecond ?? 0) / avgOutputTokens;
  return {
    batch: memoryBatchLimit,
    stepTimeMs: null,
    prefillTimeMsPerRequest: null,
    requestsPerSecond: rps,
    outputTokensPerSecond: rps * avgOutputTokens,
    bound: 'MEASURED',
    meetsLatencyTarget: true,
    memoryBatchLimit,
    peakTflops: null,
    weightOnly: false,
  };
}
