// Efficiency factors of the roofline (docs/cost-model.md#calibration) and how they were fitted. The measured
// points they are fitted to live in calibration-points.ts and are checked by a test (±35%).
import type { Precision } from '../sizing/precision.js';

export interface Efficiency {
  /** Share of peak memory bandwidth a decode step achieves. */
  etaMem: number;
  /** Share of peak dense FLOPS achieved by prefill and compute-bound decode. */
  etaFlop: number;
  source: string;
}

/**
 * Keyed by precision. Starting points from published kernel efficiencies
 * (docs/cost-model.md#calibration): decode ≈ 0.78 and prefill ≈ 0.69 of ideal for a 13B model on A100 in
 * FasterTransformer; best BF16 matmul 80–87%, FP8 ≈ 71% on H100; llm-analysis calls 0.7
 * realistic for FLOPs), then adjusted so every calibration point lands within ±35%.
 */
export const EFFICIENCY: Readonly<Record<Precision, Efficiency>> = Object.freeze({
  FP32: {
    etaMem: 0.75,
    etaFlop: 0.6,
    source: 'no FP32 LLM serving measurement; FP16 factors, slightly lower for CUDA-core FP32 matmuls',
  },
  FP16: {
    etaMem: 0.78,
    etaFlop: 0.62,
    source: 'FasterTransformer 13B on A100 (decode 0.78 of ideal); fitted to TensorRT-LLM Llama-2-7B and GPT-J A100 FP16',
  },
  BF16: {
    etaMem: 0.78,
    etaFlop: 0.62,
    source: 'same kernels and rates as FP16',
  },
  FP8: {
    etaMem: 0.55,
    etaFlop: 0.6,
    source:
      'fitted to TensorRT-LLM H100 FP8 (Llama-2-7B batch 768, GPT-J batch 64) and MLPerf v4.1 Llama-2-70B: ' +
      'short FP8 steps lose more to fixed per-step overheads',
  },
  INT8: {
    etaMem: 0.6,
    etaFlop: 0.55,
    source: 'TensorRT-LLM SmoothQuant W8A8 ≈ 1.47× FP16 at batch 1, 1.32× at batch 8 on H100',
  },
  INT4: {
    etaMem: 0.4,
    etaFlop: 0.5,
    source: 'llm-awq TinyChat Llama-3-8B on A100: 12.37 → 6.29 ms per token (W4A16 dequantization costs bandwidth efficiency); AWQ gains vanish at batch ≥ 16',
  },
});

/**
 * Tensor-parallel scaling: all-reduces after every layer cost time that grows with t.
 * FasterTransformer 13B on A100-40GB: 22.0 ms at TP1, 13.5 ms at TP2 → 0.81 of linear.
 * 4 and 8 extrapolate the same loss per doubling.
 */
export const TENSOR_PARALLEL_EFFICIENCY: Readonly<Record<number, number>> = Object.freeze({
  1: 1,
  2: 0.82,
  4: 0.72,
  8: 0.64,
});

/**
 * FP32 runs on CUDA cores, not tensor cores (PyTorch disables TF32 matmuls by default):
 * A100 19.5 of 312 TFLOPS, H100 67 of 989, L4 30 of 121. One eighth of the FP16 peak is a
 * middle value; FP32 decode is memory-bound anyway, so the exact figure rarely matters.
 */
export const FP32_SHARE_OF_FP16_PEAK = 0.125;

/** vLLM's default max_num_seqs; TensorRT-LLM benchmarks go higher, production rarely does. */
export const DEFAULT_MAX_BATCH = 256;
/** Default inter-token latency target (time per output token), milliseconds. */
export const DEFAULT_INTER_TOKEN_LATENCY_MS = 50;
