import { MODEL_PRESET_SLUGS, MODEL_PRESETS } from './model-presets.js';
import { cachedTokens, kvBytesPerToken, resolveModel, weightBytes, weightBytesReadPerStep } from './model.js';
import { defined } from '../checked.js';

const preset = (slug: string) => defined(MODEL_PRESETS[slug], `model preset ${slug}`);

describe(kvBytesPerToken.name, () => {
  it('is 2 × layers × kv heads × head dim × bytes (docs/cost-model.md#kv-cache)', () => {
    // Llama-2-7B: 2 × 32 × 32 × 128 × 2 = 524,288 B = 512 KiB
    expect(kvBytesPerToken({ model: preset('llama-2-7b'), precision: 'FP16' })).toBe(512 * 1024);
    // Llama-3-8B (GQA, 8 kv heads): 2 × 32 × 8 × 128 × 2 = 128 KiB
    expect(kvBytesPerToken({ model: preset('llama-3-8b'), precision: 'FP16' })).toBe(128 * 1024);
    // Llama-3-70B: 2 × 80 × 8 × 128 × 2 = 320 KiB
    expect(kvBytesPerToken({ model: preset('llama-3-70b'), precision: 'BF16' })).toBe(320 * 1024);
    // FP8 cache halves it
    expect(kvBytesPerToken({ model: preset('llama-3-70b'), precision: 'FP8' })).toBe(160 * 1024);
  });
});

describe(weightBytes.name, () => {
  it('is parameters × bytes per parameter', () => {
    // 6.74e9 × 2 = 13.48 GB, the 13.5 GB usually quoted for Llama-2-7B at FP16
    expect(weightBytes({ model: preset('llama-2-7b'), precision: 'FP16' })).toBeCloseTo(13.48e9, -3);
    expect(weightBytes({ model: preset('llama-3-70b'), precision: 'FP16' })).toBeCloseTo(141.2e9, -3);
  });
});

describe(weightBytesReadPerStep.name, () => {
  it('reads only the active experts at batch 1 and nearly all of them at large batches', () => {
    const mixtral = preset('mixtral-8x7b');
    // batch 1 reads shared + 2/8 of the experts = the 12.9B active parameters × 2 bytes
    expect(weightBytesReadPerStep({ model: mixtral, precision: 'FP16', batch: 1 })).toBeCloseTo(12.9e9 * 2, -3);
    const big = weightBytesReadPerStep({ model: mixtral, precision: 'FP16', batch: 64 });
    expect(big).toBeLessThanOrEqual(46.7e9 * 2);
    expect(big).toBeGreaterThan(46.7e9 * 2 * 0.999);
  });

  it('reads everything for a dense model', () => {
    const m = preset('llama-3-8b');
    expect(weightBytesReadPerStep({ model: m, precision: 'INT8', batch: 1 })).toBe(weightBytes({ model: m, precision: 'INT8' }));
  });
});

describe(cachedTokens.name, () => {
  it("caps Mistral's cache at its 4096-token sliding window", () => {
    expect(cachedTokens({ model: preset('mistral-7b'), contextTokens: 10_000 })).toBe(4096);
    expect(cachedTokens({ model: preset('llama-3-8b'), contextTokens: 10_000 })).toBe(10_000);
  });
});

describe(resolveModel.name, () => {
  it('finds presets case-insensitively and names every preset with a source', () => {
    const r = resolveModel({ model: { preset: 'Llama-3-8B' } });
    expect(r.ok && r.model.slug).toBe('llama-3-8b');
    for (const slug of MODEL_PRESET_SLUGS) expect(preset(slug).source.length).toBeGreaterThan(10);
    expect(preset('mixtral-8x7b').activeParametersB).toBeLessThan(preset('mixtral-8x7b').totalParametersB);
  });

  it('reports an unknown preset as a field error instead of throwing', () => {
    expect(resolveModel({ model: { preset: 'gpt-5' } })).toEqual({
      ok: false,
      field: 'model.preset',
      reason: expect.stringMatching(/^unknown model preset "gpt-5"; closest known: gpt-j-6b, /) as unknown,
    });
  });

  it('derives a Llama-like shape for a custom model without one and says so', () => {
    const r = resolveModel({ model: { parametersB: 7 } });
    if (!r.ok) throw new Error(r.reason);
    // layers = round(∛(7e9 / (12 × 128²))) = round(32.9) = 33; hidden = 33 × 128
    expect(r.model).toMatchObject({ layers: 33, hiddenSize: 4224, kvHeads: 8, headDim: 128, shapeAssumed: true });
  });

  it('uses a given shape as is', () => {
    const r = resolveModel({
      model: { parametersB: 13, layers: 40, hiddenSize: 5120, attentionHeads: 40, kvHeads: 40, headDim: 128 },
    });
    expect(r.ok && r.model.shapeAssumed).toBe(false);
    expect(r.ok && kvBytesPerToken({ model: r.model, precision: 'FP16' })).toBe(2 * 40 * 40 * 128 * 2);
  });

  it('rejects nonsense sizes', () => {
    expect(resolveModel({ model: { parametersB: 0 } }).ok).toBe(false);
    expect(resolveModel({ model: { parametersB: 7, activeParametersB: 9 } }).ok).toBe(false);
  });
});
