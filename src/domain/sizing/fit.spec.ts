import { BYTES_PER_GPU_GB, fitReplica, replicaMemory, requiredGpuMemoryGb } from './fit.js';
import { MODEL_PRESETS } from './model-presets.js';
import { at, defined } from '../checked.js';

const preset = (slug: string) => defined(MODEL_PRESETS[slug], `model preset ${slug}`);
const CONTEXT = 700; // 500 in + 200 out

describe(fitReplica.name, () => {
  it('does not fit a 13B model at FP16 on one 24 GB A10G, but does at INT8 (article A1)', () => {
    const model = preset('llama-2-13b');
    // FP16 weights 13.02e9 × 2 B = 24.25 GiB > 24 × 0.9 = 21.6 GiB usable
    const fp16 = fitReplica({ model, precision: 'FP16', gpuMemoryGb: 24, gpusPerInstance: 1, contextTokens: CONTEXT });
    expect(fp16.fits).toBe(false);
    // INT8: 12.13 GiB weights + 1 GiB runtime + 0.54 GiB KV (704 tokens × 800 KiB) = 13.7 GiB ≤ 21.6
    const int8 = fitReplica({ model, precision: 'INT8', gpuMemoryGb: 24, gpusPerInstance: 1, contextTokens: CONTEXT });
    expect(int8.fits && int8.tensorParallel).toBe(1);
    // room for floor((21.6 − 12.126 − 1) / 0.5371) = 15 sequences
    expect(int8.fits && at(int8.options, 0).maxBatch).toBe(15);
  });

  it('fits a 7B model on a 16 GB T4 at INT8; at FP16 only Llama-2-7B squeezes in, Mistral-7B does not', () => {
    const t4 = { gpuMemoryGb: 16, gpusPerInstance: 1, contextTokens: CONTEXT };
    expect(fitReplica({ model: preset('llama-2-7b'), precision: 'INT8', ...t4 }).fits).toBe(true);
    expect(fitReplica({ model: preset('mistral-7b'), precision: 'INT8', ...t4 }).fits).toBe(true);
    // Llama-2-7B FP16: 12.55 GiB + 1 + 0.344 per sequence ≤ 14.4 → 2 sequences
    const llama = fitReplica({ model: preset('llama-2-7b'), precision: 'FP16', ...t4 });
    expect(llama.fits && at(llama.options, 0).maxBatch).toBe(2);
    // Mistral-7B FP16: 13.49 GiB + 1 GiB = 14.49 > 14.4
    expect(fitReplica({ model: preset('mistral-7b'), precision: 'FP16', ...t4 }).fits).toBe(false);
  });

  it('picks the smallest tensor-parallel degree the instance allows', () => {
    const model = preset('llama-3-70b');
    // 141.2e9 B = 131.5 GiB; t=2: 2 × 80 × 0.9 = 144 − 131.5 − 2 = 10.5 GiB for KV
    const fit = fitReplica({ model, precision: 'FP16', gpuMemoryGb: 80, gpusPerInstance: 8, contextTokens: CONTEXT });
    expect(fit.fits && fit.tensorParallel).toBe(2);
    expect(fit.fits && fit.options.map((o) => o.tensorParallel)).toEqual([2, 4, 8]);
    const single = fitReplica({ model, precision: 'FP16', gpuMemoryGb: 80, gpusPerInstance: 1, contextTokens: CONTEXT });
    expect(single.fits).toBe(false);
    expect(!single.fits && single.reason).toMatch(/needs 1\d\d\.\d GB/);
  });

  it('needs a quarter of FP32 memory for weights at INT8', () => {
    const args = { model: preset('llama-2-7b'), gpuMemoryGb: 80, tensorParallel: 1, contextTokens: CONTEXT };
    const fp32 = replicaMemory({ ...args, precision: 'FP32' }).weightsGb;
    expect(replicaMemory({ ...args, precision: 'INT8' }).weightsGb).toBeCloseTo(fp32 / 4, 10);
    expect(replicaMemory({ ...args, precision: 'FP16' }).weightsGb).toBeCloseTo(fp32 / 2, 10);
  });
});

describe(requiredGpuMemoryGb.name, () => {
  it('turns "serve model X at precision P" into GPU memory', () => {
    // Llama-3-8B FP16, 4096-token context, batch 1:
    // (16.06e9 B / 2^30 + 1 GiB + 4096 × 128 KiB / 2^30) / 0.9 = (14.957 + 1 + 0.5) / 0.9 = 18.29
    const need = requiredGpuMemoryGb({ model: preset('llama-3-8b'), precision: 'FP16' });
    expect(need).toBeCloseTo((16.06e9 / BYTES_PER_GPU_GB + 1 + 0.5) / 0.9, 6);
    expect(need).toBeGreaterThan(16); // not a T4
    expect(need).toBeLessThan(24); // an L4 / A10G
    expect(requiredGpuMemoryGb({ model: preset('llama-3-8b'), precision: 'INT8' })).toBeLessThan(16);
  });

  it('grows with context and batch', () => {
    const m = preset('llama-3-8b');
    const base = requiredGpuMemoryGb({ model: m, precision: 'FP16', contextTokens: 1024, batch: 1 });
    expect(requiredGpuMemoryGb({ model: m, precision: 'FP16', contextTokens: 1024, batch: 8 })).toBeGreaterThan(base);
    expect(requiredGpuMemoryGb({ model: m, precision: 'FP16', contextTokens: 8192, batch: 1 })).toBeGreaterThan(base);
  });
});
