// Numeric precisions a model can be served at, and what each costs in memory.

export const PRECISIONS = ['FP32', 'FP16', 'BF16', 'FP8', 'INT8', 'INT4'] as const;
export type Precision = (typeof PRECISIONS)[number];

/**
 * Stored bits per weight. INT4 is not 4.0: group-wise quantization (AWQ/GPTQ, group size 128)
 * stores an FP16 scale and zero point per 128 weights, about 4.16 bits per weight
 * (docs/cost-model.md#bytes-per-weight-and-quantization). FP8 and INT8 per-channel/per-tensor
 * scales are a rounding error on 8 bits, so they stay at exactly 8: INT8 weights are then
 * exactly half of FP16 and a quarter of FP32 (article A2: INT8 needs 75% less memory than FP32).
 */
export const BITS_PER_WEIGHT: Readonly<Record<Precision, number>> = Object.freeze({
  FP32: 32,
  FP16: 16,
  BF16: 16,
  FP8: 8,
  INT8: 8,
  INT4: 4.16,
});

export function bytesPerParameter(precision: Precision): number {
  return BITS_PER_WEIGHT[precision] / 8;
}

/**
 * Bytes per KV-cache value. Weight quantization (INT8 SmoothQuant, INT4 AWQ) leaves the KV
 * cache in FP16, which is what vLLM and TensorRT-LLM do unless told otherwise; FP8 deployments
 * pair FP8 weights with an FP8 KV cache (TensorRT-LLM's FP8 benchmarks, vLLM `kv_cache_dtype=fp8`),
 * and an FP32 model keeps its cache in FP32.
 */
export const KV_BYTES_PER_VALUE: Readonly<Record<Precision, number>> = Object.freeze({
  FP32: 4,
  FP16: 2,
  BF16: 2,
  FP8: 1,
  INT8: 2,
  INT4: 2,
});

export function isPrecision(value: unknown): value is Precision {
  return typeof value === 'string' && (PRECISIONS as readonly string[]).includes(value);
}
