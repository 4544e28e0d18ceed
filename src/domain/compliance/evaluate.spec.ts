import type { Offer, Provider, Region } from '../catalog/catalog.types.js';
import { Decimal } from '../money/money.js';
import { evaluateOffer, type Rule } from './evaluate.js';
import { ANY_POLICY, resolvePolicy, type CompliancePolicy, type PolicyInput } from './policy.js';
import { resolveRequirement } from './requirement.js';
import { makeGpu, makeOffer, makeProvider, makeRegion } from './testing/factories.js';

const aws = makeProvider({ slug: 'aws', name: 'AWS', headquartersCountry: 'US', slaPercent: new Decimal('99.5') });
const ovh = makeProvider({
  slug: 'ovh',
  name: 'OVHcloud',
  headquartersCountry: 'FR',
  slaPercent: new Decimal('99.99'),
  certifications: ['ISO 27001', 'HDS', 'SecNumCloud'],
});
const exoscale = makeProvider({ slug: 'exoscale', name: 'Exoscale', headquartersCountry: 'CH', slaPercent: null });
const norwegian = makeProvider({ slug: 'nocloud', name: 'NoCloud', headquartersCountry: 'NO' });
const usEast = makeRegion({ code: 'aws:us-east-1', providerSlug: 'aws', country: 'US' });
const frankfurt = makeRegion({ code: 'aws:eu-central-1', providerSlug: 'aws', country: 'DE' });
const gravelines = makeRegion({ code: 'ovh:gra', providerSlug: 'ovh', country: 'FR' });
const oslo = makeRegion({ code: 'nocloud:osl', providerSlug: 'nocloud', country: 'NO' });
const zurich = makeRegion({ code: 'exoscale:ch-dk-2', providerSlug: 'exoscale', country: 'CH' });
const london = makeRegion({ code: 'aws:eu-west-2', providerSlug: 'aws', country: 'GB' });
const montreal = makeRegion({ code: 'aws:ca-central-1', providerSlug: 'aws', country: 'CA' });

interface Case {
  name: string;
  provider: Provider;
  region: Region;
  offer?: Partial<Offer>;
  policy: PolicyInput;
  price?: string;
  reasons: [Rule, string][];
  passes?: string[];
}

const cases: Case[] = [
  { name: 'no policy', provider: aws, region: usEast, policy: {}, reasons: [], passes: [] },
  {
    name: 'EEA residency, US region',
    provider: aws,
    region: usEast,
    policy: { residency: 'EEA' },
    reasons: [['RESIDENCY', 'region us-east-1 is in US, outside EEA']],
  },
  {
    name: 'EEA residency, German region',
    provider: aws,
    region: frankfurt,
    policy: { residency: 'EEA' },
    reasons: [],
    passes: ['region eu-central-1 is in DE, inside EEA'],
  },
  {
    name: 'EU residency, Norwegian region',
    provider: norwegian,
    region: oslo,
    policy: { residency: 'EU' },
    reasons: [['RESIDENCY', 'region osl is in NO, outside EU']],
  },
  {
    name: 'EEA residency, Norwegian region',
    provider: norwegian,
    region: oslo,
    policy: { residency: 'EEA' },
    reasons: [],
    passes: ['region osl is in NO, inside EEA'],
  },
  {
    name: 'EEA residency, Swiss region',
    provider: exoscale,
    region: zurich,
    policy: { residency: 'EEA' },
    reasons: [['RESIDENCY', 'region ch-dk-2 is in CH, outside EEA']],
  },
  {
    name: 'adequacy, Swiss and UK regions',
    provider: aws,
    region: london,
    policy: { residency: 'GDPR_ADEQUATE' },
    reasons: [],
    passes: ['region eu-west-2 is in GB, inside GDPR_ADEQUATE'],
  },
  {
    name: 'adequacy, US region without opt-in',
    provider: aws,
    region: usEast,
    policy: { residency: 'GDPR_ADEQUATE' },
    reasons: [
      [
        'RESIDENCY',
        'region us-east-1 is in US, outside GDPR_ADEQUATE: US adequacy covers only organisations certified under the EU-US Data Privacy Framework ' +
          '(set allowPartialAdequacy to accept)',
      ],
    ],
  },
  {
    name: 'adequacy, Canadian region with opt-in',
    provider: aws,
    region: montreal,
    policy: { residency: 'GDPR_ADEQUATE', allowPartialAdequacy: true },
    reasons: [],
  },
  {
    name: 'explicit countries',
    provider: ovh,
    region: gravelines,
    policy: { countries: ['DE', 'AT'] },
    reasons: [['RESIDENCY', 'region gra is in FR, not in the allowed countries DE, AT']],
  },
  {
    name: 'region allow list by local code',
    provider: aws,
    region: frankfurt,
    policy: { regions: ['eu-central-1'] },
    reasons: [],
    passes: ['region eu-central-1 is an allowed region'],
  },
  {
    name: 'region allow list by full code',
    provider: aws,
    region: usEast,
    policy: { regions: ['aws:eu-central-1'] },
    reasons: [['REGION', 'region us-east-1 not in the allowed regions aws:eu-central-1']],
  },
  {
    name: 'EU operator, US hyperscaler in Frankfurt',
    provider: aws,
    region: frankfurt,
    policy: { operator: 'EU' },
    reasons: [['OPERATOR', 'operator AWS headquartered in US, outside the EU/EEA']],
  },
  {
    name: 'EU operator, French operator',
    provider: ovh,
    region: gravelines,
    policy: { operator: 'EU' },
    reasons: [],
    passes: ['operator OVHcloud headquartered in FR (EU)'],
  },
  {
    name: 'EU operator, Norwegian operator',
    provider: norwegian,
    region: oslo,
    policy: { operator: 'EU' },
    reasons: [],
    passes: ['operator NoCloud headquartered in NO (EEA)'],
  },
  {
    name: 'EU operator, Swiss operator',
    provider: exoscale,
    region: zurich,
    policy: { operator: 'EU' },
    reasons: [['OPERATOR', 'operator Exoscale headquartered in CH, outside the EU/EEA']],
  },
  {
    name: 'certifications, one missing',
    provider: ovh,
    region: gravelines,
    policy: { certifications: ['ISO27001', 'BSI_C5'] },
    reasons: [['CERTIFICATION', 'provider lacks certification BSI_C5']],
  },
  {
    name: 'certifications, held under another spelling',
    provider: ovh,
    region: gravelines,
    policy: { certifications: ['iso-27001', 'SECNUMCLOUD'] },
    reasons: [],
    passes: ['provider holds iso-27001, SECNUMCLOUD'],
  },
  {
    name: 'SLA below the minimum',
    provider: aws,
    region: frankfurt,
    policy: { minSlaPercent: '99.9' },
    reasons: [['SLA', 'SLA 99.5% below the required 99.9%']],
  },
  {
    name: 'SLA not published',
    provider: exoscale,
    region: zurich,
    policy: { minSlaPercent: '99.9' },
    reasons: [['SLA', 'provider publishes no SLA, 99.9% required']],
  },
  {
    name: 'SLA met',
    provider: ovh,
    region: gravelines,
    policy: { minSlaPercent: '99.9' },
    reasons: [],
    passes: ['SLA 99.99% meets the required 99.9%'],
  },
  {
    name: 'pricing model not allowed',
    provider: aws,
    region: frankfurt,
    offer: { pricingModel: 'RESERVED_3Y' },
    policy: { pricingModels: ['ON_DEMAND', 'RESERVED_1Y'] },
    reasons: [['PRICING_MODEL', 'pricing model RESERVED_3Y not allowed (allowed: ON_DEMAND, RESERVED_1Y)']],
  },
  {
    name: 'spot for an intolerant workload',
    provider: aws,
    region: frankfurt,
    offer: { pricingModel: 'SPOT' },
    policy: { tolerance: 'INTOLERANT' },
    reasons: [['TOLERANCE', 'spot not allowed for INTOLERANT']],
  },
  {
    name: 'spot for a recoverable workload',
    provider: aws,
    region: frankfurt,
    offer: { pricingModel: 'SPOT' },
    policy: { tolerance: 'RECOVERABLE' },
    reasons: [],
    passes: ['spot allowed for RECOVERABLE'],
  },
  {
    name: 'on-demand for an intolerant workload',
    provider: aws,
    region: frankfurt,
    policy: { tolerance: 'INTOLERANT' },
    reasons: [],
    passes: ['ON_DEMAND is not interruptible, as INTOLERANT requires'],
  },
  {
    name: 'provider not in the allow list',
    provider: aws,
    region: frankfurt,
    policy: { providers: ['ovh', 'scaleway'] },
    reasons: [['PROVIDER', 'provider aws not in the allowed providers ovh, scaleway']],
  },
  {
    name: 'provider in the deny list',
    provider: aws,
    region: frankfurt,
    policy: { excludeProviders: ['aws'] },
    reasons: [['PROVIDER', 'provider aws is excluded']],
  },
  {
    name: 'price above the maximum',
    provider: aws,
    region: frankfurt,
    policy: { maxPricePerGpuHour: '3' },
    price: '3.5',
    reasons: [['PRICE', 'price 3.5000 EUR per GPU-hour above the maximum 3.0000 EUR']],
  },
  {
    name: 'price at the maximum',
    provider: aws,
    region: frankfurt,
    policy: { maxPricePerGpuHour: '3' },
    price: '3',
    reasons: [],
    passes: ['price 3.0000 EUR per GPU-hour within the maximum 3.0000 EUR'],
  },
  {
    name: 'GDPR_PERSONAL_DATA preset, US region',
    provider: aws,
    region: usEast,
    policy: { preset: 'GDPR_PERSONAL_DATA' },
    reasons: [['RESIDENCY', 'region us-east-1 is in US, outside EEA']],
  },
  {
    name: 'GDPR_PERSONAL_DATA preset, US operator in Frankfurt',
    provider: aws,
    region: frankfurt,
    policy: { preset: 'GDPR_PERSONAL_DATA' },
    reasons: [],
    passes: ['region eu-central-1 is in DE, inside EEA'],
  },
  {
    name: 'EU_SOVEREIGN preset, US operator in Frankfurt',
    provider: aws,
    region: frankfurt,
    policy: { preset: 'EU_SOVEREIGN' },
    reasons: [['OPERATOR', 'operator AWS headquartered in US, outside the EU/EEA']],
  },
  {
    name: 'EU_SOVEREIGN preset, OVHcloud in France',
    provider: ovh,
    region: gravelines,
    policy: { preset: 'EU_SOVEREIGN' },
    reasons: [],
    passes: ['region gra is in FR, inside EEA', 'operator OVHcloud headquartered in FR (EU)'],
  },
  {
    name: 'DE_BSI_C5 preset, OVHcloud in France',
    provider: ovh,
    region: gravelines,
    policy: { preset: 'DE_BSI_C5' },
    reasons: [
      ['RESIDENCY', 'region gra is in FR, not in the allowed countries DE'],
      ['CERTIFICATION', 'provider lacks certification BSI_C5'],
    ],
  },
  {
    name: 'DE_BSI_C5 preset, AWS Frankfurt',
    provider: aws,
    region: frankfurt,
    policy: { preset: 'DE_BSI_C5' },
    reasons: [],
    passes: ['region eu-central-1 is in DE, inside EU', 'region eu-central-1 is in DE, an allowed country', 'provider holds BSI_C5'],
  },
  {
    name: 'every rule failing at once',
    provider: aws,
    region: usEast,
    offer: { pricingModel: 'SPOT' },
    policy: {
      preset: 'EU_SOVEREIGN',
      countries: ['DE'],
      regions: ['eu-central-1'],
      certifications: ['SecNumCloud', 'HDS'],
      minSlaPercent: '99.9',
      pricingModels: ['ON_DEMAND'],
      tolerance: 'INTOLERANT',
      providers: ['ovh'],
      excludeProviders: ['aws'],
      maxPricePerGpuHour: '1',
    },
    price: '2',
    reasons: [
      ['RESIDENCY', 'region us-east-1 is in US, outside EEA'],
      ['RESIDENCY', 'region us-east-1 is in US, not in the allowed countries DE'],
      ['REGION', 'region us-east-1 not in the allowed regions eu-central-1'],
      ['OPERATOR', 'operator AWS headquartered in US, outside the EU/EEA'],
      ['PROVIDER', 'provider aws not in the allowed providers ovh'],
      ['PROVIDER', 'provider aws is excluded'],
      ['CERTIFICATION', 'provider lacks certification SecNumCloud'],
      ['CERTIFICATION', 'provider lacks certification HDS'],
      ['SLA', 'SLA 99.5% below the required 99.9%'],
      ['PRICING_MODEL', 'pricing model SPOT not allowed (allowed: ON_DEMAND)'],
      ['TOLERANCE', 'spot not allowed for INTOLERANT'],
      ['PRICE', 'price 2.0000 EUR per GPU-hour above the maximum 1.0000 EUR'],
    ],
  },
];

describe(evaluateOffer.name, () => {
  it.each(cases)('$name', ({ provider, region, offer, policy, price, reasons, passes }) => {
    const result = evaluateOffer({
      offer: makeOffer({ providerSlug: provider.slug, regionCode: region.code, ...offer }),
      provider,
      region,
      policy: resolvePolicy(policy),
      pricePerGpuHour: new Decimal(price ?? '2'),
      currency: 'EUR',
    });
    expect(result.reasons.map((r) => [r.rule, r.message])).toEqual(reasons);
    expect(result.compliant).toBe(reasons.length === 0);
    if (passes) expect(result.passes).toEqual(passes);
  });

  it('explains a compliant offer under a full policy with one pass per constraint', () => {
    const policy: CompliancePolicy = resolvePolicy({
      preset: 'EU_SOVEREIGN',
      certifications: ['HDS'],
      minSlaPercent: '99.9',
      pricingModels: ['ON_DEMAND'],
      tolerance: 'INTOLERANT',
      maxPricePerGpuHour: '5',
    });
    const result = evaluateOffer({
      offer: makeOffer({ providerSlug: 'ovh', regionCode: 'ovh:gra' }),
      provider: ovh,
      region: gravelines,
      policy,
      pricePerGpuHour: new Decimal('2.5'),
      currency: 'EUR',
    });
    expect(result.compliant).toBe(true);
    expect(result.passes).toHaveLength(7);
  });

  it('marks an offer outside the requirement as no candidate, regardless of the policy', () => {
    const result = evaluateOffer({
      offer: makeOffer({ gpuCount: 8 }),
      provider: aws,
      region: frankfurt,
      gpu: makeGpu(),
      policy: ANY_POLICY,
      requirement: resolveRequirement({ gpus: ['h100-sxm-80gb'], gpuCount: 1 }),
      pricePerGpuHour: new Decimal(2),
      currency: 'USD',
    });
    expect(result).toMatchObject({ candidate: false, compliant: false, reasons: [] });
  });
});
