import { bytesPerParameter, isPrecision, KV_BYTES_PER_VALUE, PRECISIONS } from './precision.js';

describe(bytesPerParameter.name, () => {
  it('halves FP16 at INT8 and quarters FP32 (docs/cost-model.md#bytes-per-weight-and-quantization)', () => {
    expect(bytesPerParameter('FP32')).toBe(4);
    expect(bytesPerParameter('FP16')).toBe(2);
    expect(bytesPerParameter('BF16')).toBe(2);
    expect(bytesPerParameter('INT8')).toBe(bytesPerParameter('FP16') / 2);
    expect(bytesPerParameter('INT8')).toBe(bytesPerParameter('FP32') / 4);
    expect(bytesPerParameter('FP8')).toBe(1);
  });

  it('charges INT4 the group-128 scales: 4.16 bits = 0.52 bytes per weight', () => {
    expect(bytesPerParameter('INT4')).toBeCloseTo(0.52, 10);
  });

  it('keeps the KV cache in FP16 under weight-only quantization and in FP8 with FP8', () => {
    expect(KV_BYTES_PER_VALUE.INT8).toBe(2);
    expect(KV_BYTES_PER_VALUE.INT4).toBe(2);
    expect(KV_BYTES_PER_VALUE.FP8).toBe(1);
  });
});

describe(isPrecision.name, () => {
  it('accepts exactly the six API precisions', () => {
    expect(PRECISIONS.every(isPrecision)).toBe(true);
    expect(isPrecision('FP4')).toBe(false);
    expect(isPrecision(16)).toBe(false);
  });
});
