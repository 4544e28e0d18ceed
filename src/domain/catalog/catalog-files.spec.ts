import { assembleCatalog, offerInScope, parseCatalogFiles, type CatalogFile } from './catalog-files.js';
import { defined } from '../checked.js';

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
  - { slug: h100-sxm-80gb, vendor: NVIDIA, name: H100, memoryGb: "80", memoryBandwidthGbps: "3350", \
fp16Tflops: "989", int8Tops: "1979", fp8Tflops: "1979", fp8Support: true }
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
    priceKind: LIST
    sourceKind: PROVIDER_PAGE
    source: https://aws.amazon.com/ec2/pricing/on-demand/
    observedAt: 2026-03-27
${extra}`,
});

describe('parseCatalogFiles', () => {
  it("reads a spot offer's interruption rate, and refuses it on other models or outside the advisor's bands", () => {
    const spot = offer('    interruptionRate: "5-10%"\n');
    spot.text = spot.text.replace('pricingModel: ON_DEMAND', 'pricingModel: SPOT');
    const parsed = parseCatalogFiles([reference, spot]);
    expect(parsed.errors).toEqual([]);
    expect(parsed.offers[0]?.item.interruptionRate).toBe('5-10%');
    expect('interruptionRate' in (parseCatalogFiles([reference, offer('')]).offers[0]?.item ?? {})).toBe(false);
    const onDemand = parseCatalogFiles([reference, offer('    interruptionRate: "<5%"\n')]);
    expect(onDemand.errors.map((e) => [e.field, e.message])).toEqual([['interruptionRate', 'only spot offers have an interruption rate']]);
    const unknown = parseCatalogFiles([reference, { ...spot, text: spot.text.replace('"5-10%"', '"about 7%"') }]);
    expect(unknown.errors.map((e) => [e.field, e.message])).toEqual([['interruptionRate', 'must be one of <5%, 5-10%, 10-15%, 15-20%, >20%']]);
  });

  it('reads prices from their digits, never through a float, and per GPU-hour into per instance-hour', () => {
    const parsed = parseCatalogFiles([reference, offer('')]);
    expect(parsed.errors).toEqual([]);
    const [first] = parsed.offers;
    expect(first?.item.pricePerHour.toString()).toBe('31.2');
    expect(first?.item.regionCode).toBe('aws:eu-central-1');
    expect(parsed.providers?.[0]?.certifications).toEqual(['ISO27001', 'SOC2']);
  });

  // Every way a price may be mistyped by hand, as YAML reads it: a comma, a word, a sign, a float
  // beyond range, YAML's own NaN and infinity, a tag, a list, a map, a boolean.
  it.each(['"3,09"', '3,09', '"abc"', '"-1.29"', '1e308', '.NaN', '.inf', '!!binary aGVsbG8=', '[1, 2]', '{ a: 1 }', 'true'])(
    'answers a price written %s with file:line field: message at the price, in both price fields',
    (value) => {
      for (const field of ['pricePerGpuHour', 'pricePerHour']) {
        // `offer` writes pricePerGpuHour on line 8; the other field replaces it there.
        const text = offer('').text.replace('pricePerGpuHour: 3.90', `${field}: ${value}`);
        const parsed = parseCatalogFiles([reference, { path: 'offers/aws.yaml', text }]);
        expect(parsed.errors.map((e) => `${e.file}:${e.line} ${e.field}`)).toEqual([`offers/aws.yaml:8 ${field}`]);
        expect(parsed.errors[0]?.message).toMatch(/^(must be|Invalid input)/);
      }
    },
  );

  it('names an unknown region or GPU at its own line, with the closest known names (of the same provider for a region)', () => {
    const text = offer('').text.replace('region: eu-central-1', 'region: aws:eu-centrl-1').replace('gpu: h100-sxm-80gb', 'gpu: h100-sxm80gb');
    const parsed = parseCatalogFiles([reference, { path: 'offers/aws.yaml', text }]);
    const { errors } = assembleCatalog({ parsed, inherited: null });
    expect(errors.map((e) => `${e.file}:${e.line} ${e.field}: ${e.message}`)).toEqual([
      'offers/aws.yaml:3 region: unknown region "aws:eu-centrl-1"; closest known: aws:eu-central-1',
      'offers/aws.yaml:4 gpu: unknown GPU "h100-sxm80gb"; closest known: h100-sxm-80gb',
    ]);
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
    expect(fields).toEqual(expect.arrayContaining(['', 'currency', 'gpuCount', 'observedAt', 'pricePerHour', 'pricingModel', 'source', 'priceKind']));
    expect(errors.every((e) => e.file === 'offers/bad.yaml')).toBe(true);
    // Each error points at the line of its field (counted by hand in the text above), not the record's first line.
    const lineOf = (field: string) => errors.find((e) => e.field === field)?.line;
    expect([lineOf('gpuCount'), lineOf('pricingModel'), lineOf('pricePerHour'), lineOf('currency'), lineOf('source'), lineOf('observedAt')]).toEqual([
      5, 7, 8, 9, 10, 11,
    ]);
    expect(errors.find((e) => e.message.includes('unknown field'))).toEqual(expect.objectContaining({ line: 12, message: expect.stringContaining('colour') }));
    // A missing field has no line of its own: the record's.
    expect(lineOf('priceKind')).toBe(2);
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
    priceKind: LIST
    sourceKind: PROVIDER_PAGE
    source: https://aws.amazon.com/ec2/pricing/on-demand/
    observedAt: 2026-03-27
`);
    const { errors } = parseCatalogFiles([reference, twice]);
    expect(errors).toEqual([
      expect.objectContaining({ file: 'offers/aws.yaml', line: 14, field: 'offer', message: expect.stringContaining('offers/aws.yaml:2') }),
    ]);
  });

  it('reads CSV offers with their line numbers', () => {
    const csv: CatalogFile = {
      path: 'offers.csv',
      text:
        'provider,region,gpu,gpuCount,instanceType,pricingModel,pricePerHour,currency,priceKind,sourceKind,source,observedAt\n' +
        'aws,eu-central-1,h100-sxm-80gb,8,p5.48xlarge,SPOT,12.5,USD,LIST,PROVIDER_PAGE,https://aws.amazon.com/ec2/spot/pricing/,2026-03-27\n' +
        'aws,eu-central-1,h100-sxm-80gb,x,p5.48xlarge,SPOT,12.5,USD,LIST,PROVIDER_PAGE,https://aws.amazon.com/ec2/spot/pricing/,2026-03-27\n',
    };
    const parsed = parseCatalogFiles([reference, csv]);
    expect(parsed.offers).toHaveLength(1);
    expect(parsed.errors).toEqual([expect.objectContaining({ file: 'offers.csv', line: 3, field: 'gpuCount' })]);
  });

  it('rejects an ESTIMATE that does not name its rule, and a LIST price with a derivation', () => {
    const estimate = { ...offer(''), text: offer('').text.replace('priceKind: LIST', 'priceKind: ESTIMATE') };
    expect(parseCatalogFiles([reference, estimate]).errors).toEqual([expect.objectContaining({ field: 'derivation', line: 2 })]);
    const listWithRule = offer('    derivation: "on-demand x 0.35"\n');
    expect(parseCatalogFiles([reference, listWithRule]).errors).toEqual([
      expect.objectContaining({ field: 'derivation', line: 14, message: expect.stringContaining('conversion') }),
    ]);
    const ok = {
      ...offer('    derivation: "on-demand x 0.35"\n'),
      text: offer('    derivation: "on-demand x 0.35"\n').text.replace('priceKind: LIST', 'priceKind: ESTIMATE'),
    };
    const parsed = parseCatalogFiles([reference, ok]);
    expect(parsed.errors).toEqual([]);
    expect(parsed.offers[0]?.item).toEqual(expect.objectContaining({ priceKind: 'ESTIMATE', derivation: 'on-demand x 0.35', conversion: null }));
  });

  it('requires the price kind', () => {
    const noKind = { ...offer(''), text: offer('').text.replace('    priceKind: LIST\n', '') };
    expect(parseCatalogFiles([reference, noKind]).errors).toEqual([expect.objectContaining({ field: 'priceKind', message: 'must be one of LIST, ESTIMATE' })]);
  });

  it('keeps a price exactly as written, and refuses one with more digits than are stored or one beyond the bound', () => {
    const exact = offer('').text.replace('pricePerGpuHour: 3.90', 'pricePerHour: "1.3954431"');
    expect(parseCatalogFiles([reference, { ...offer(''), text: exact }]).offers[0]?.item.pricePerHour.toString()).toBe('1.3954431');
    const tooFine = offer('').text.replace('pricePerGpuHour: 3.90', 'pricePerHour: "1.1234567890123456"');
    expect(parseCatalogFiles([reference, { ...offer(''), text: tooFine }]).errors).toEqual([
      expect.objectContaining({ field: 'pricePerHour', line: 8, message: 'must have at most 15 digits after the decimal point (stored exactly)' }),
    ]);
    const huge = offer('').text.replace('pricePerGpuHour: 3.90', 'pricePerHour: "1234567890123.5"');
    expect(parseCatalogFiles([reference, { ...offer(''), text: huge }]).errors).toEqual([
      expect.objectContaining({ field: 'pricePerHour', line: 8, message: 'must be at most 1000000' }),
    ]);
    const upfront = offer('    upfront: "12.3456789"\n    termMonths: 12\n').text.replace('ON_DEMAND', 'RESERVED_1Y');
    expect(parseCatalogFiles([reference, { ...offer(''), text: upfront }]).errors).toEqual([
      expect.objectContaining({ field: 'upfront', line: 14, message: 'must have at most 6 digits after the decimal point (stored exactly)' }),
    ]);
  });

  it('refuses a GPU figure with more places than its column keeps (two), instead of rounding it on write', () => {
    const fine = { ...reference, text: reference.text.replace('fp16Tflops: "989"', 'fp16Tflops: "438.875"') };
    expect(parseCatalogFiles([fine]).errors).toEqual([
      expect.objectContaining({ field: 'fp16Tflops', message: 'must have at most 2 digits after the decimal point (stored exactly)' }),
    ]);
  });

  it('reads a monthly server: the hourly price is the monthly one over 730 hours, and says so', () => {
    const monthly = offer('    pricePerMonth: "214"\n    upfront: "209"\n    termMonths: 1\n')
      .text.replace('ON_DEMAND', 'MONTHLY')
      .replace('    pricePerGpuHour: 3.90\n', '');
    const parsed = parseCatalogFiles([reference, { ...offer(''), text: monthly }]);
    expect(parsed.errors).toEqual([]);
    const o = defined(parsed.offers[0], 'the offer').item;
    // 214 / 730 = 0.29315068493150684..., kept to the price column's 15 places.
    expect([o.pricePerHour.toString(), o.upfront?.toString(), o.termMonths]).toEqual(['0.293150684931507', '209', 1]);
    expect(o.conversion).toBe('214 USD per month / 730 h');
  });

  it('reads reference figures and checks their metric rules', () => {
    const figures: CatalogFile = {
      path: 'reference-figures.yaml',
      text: `referenceFigures:
  - { key: a1-aws, claim: AWS H100, metric: PRICE_PER_GPU_HOUR, value: "3.90", currency: USD, provider: aws, \
gpus: [h100-sxm-80gb], pricingModel: ON_DEMAND, source: article, publishedOn: "2026-03-27" }
  - { key: spot, claim: spot, metric: DISCOUNT_PERCENT, value: "60", valueHigh: "50", currency: USD, \
pricingModel: ON_DEMAND, source: article, publishedOn: "2026-03-27" }
`,
    };
    const parsed = parseCatalogFiles([reference, offer(''), figures]);
    expect(parsed.referenceFigures?.map((f) => [f.key, f.value.toString(), f.gpus])).toEqual([['a1-aws', '3.9', ['h100-sxm-80gb']]]);
    expect(parsed.errors.map((e) => [e.line, e.field]).sort()).toEqual([
      [3, 'currency'],
      [3, 'pricingModel'],
      [3, 'valueHigh'],
    ]);
  });
});

describe('assembleCatalog', () => {
  it('names unknown references and writes nothing', () => {
    const parsed = parseCatalogFiles([reference, { ...offer(''), text: offer('').text.replace('gpu: h100-sxm-80gb', 'gpu: h900') }]);
    const { content, errors } = assembleCatalog({ parsed, inherited: null });
    expect(content).toBeNull();
    // At the gpu field's own line (the row starts at line 2, `gpu:` is its third line), with what the catalog knows.
    expect(errors).toEqual([
      expect.objectContaining({ file: 'offers/aws.yaml', line: 4, field: 'gpu', message: 'unknown GPU "h900"; closest known: h100-sxm-80gb' }),
    ]);
  });

  describe('import scope', () => {
    const other =
      `  - { provider: ovh, region: "ovh:gra", gpu: h100-sxm-80gb, gpuCount: 1, instanceType: h100-380, pricingModel: ON_DEMAND, ` +
      `pricePerHour: "2.80", currency: EUR, priceKind: LIST, sourceKind: PROVIDER_API, source: "https://www.ovhcloud.com/en/public-cloud/prices/", observedAt: "2025-01-27" }\n`;
    const withOvh: CatalogFile = {
      path: 'ref.yaml',
      text: reference.text
        .replace('providers:\n', 'providers:\n  - { slug: ovh, name: OVH, kind: REGIONAL, headquartersCountry: FR }\n')
        .replace('regions:\n', 'regions:\n  - { code: "ovh:gra", provider: ovh, name: Gravelines, country: FR }\n'),
    };
    const base = defined(
      assembleCatalog({ parsed: parseCatalogFiles([withOvh, offer(other)]), inherited: null, scope: { mode: 'FULL' } }).content,
      'the base catalog',
    );
    const spot =
      `  - { provider: aws, region: eu-central-1, gpu: h100-sxm-80gb, gpuCount: 8, instanceType: p5.48xlarge, pricingModel: SPOT, ` +
      `pricePerHour: "12", currency: USD, priceKind: LIST, sourceKind: PROVIDER_API, source: "https://aws.amazon.com/ec2/pricing/", observedAt: "2026-11-01" }\n`;
    const update: CatalogFile = { path: 'update.yaml', text: `offers:\n${spot}` };
    const keys = (c: typeof base | null) => c?.offers.map((o) => `${o.providerSlug}/${o.instanceType}/${o.pricingModel}`).sort();

    it('replaces the offers of the providers the files list, and keeps every other provider', () => {
      const r = assembleCatalog({ parsed: parseCatalogFiles([update]), inherited: base });
      expect(r.scope).toEqual(['aws']);
      expect(keys(r.content)).toEqual(['aws/p5.48xlarge/SPOT', 'ovh/h100-380/ON_DEMAND']);
    });

    it('merges: adds and updates the listed offers, removes none', () => {
      const r = assembleCatalog({ parsed: parseCatalogFiles([update]), inherited: base, scope: { mode: 'MERGE' } });
      expect(keys(r.content)).toEqual(['aws/p5.48xlarge/ON_DEMAND', 'aws/p5.48xlarge/SPOT', 'ovh/h100-380/ON_DEMAND']);
    });

    it('replaces everything with FULL, and the named providers with an explicit scope', () => {
      expect(keys(assembleCatalog({ parsed: parseCatalogFiles([update]), inherited: base, scope: { mode: 'FULL' } }).content)).toEqual([
        'aws/p5.48xlarge/SPOT',
      ]);
      const both = assembleCatalog({ parsed: parseCatalogFiles([update]), inherited: base, scope: { mode: 'PROVIDERS', providers: ['aws', 'ovh'] } });
      expect(keys(both.content)).toEqual(['aws/p5.48xlarge/SPOT']);
    });

    it('with a pricing-model scope, replaces only those models of the provider and keeps its others', () => {
      // The base has aws p5.48xlarge ON_DEMAND and ovh h100-380 ON_DEMAND; the update brings aws SPOT only.
      const r = assembleCatalog({
        parsed: parseCatalogFiles([update]),
        inherited: base,
        scope: { mode: 'PROVIDERS', providers: ['aws'], pricingModels: { aws: ['SPOT'] } },
      });
      expect(r.errors).toEqual([]);
      expect(keys(r.content)).toEqual(['aws/p5.48xlarge/ON_DEMAND', 'aws/p5.48xlarge/SPOT', 'ovh/h100-380/ON_DEMAND']);
      // The same update scoped to ON_DEMAND replaces the on-demand offer (removed) and refuses the spot row.
      const wrong = assembleCatalog({
        parsed: parseCatalogFiles([update]),
        inherited: base,
        scope: { mode: 'PROVIDERS', providers: ['aws'], pricingModels: { aws: ['ON_DEMAND'] } },
      });
      expect(wrong.content).toBeNull();
      expect(wrong.errors.map((e) => [e.line, e.field, e.message])).toEqual([[2, 'pricingModel', 'SPOT is outside the import scope of aws (ON_DEMAND)']]);
      const empty = assembleCatalog({
        parsed: parseCatalogFiles([]),
        inherited: base,
        scope: { mode: 'PROVIDERS', providers: ['aws'], pricingModels: { aws: ['SPOT'] } },
      });
      expect(keys(empty.content)).toEqual(['aws/p5.48xlarge/ON_DEMAND', 'ovh/h100-380/ON_DEMAND']);
    });

    it('tells which offers an import replaces (offerInScope)', () => {
      const spotOffer = { providerSlug: 'aws', pricingModel: 'SPOT' as const };
      expect(offerInScope(spotOffer, null)).toBe(true);
      expect(offerInScope(spotOffer, ['ovh'])).toBe(false);
      expect(offerInScope(spotOffer, ['aws'], { aws: ['ON_DEMAND'] })).toBe(false);
      expect(offerInScope(spotOffer, ['aws'], { aws: ['ON_DEMAND', 'SPOT'] })).toBe(true);
      expect(offerInScope(spotOffer, ['aws'], { ovh: ['ON_DEMAND'] })).toBe(true);
    });

    it('refuses offers outside an explicit scope and unknown providers in it', () => {
      const r = assembleCatalog({ parsed: parseCatalogFiles([update]), inherited: base, scope: { mode: 'PROVIDERS', providers: ['ovh', 'nope'] } });
      expect(r.content).toBeNull();
      expect(r.errors.map((e) => [e.line, e.field, e.message])).toEqual([
        [1, 'scope', 'unknown provider nope in the scope'],
        [2, 'provider', 'provider aws is outside the import scope nope, ovh'],
      ]);
    });
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

describe('assembleCatalog: where an offer can be ordered', () => {
  // Two regions of one provider; the availability record says p5.48xlarge is sold only in the first.
  const gcpLike: CatalogFile = {
    path: 'ref.yaml',
    text: reference.text.replace(
      '  - { code: "aws:eu-central-1", provider: aws, name: Frankfurt, country: DE }',
      '  - { code: "aws:eu-central-1", provider: aws, name: Frankfurt, country: DE }\n  - { code: "aws:eu-west-2", provider: aws, name: London, country: GB }',
    ),
  };
  const availability = (fields: string): CatalogFile => ({
    path: 'availability.yaml',
    text: `availability:
  - provider: aws
    instanceType: p5.48xlarge
    regions: [eu-central-1]
${fields}    source: https://example.test/offerings
    observedAt: 2026-08-01
`,
  });
  const inRegion = (region: string, extra = '') => ({ ...offer(extra), text: offer(extra).text.replace('region: eu-central-1', `region: ${region}`) });

  it('refuses an offer in a region the provider does not sell the type in, at the region field, naming the source', () => {
    const r = assembleCatalog({ parsed: parseCatalogFiles([gcpLike, availability('    listsEveryRegion: true\n'), inRegion('eu-west-2')]), inherited: null });
    expect(r.content).toBeNull();
    expect(r.errors.map((e) => `${e.file}:${e.line} ${e.field}: ${e.message}`)).toEqual([
      'offers/aws.yaml:3 region: aws does not sell p5.48xlarge in aws:eu-west-2: its availability data lists aws:eu-central-1 (https://example.test/offerings, observed 2026-08-01)',
    ]);
  });

  it('confirms an offer the record lists, purchase options of the type included, and leaves the rest unconfirmed', () => {
    const allUpfront = { ...offer(''), text: offer('').text.replace('instanceType: p5.48xlarge', 'instanceType: "p5.48xlarge (All Upfront)"') };
    const other = { ...offer(''), text: offer('').text.replace('instanceType: p5.48xlarge', 'instanceType: p4d.24xlarge') };
    const r = assembleCatalog({
      parsed: parseCatalogFiles([gcpLike, availability('    listsEveryRegion: true\n'), { ...allUpfront, path: 'a.yaml' }, { ...other, path: 'b.yaml' }]),
      inherited: null,
    });
    expect(r.errors).toEqual([]);
    const byType = new Map(defined(r.content, 'content').offers.map((o) => [o.instanceType, [o.availability, o.availabilityNote]]));
    expect(byType.get('p5.48xlarge (All Upfront)')).toEqual(['CONFIRMED', 'sold in aws:eu-central-1 per https://example.test/offerings, observed 2026-08-01']);
    expect(byType.get('p4d.24xlarge')).toEqual(['UNCONFIRMED', "no availability record for p4d.24xlarge in this catalog's aws availability data"]);
  });

  it('leaves an offer in an unlisted region unconfirmed when the record does not list every region, with the row’s own note', () => {
    const note = '    availabilityNote: "stock per data centre not published"\n';
    const r = assembleCatalog({
      parsed: parseCatalogFiles([gcpLike, availability('    listsEveryRegion: false\n'), inRegion('eu-west-2', note)]),
      inherited: null,
    });
    expect(r.errors).toEqual([]);
    expect(defined(r.content, 'content').offers.map((o) => [o.availability, o.availabilityNote])).toEqual([
      ['UNCONFIRMED', 'stock per data centre not published'],
    ]);
    // Without records for the provider at all, every offer is unconfirmed and says why.
    const none = assembleCatalog({ parsed: parseCatalogFiles([gcpLike, offer('')]), inherited: null });
    expect(defined(none.content, 'content').offers.map((o) => o.availabilityNote)).toEqual(["aws availability per region is not in this catalog's data"]);
  });

  it('keeps LISTED_NOT_ORDERABLE as the row says, over a record that lists the region, and only with the source in the note', () => {
    const words = '    availabilityNote: "the catalogue tags it \'coming_soon\': https://example.test/catalogue"\n';
    const r = assembleCatalog({
      parsed: parseCatalogFiles([gcpLike, availability('    listsEveryRegion: true\n'), offer(`    availability: LISTED_NOT_ORDERABLE\n${words}`)]),
      inherited: null,
    });
    expect(r.errors).toEqual([]);
    expect(defined(r.content, 'content').offers.map((o) => [o.availability, o.availabilityNote])).toEqual([
      ['LISTED_NOT_ORDERABLE', "the catalogue tags it 'coming_soon': https://example.test/catalogue"],
    ]);
    // Inherited by a later import that brings new availability data, it stays not orderable.
    const later = assembleCatalog({ parsed: parseCatalogFiles([availability('    listsEveryRegion: true\n')]), inherited: r.content });
    expect(defined(later.content, 'content').offers.map((o) => o.availability)).toEqual(['LISTED_NOT_ORDERABLE']);
    // Without an http(s) source in the note, or with a derived state written by hand: an error at the field.
    const bare = parseCatalogFiles([offer('    availability: LISTED_NOT_ORDERABLE\n    availabilityNote: "coming soon"\n')]);
    expect(bare.errors.map((e) => `${e.line} ${e.field}`)).toEqual(['15 availabilityNote']);
    const derived = parseCatalogFiles([offer('    availability: CONFIRMED\n')]);
    expect(derived.errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'availability: may only be LISTED_NOT_ORDERABLE (CONFIRMED and UNCONFIRMED are derived from availability.yaml)',
    ]);
  });

  it('refuses a pricing model the type is not sold under, at the pricingModel field', () => {
    const spotOnly = availability('    listsEveryRegion: true\n    pricingModels: [SPOT]\n    note: "Spot or Flex-start only"\n');
    const r = assembleCatalog({ parsed: parseCatalogFiles([gcpLike, spotOnly, offer('')]), inherited: null });
    expect(r.errors.map((e) => `${e.line} ${e.field}: ${e.message}`)).toEqual([
      '7 pricingModel: aws sells p5.48xlarge only as SPOT, not ON_DEMAND: Spot or Flex-start only (https://example.test/offerings, observed 2026-08-01)',
    ]);
  });

  it('checks inherited offers against new availability data, and availability records against the regions', () => {
    const base = assembleCatalog({ parsed: parseCatalogFiles([gcpLike, inRegion('eu-west-2')]), inherited: null });
    expect(base.errors).toEqual([]);
    const later = assembleCatalog({ parsed: parseCatalogFiles([availability('    listsEveryRegion: true\n')]), inherited: base.content });
    expect(later.errors.map((e) => `${e.file} ${e.field}: ${e.message}`)).toEqual([
      expect.stringMatching(/^\(inherited\) region: aws does not sell p5\.48xlarge in aws:eu-west-2: .* \(inherited offer p5\.48xlarge aws:eu-west-2;/),
    ]);
    const unknownRegion = availability('    listsEveryRegion: true\n');
    unknownRegion.text = unknownRegion.text.replace('regions: [eu-central-1]', 'regions: [eu-central-1, mars-1]');
    const r = assembleCatalog({ parsed: parseCatalogFiles([gcpLike, unknownRegion, offer('')]), inherited: null });
    expect(r.errors.map((e) => `${e.file}:${e.line} ${e.field}: ${e.message}`)).toEqual(['availability.yaml:4 regions: unknown region aws:mars-1']);
  });
});

describe('parseCatalogFiles: source kinds and validity windows', () => {
  it('refuses an announcement as a LIST price, and takes it as an ESTIMATE with its rule', () => {
    const announced = { ...offer(''), text: offer('').text.replace('sourceKind: PROVIDER_PAGE', 'sourceKind: ANNOUNCEMENT') };
    expect(parseCatalogFiles([announced]).errors).toEqual([
      expect.objectContaining({ field: 'sourceKind', line: 11, message: expect.stringContaining('never a LIST price: make it a reference figure') }),
    ]);
    const estimate = { ...announced, text: announced.text.replace('priceKind: LIST', 'priceKind: ESTIMATE') + '    derivation: "the blog post\'s figure"\n' };
    expect(parseCatalogFiles([estimate]).errors).toEqual([]);
    const noKind = { ...offer(''), text: offer('').text.replace('    sourceKind: PROVIDER_PAGE\n', '') };
    expect(parseCatalogFiles([noKind]).errors).toEqual([
      expect.objectContaining({ field: 'sourceKind', message: 'must be one of PROVIDER_API, PROVIDER_PAGE, MIRROR, TRANSCRIPTION, ANNOUNCEMENT' }),
    ]);
  });

  it('reads a validity window and refuses one that ends before it starts or is not a real date', () => {
    const window = parseCatalogFiles([offer('    validFrom: 2026-10-01\n    validUntil: 2026-10-31\n')]);
    expect(window.offers.map((o) => [o.item.validFrom, o.item.validUntil])).toEqual([['2026-10-01', '2026-10-31']]);
    expect(parseCatalogFiles([offer('    validFrom: 2026-10-31\n    validUntil: 2026-10-01\n')]).errors).toEqual([
      expect.objectContaining({ field: 'validUntil', line: 15, message: 'must not be before validFrom 2026-10-31' }),
    ]);
    expect(parseCatalogFiles([offer('    validUntil: 2026-02-30\n')]).errors).toEqual([
      expect.objectContaining({ field: 'validUntil', message: 'must be a real date' }),
    ]);
  });
});
