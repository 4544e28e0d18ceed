import { MODEL_PRESETS } from '../sizing/model-presets.js';
import { EFFICIENCY, TENSOR_PARALLEL_EFFICIENCY } from './calibration.js';
import { GPUS } from './estimate.factories.js';
import { estimateReplicaThroughput, measuredReplicaThroughput, peakCompute, type ReplicaThroughput } from './throughput.js';
import { defined } from '../checked.js';

const llama2 = defined(MODEL_PRESETS['llama-2-7b'], 'model preset llama-2-7b');

/** estimateReplicaThroughput for a model that fits (else null), with its step time (null only when measured). */
function estimated(input: Parameters<typeof estimateReplicaThroughput>[0]): ReplicaThroughput & { stepTimeMs: number } {
  const r = defined(estimateReplicaThroughput(input), 'an estimate for a model that fits');
  return { ...r, stepTimeMs: defined(r.stepTimeMs, 'an estimated step time') };
}

describe(peakCompute.name, () => {
  it('uses FP8 tensor cores where they exist and FP16 math (weight-only) where they do not', () => {
    expect(peakCompute({ gpu: GPUS.h100, precision: 'FP8' })).toEqual({ peakTflops: 1979, weightOnly: false });
    expect(peakCompute({ gpu: GPUS.a100_80, precision: 'FP8' })).toEqual({ peakTflops: 312, weightOnly: true });
    expect(peakCompute({ gpu: GPUS.a100_80, precision: 'INT8' })).toEqual({ peakTflops: 624, weightOnly: false });
    expect(peakCompute({ gpu: GPUS.a100_80, precision: 'INT4' })).toEqual({ peakTflops: 312, weightOnly: true });
    expect(peakCompute({ gpu: GPUS.a100_80, precision: 'FP32' }).peakTflops).toBe(39);
  });
});

describe(estimateReplicaThroughput.name, () => {
  const base = { model: llama2, gpu: GPUS.a100_80, tensorParallel: 1, avgInputTokens: 500, avgOutputTokens: 200 };

  it('is memory-bound at batch 1: step = (weights + context × KV) / (bandwidth × η_mem)', () => {
    const r = estimated({ ...base, precision: 'FP16', batch: 1 });
    // (13.48e9 B + 600 tokens × 524,288 B) / (2039e9 B/s × 0.78) = 13.795e9 / 1.5904e12 = 8.674 ms
    const expected = ((13.48e9 + 600 * 524_288) / (2039e9 * EFFICIENCY.FP16.etaMem)) * 1000;
    expect(r.stepTimeMs).toBeCloseTo(expected, 6);
    expect(r.bound).toBe('MEMORY');
    // prefill: 2 × 6.74e9 × 500 / (312e12 × 0.62) = 34.8 ms; rps = 1 / (0.0348 + 200 × 0.008674)
    const prefill = (2 * 6.74e9 * 500) / (312e12 * EFFICIENCY.FP16.etaFlop);
    expect(r.requestsPerSecond).toBeCloseTo(1 / (prefill + (200 * expected) / 1000), 8);
    expect(r.outputTokensPerSecond).toBeCloseTo(r.requestsPerSecond * 200, 8);
  });

  it('takes the largest batch whose step stays within the latency target', () => {
    const r = estimated({ ...base, precision: 'FP16', interTokenLatencyMs: 30 });
    expect(r.stepTimeMs).toBeLessThanOrEqual(30);
    expect(r.meetsLatencyTarget).toBe(true);
    const bigger = estimated({ ...base, precision: 'FP16', batch: r.batch + 1 });
    expect(bigger.stepTimeMs > 30 || r.batch === Math.min(256, r.memoryBatchLimit)).toBe(true);
  });

  it('serves more with a looser latency target', () => {
    const tight = estimated({ ...base, precision: 'FP16', interTokenLatencyMs: 15 });
    const loose = estimated({ ...base, precision: 'FP16', interTokenLatencyMs: 80 });
    expect(loose.batch).toBeGreaterThan(tight.batch);
    expect(loose.requestsPerSecond).toBeGreaterThan(tight.requestsPerSecond);
  });

  it('flags a target no batch can meet and falls back to batch 1', () => {
    const r = estimated({ ...base, precision: 'FP16', interTokenLatencyMs: 2 });
    expect(r.batch).toBe(1);
    expect(r.meetsLatencyTarget).toBe(false);
  });

  it('makes INT8 2–4× faster than FP32 per sequence (article A2: 2–3×), more once the freed memory batches', () => {
    const fp32 = estimated({ ...base, precision: 'FP32', batch: 1 });
    const int8 = estimated({ ...base, precision: 'INT8', batch: 1 });
    const ratio = fp32.stepTimeMs / int8.stepTimeMs;
    expect(ratio).toBeGreaterThan(2);
    expect(ratio).toBeLessThan(4);
    const fp32Batched = estimated({ ...base, precision: 'FP32' });
    const int8Batched = estimated({ ...base, precision: 'INT8' });
    expect(int8Batched.outputTokensPerSecond / fp32Batched.outputTokensPerSecond).toBeGreaterThan(ratio);
  });

  it('scales with tensor parallelism less than linearly', () => {
    const t1 = estimated({ ...base, precision: 'FP16', batch: 1 });
    const t2 = estimated({ ...base, precision: 'FP16', batch: 1, tensorParallel: 2 });
    expect(t1.stepTimeMs / t2.stepTimeMs).toBeCloseTo(2 * defined(TENSOR_PARALLEL_EFFICIENCY[2], 'efficiency at 2 GPUs'), 2);
  });

  it('returns null when not even one sequence fits', () => {
    expect(estimateReplicaThroughput({ ...base, gpu: GPUS.t4, precision: 'FP32' })).toBeNull();
  });
});

describe(measuredReplicaThroughput.name, () => {
  it('turns measured output tokens/s into requests/s with the average output length', () => {
    const r = measuredReplicaThroughput({ outputTokensPerSecond: 1000, avgOutputTokens: 200, memoryBatchLimit: 40 });
    expect(r.requestsPerSecond).toBe(5);
    expect(r.bound).toBe('MEASURED');
    expect(measuredReplicaThroughput({ requestsPerSecond: 3, avgOutputTokens: 200, memoryBatchLimit: 1 }).outputTokensPerSecond).toBe(600);
  });
});
