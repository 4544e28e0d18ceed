// Published measurements the roofline is calibrated against, each with its source
// (docs/cost-model.md#calibration). Data, not logic: calibration.spec.ts checks each within ±35%.
import type { Precision } from '../sizing/precision.js';
import { REFERENCE_GPUS, type GpuSpec } from './gpu-spec.js';

export const CALIBRATION_GPUS = {
  a100_40: REFERENCE_GPUS.a100_40,
  a100_80: REFERENCE_GPUS.a100_80,
  h100: REFERENCE_GPUS.h100,
} as const;

export interface CalibrationPoint {
  source: string;
  modelSlug: string;
  gpu: GpuSpec;
  precision: Precision;
  avgInputTokens: number;
  avgOutputTokens: number;
  /** Stated batch of the benchmark; absent = the model picks it. */
  batch?: number;
  /** Fixed tensor-parallel degree; absent = the best per-GPU throughput among those that fit. */
  tensorParallel?: number;
  /** Latency bound of the run (Infinity for offline throughput runs). */
  interTokenLatencyMs: number;
  maxBatch?: number;
  measured: { outputTokensPerSecondPerGpu: number } | { stepTimeMs: number };
}

export const CALIBRATION_POINTS: readonly CalibrationPoint[] = [
  {
    source: 'MLPerf Inference v4.1, 8×H100-SXM-80GB TensorRT-LLM, llama2-70b offline (OpenOrca, ≈300 in / 270 out)',
    modelSlug: 'llama-2-70b',
    gpu: CALIBRATION_GPUS.h100,
    precision: 'FP8',
    avgInputTokens: 300,
    avgOutputTokens: 270,
    interTokenLatencyMs: Infinity,
    maxBatch: 1024,
    measured: { outputTokensPerSecondPerGpu: 24_525 / 8 },
  },
  {
    source: 'MLPerf Inference v4.1, 8×H100-SXM-80GB, llama2-70b server (TPOT limit 200 ms)',
    modelSlug: 'llama-2-70b',
    gpu: CALIBRATION_GPUS.h100,
    precision: 'FP8',
    avgInputTokens: 300,
    avgOutputTokens: 270,
    interTokenLatencyMs: 200,
    maxBatch: 1024,
    measured: { outputTokensPerSecondPerGpu: 21_606 / 8 },
  },
  {
    source: 'NVIDIA/TensorRT-LLM v0.6.1 docs/source/performance.md, Llama-2-7B 1×A100 FP16 128/128 batch 384',
    modelSlug: 'llama-2-7b',
    gpu: CALIBRATION_GPUS.a100_80,
    precision: 'FP16',
    avgInputTokens: 128,
    avgOutputTokens: 128,
    batch: 384,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { outputTokensPerSecondPerGpu: 5_586 },
  },
  {
    source: 'NVIDIA/TensorRT-LLM v0.6.1 docs/source/performance.md, Llama-2-7B 1×H100 FP8 128/128 batch 768',
    modelSlug: 'llama-2-7b',
    gpu: CALIBRATION_GPUS.h100,
    precision: 'FP8',
    avgInputTokens: 128,
    avgOutputTokens: 128,
    batch: 768,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { outputTokensPerSecondPerGpu: 19_694 },
  },
  {
    source: 'NVIDIA/TensorRT-LLM blogs/H100vsA100.md, GPT-J 6B 1×H100 FP8 128/128 batch 64',
    modelSlug: 'gpt-j-6b',
    gpu: CALIBRATION_GPUS.h100,
    precision: 'FP8',
    avgInputTokens: 128,
    avgOutputTokens: 128,
    batch: 64,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { outputTokensPerSecondPerGpu: 10_907 },
  },
  {
    source: 'NVIDIA/TensorRT-LLM blogs/H100vsA100.md, GPT-J 6B 1×A100 FP16 128/128 batch 64',
    modelSlug: 'gpt-j-6b',
    gpu: CALIBRATION_GPUS.a100_80,
    precision: 'FP16',
    avgInputTokens: 128,
    avgOutputTokens: 128,
    batch: 64,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { outputTokensPerSecondPerGpu: 3_679 },
  },
  {
    source: 'llm-awq TinyChat, Llama-3-8B batch 1 on A100, FP16',
    modelSlug: 'llama-3-8b',
    gpu: CALIBRATION_GPUS.a100_80,
    precision: 'FP16',
    avgInputTokens: 32,
    avgOutputTokens: 128,
    batch: 1,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { stepTimeMs: 12.37 },
  },
  {
    source: 'llm-awq TinyChat, Llama-3-8B batch 1 on A100, W4A16 (AWQ)',
    modelSlug: 'llama-3-8b',
    gpu: CALIBRATION_GPUS.a100_80,
    precision: 'INT4',
    avgInputTokens: 32,
    avgOutputTokens: 128,
    batch: 1,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { stepTimeMs: 6.29 },
  },
  {
    source: 'FasterTransformer 13B via llm-analysis examples/fastertransformer, A100-40GB TP1, batch 1, 512 in',
    modelSlug: 'llama-2-13b',
    gpu: CALIBRATION_GPUS.a100_40,
    precision: 'FP16',
    avgInputTokens: 512,
    avgOutputTokens: 32,
    batch: 1,
    tensorParallel: 1,
    interTokenLatencyMs: Infinity,
    measured: { stepTimeMs: 22.0 },
  },
  {
    source: 'FasterTransformer 13B via llm-analysis examples/fastertransformer, A100-40GB TP2, batch 1, 512 in',
    modelSlug: 'llama-2-13b',
    gpu: CALIBRATION_GPUS.a100_40,
    precision: 'FP16',
    avgInputTokens: 512,
    avgOutputTokens: 32,
    batch: 1,
    tensorParallel: 2,
    interTokenLatencyMs: Infinity,
    measured: { stepTimeMs: 13.5 },
  },
];
