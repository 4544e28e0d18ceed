import { Decimal } from '../money/money.js';
import { instancesFor, matchesRequirement, resolveRequirement, type GpuRequirementInput } from './requirement.js';
import { makeGpu, makeOffer } from './testing/factories.js';

describe(resolveRequirement.name, () => {
  it('normalizes slugs and defaults to per-instance counting', () => {
    expect(resolveRequirement({ gpus: [' H100-SXM-80GB '], gpuCount: 2 })).toEqual({
      gpus: ['h100-sxm-80gb'],
      minGpuMemoryGb: null,
      gpuCount: 2,
      gpuCountMode: 'PER_INSTANCE',
    });
  });

  it.each<[GpuRequirementInput, string]>([
    [{ gpuCount: 0 }, 'gpuCount'],
    [{ gpuCount: 1.5 }, 'gpuCount'],
    [{ minGpuMemoryGb: -1 }, 'minGpuMemoryGb'],
    [{ minGpuMemoryGb: 'x' }, 'minGpuMemoryGb'],
    [{ gpuCountMode: 'SOME' }, 'gpuCountMode'],
    [{ gpus: [''] }, 'gpus'],
  ])('rejects %j naming %s', (input, field) => {
    expect(() => resolveRequirement(input)).toThrow(expect.objectContaining({ field }));
  });
});

describe(matchesRequirement.name, () => {
  const h100 = makeGpu();
  const l4 = makeGpu({ slug: 'l4-24gb', memoryGb: new Decimal(24) });
  it.each([
    ['any GPU', {}, h100, 8, true],
    ['listed GPU', { gpus: ['h100-sxm-80gb'] }, h100, 1, true],
    ['unlisted GPU', { gpus: ['h100-sxm-80gb'] }, l4, 1, false],
    ['enough memory', { minGpuMemoryGb: 80 }, h100, 1, true],
    ['too little memory', { minGpuMemoryGb: 40 }, l4, 1, false],
    ['exact instance size', { gpuCount: 8 }, h100, 8, true],
    ['bigger instance, per instance', { gpuCount: 4 }, h100, 8, false],
    ['any instance size, total', { gpuCount: 4, gpuCountMode: 'TOTAL' }, h100, 1, true],
  ] as const)('%s', (_name, input, gpu, gpuCount, expected) => {
    const offer = makeOffer({ gpuCount });
    expect(matchesRequirement({ offer, gpu, requirement: resolveRequirement(input) })).toBe(expected);
  });
});

describe(instancesFor.name, () => {
  it('buys ceil(total / GPUs per instance) instances in TOTAL mode, one otherwise', () => {
    const total = resolveRequirement({ gpuCount: 10, gpuCountMode: 'TOTAL' });
    expect(instancesFor({ offer: makeOffer({ gpuCount: 8 }), requirement: total })).toBe(2);
    expect(instancesFor({ offer: makeOffer({ gpuCount: 1 }), requirement: total })).toBe(10);
    expect(instancesFor({ offer: makeOffer({ gpuCount: 8 }), requirement: resolveRequirement({ gpuCount: 8 }) })).toBe(1);
  });
});
