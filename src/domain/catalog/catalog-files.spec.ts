import { assembleCatalog, parseCatalogFiles, type CatalogFile } from './catalog-files.js';

const reference: CatalogFile = {
  path: 'ref.yaml',
  text: `catalog:
  label: "t1"
  source: test
  fx: { base: USD, rates: { EUR: "0.8650" }, date: "2026-11-27", source: ECB }
providers:
  - { slug: aws, name: AWS, kind: HYPERSCALER, headquartersCountry: US, certifications: [iso27001, SOC2] }
regions:
  - { code: "aws:eu-central-1", provider: aws, name: Frankfurt, country: DE }
gpus:
  - { slug: h100-sxm-80gb, vendor: NVIDIA, name: H100, memoryGb: "80", memoryBandwidthGbps: "3350", fp16Tflops: "989", int8Tops: "1979", fp8Tflops: "1979", fp8Support: true }
`,
};

const offer = (extra: string): CatalogFile => ({
  path: 'offers/aws.yaml',
  text: `offers:
  - provider: aws
    region: eu-central-1
    gpu: h100-sxm-80gb
    gpuCount: 8
    instanceType: p5.48xlarge
    pricingModel: ON_DEMAND
    pricePerGpuHour: 3.90
    currency: USD
    source: https://aws.amazon.com/ec2/pricing/on-demand/
    observedAt: 2026-03-27
${extra}`,
});

describe('parseCatalogFiles', () => {
  it('reads prices from their digits, never through a float, and per GPU-hour into per instance-hour', () => {
    const parsed = parseCatalogFiles([reference, offer('')]);
    expect(parsed.errors).toEqual([]);
    const [first] = parsed.offers;
    expect(first?.item.pricePerHour.toString()).toBe('31.2');
    expect(first?.item.regionCode).toBe('aws:eu-central-1');
    expect(parsed.providers?.[0]?.certifications).toEqual(['ISO27001', 'SOC2']);
  });

  it('locates every bad field with file and line', () => {
    const bad: CatalogFile = {
      path: 'offers/bad.yaml',
      text: `offers:
  - provider: aws
    region: eu-central-1
    gpu: h100-sxm-80gb
    gpuCount: 0
    instanceType: p5
    pricingModel: CHEAP
    pricePerHour: "-1"
    currency: GBP
    source: x
    observedAt: 2026-13-01
    colour: red
`,
    };
    const { errors } = parseCatalogFiles([reference, bad]);
    const fields = errors.map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['', 'currency', 'gpuCount', 'observedAt', 'pricePerHour', 'pricingModel', 'source']));
    expect(errors.every((e) => e.file === 'offers/bad.yaml' && e.line === 2)).toBe(true);
    expect(errors.find((e) => e.message.includes('unknown field'))?.message).toContain('colour');
  });

  it('reports duplicates of a natural key with the first occurrence', () => {
    const twice = offer(`  - provider: aws
    region: aws:eu-central-1
    gpu: h100-sxm-80gb
    gpuCount: 8
    instanceType: p5.48xlarge
    pricingModel: ON_DEMAND
    pricePerHour: "30"
    currency: USD
    source: https://aws.amazon.com/ec2/pricing/on-demand/
    observedAt: 2026-03-27
`);
    const { errors } = parseCatalogFiles([reference, twice]);
    expect(errors).toEqual([
      expect.objectContaining({ file: 'offers/aws.yaml', line: 12, field: 'offer', message: expect.stringContaining('offers/aws.yaml:2') }),
    ]);
  });

  it('reads CSV offers with their line numbers', () => {
    const csv: CatalogFile = {
      path: 'offers.csv',
      text: 'provider,region,gpu,gpuCount,instanceType,pricingModel,pricePerHour,currency,source,observedAt\n' +
        'aws,eu-central-1,h100-sxm-80gb,8,p5.48xlarge,SPOT,12.5,USD,https://aws.amazon.com/ec2/spot/pricing/,2026-03-27\n' +
        'aws,eu-central-1,h100-sxm-80gb,x,p5.48xlarge,SPOT,12.5,USD,https://aws.amazon.com/ec2/spot/pricing/,2026-03-27\n',
    };
    const parsed = parseCatalogFiles([reference, csv]);
    expect(parsed.offers).toHaveLength(1);
    expect(parsed.errors).toEqual([expect.objectContaining({ file: 'offers.csv', line: 3, field: 'gpuCount' })]);
  });

  it('rejects derived figures that do not say how they were derived', () => {
    const derived = { ...offer(''), text: `${offer('').text}    derived: true\n` };
    const { errors } = parseCatalogFiles([reference, derived]);
    expect(errors).toEqual([expect.objectContaining({ field: 'derivation' })]);
  });
});

describe('assembleCatalog', () => {
  it('names unknown references and writes nothing', () => {
    const parsed = parseCatalogFiles([reference, { ...offer(''), text: offer('').text.replace('gpu: h100-sxm-80gb', 'gpu: h900') }]);
    const { content, errors } = assembleCatalog({ parsed, inherited: null });
    expect(content).toBeNull();
    expect(errors).toEqual([expect.objectContaining({ file: 'offers/aws.yaml', line: 2, field: 'gpu', message: 'unknown GPU h900' })]);
  });

  it('inherits reference data and FX from the current version when the files have none', () => {
    const base = assembleCatalog({ parsed: parseCatalogFiles([reference, offer('')]), inherited: null });
    expect(base.errors).toEqual([]);
    const onlyOffers = assembleCatalog({ parsed: parseCatalogFiles([offer('')]), inherited: base.content });
    expect(onlyOffers.errors).toEqual([]);
    expect(onlyOffers.content?.providers.map((p) => p.slug)).toEqual(['aws']);
    expect(onlyOffers.content?.fxRates.rates.EUR).toBe('0.865');
  });
});
