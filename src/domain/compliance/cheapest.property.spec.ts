import fc from 'fast-check';
import type { CatalogContent, Offer } from '../catalog/catalog.types.js';
import { AVAILABILITIES, PRICING_MODELS, SOURCE_KINDS, type Availability } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import { Decimal } from '../money/money.js';
import { indexCatalog } from './catalog-index.js';
import { cheapestPerGpuModelAndSize, findCheapestCompliant, type RankedOffer } from './cheapest.js';
import { filterOffers } from './filter-offers.js';
import { evaluateOffer } from './evaluate.js';
import { RESIDENCY_STRICTNESS } from './jurisdictions.js';
import { ANY_POLICY, INTERRUPTION_TOLERANCES, type CompliancePolicy } from './policy.js';
import { comparablePricePerGpuHour, compareTieKeys, resolveDiscounts, type Discounts } from './ranking.js';
import { instancesFor, matchesRequirement, resolveRequirement, type GpuRequirement } from './requirement.js';
import { makeCatalog, makeGpu, makeOffer, makeProvider, makeRegion, TEST_FX_RATES } from './testing/factories.js';
import { at, defined } from '../checked.js';

const PROVIDERS = [
  makeProvider({ slug: 'aws', headquartersCountry: 'US', slaPercent: new Decimal('99.99'), certifications: ['ISO27001', 'BSI_C5'] }),
  makeProvider({ slug: 'ovh', headquartersCountry: 'FR', slaPercent: new Decimal('99.9'), certifications: ['ISO27001', 'HDS'] }),
  makeProvider({ slug: 'hetzner', headquartersCountry: 'DE', slaPercent: new Decimal('99.5'), certifications: ['ISO27001'] }),
  makeProvider({ slug: 'exoscale', headquartersCountry: 'CH', slaPercent: null, certifications: [] }),
  makeProvider({ slug: 'nocloud', headquartersCountry: 'NO', slaPercent: new Decimal('99.95'), certifications: ['BSI_C5'] }),
];
const COUNTRIES = ['DE', 'FR', 'NO', 'CH', 'GB', 'US', 'CA', 'SG'];
const REGIONS = PROVIDERS.flatMap((p) => COUNTRIES.map((c) => makeRegion({ code: `${p.slug}:${c.toLowerCase()}-1`, providerSlug: p.slug, country: c })));
const GPUS = [makeGpu(), makeGpu({ slug: 'l4-24gb', memoryGb: new Decimal(24) })];

const offerArb = fc.record({
  provider: fc.constantFrom(...PROVIDERS.map((p) => p.slug)),
  country: fc.constantFrom(...COUNTRIES),
  gpuSlug: fc.constantFrom(...GPUS.map((g) => g.slug)),
  gpuCount: fc.constantFrom(1, 2, 4, 8),
  pricingModel: fc.constantFrom(...PRICING_MODELS),
  // Few distinct prices, so ties and cross-currency near-ties happen often.
  cents: fc.integer({ min: 100, max: 140 }),
  currency: fc.constantFrom('USD' as const, 'EUR' as const),
  upfront: fc.option(fc.integer({ min: 0, max: 20000 }), { nil: null }),
  estimate: fc.boolean(),
  // Days before the reference date 2026-11-30 that the price was read.
  ageDays: fc.integer({ min: 0, max: 400 }),
  sourceKind: fc.constantFrom(...SOURCE_KINDS, null),
  availability: fc.constantFrom(...AVAILABILITIES),
  // A validity window around the reference date: days from it to the first and last valid day (null: open).
  validFrom: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
  validUntil: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
});
type OfferRow = typeof offerArb extends fc.Arbitrary<infer T> ? T : never;
const REFERENCE_DATE = '2026-11-30';
const daysBefore = (days: number): string => new Date(Date.parse(`${REFERENCE_DATE}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

const catalogOf = (rows: OfferRow[]): CatalogContent => {
  const offers: Offer[] = rows.map((r, i) =>
    makeOffer({
      providerSlug: r.provider,
      regionCode: `${r.provider}:${r.country.toLowerCase()}-1`,
      gpuSlug: r.gpuSlug,
      gpuCount: r.gpuCount,
      instanceType: `t${i % 3}-${i}`,
      pricingModel: r.pricingModel,
      pricePerHour: new Decimal(r.cents * r.gpuCount).div(100),
      currency: r.currency,
      upfront: PRICING_MODEL_TRAITS[r.pricingModel].upfront === 'SPREAD_OVER_TERM' && r.upfront !== null ? new Decimal(r.upfront) : null,
      priceKind: r.estimate ? 'ESTIMATE' : 'LIST',
      derivation: r.estimate ? 'test rule' : null,
      observedAt: daysBefore(r.ageDays),
      sourceKind: r.sourceKind,
      availability: r.availability,
      validFrom: r.validFrom === null ? null : daysBefore(-r.validFrom),
      validUntil: r.validUntil === null ? null : daysBefore(-r.validUntil),
    }),
  );
  return makeCatalog({ providers: PROVIDERS, regions: REGIONS, gpus: GPUS, offers });
};
const catalogArb = fc.array(offerArb, { minLength: 0, maxLength: 40 }).map(catalogOf);
/** Many lists per GPU and pricing model: one GPU, two pricing models. */
const denseCatalogArb = fc
  .array(offerArb, { minLength: 20, maxLength: 60 })
  .map((rows) => catalogOf(rows.map((r) => ({ ...r, gpuSlug: 'h100-sxm-80gb', pricingModel: r.pricingModel === 'SPOT' ? 'SPOT' : 'ON_DEMAND' }))));

const policyArb: fc.Arbitrary<CompliancePolicy> = fc.record({
  preset: fc.constant(null),
  residency: fc.constantFrom(...RESIDENCY_STRICTNESS),
  countries: fc.option(fc.subarray(COUNTRIES, { minLength: 1 }), { nil: null }),
  allowPartialAdequacy: fc.boolean(),
  operator: fc.constantFrom('ANY' as const, 'EU' as const),
  certifications: fc.subarray(['ISO27001', 'BSI_C5', 'HDS'], { maxLength: 1 }),
  minSlaPercent: fc.option(
    fc.constantFrom('99.5', '99.9', '99.95').map((v) => new Decimal(v)),
    { nil: null },
  ),
  pricingModels: fc.option(fc.subarray([...PRICING_MODELS], { minLength: 1 }), { nil: null }),
  tolerance: fc.option(fc.constantFrom(...INTERRUPTION_TOLERANCES), { nil: null }),
  providers: fc.option(
    fc.subarray(
      PROVIDERS.map((p) => p.slug),
      { minLength: 1 },
    ),
    { nil: null },
  ),
  excludeProviders: fc.subarray(
    PROVIDERS.map((p) => p.slug),
    { maxLength: 2 },
  ),
  regions: fc.constant(null),
  maxPricePerGpuHour: fc.option(
    fc.integer({ min: 90, max: 200 }).map((c) => new Decimal(c).div(100)),
    { nil: null },
  ),
  includeEstimates: fc.boolean(),
  maxPriceAgeDays: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
  minSourceKind: fc.option(fc.constantFrom(...SOURCE_KINDS), { nil: null }),
  requireConfirmedAvailability: fc.boolean(),
  maxGridIntensity: fc.constant(null),
  referenceDate: fc.constant(REFERENCE_DATE),
});

const requirementArb: fc.Arbitrary<GpuRequirement> = fc
  .record({
    gpus: fc.option(
      fc.subarray(
        GPUS.map((g) => g.slug),
        { minLength: 1 },
      ),
      { nil: null },
    ),
    gpuCount: fc.option(fc.constantFrom(1, 2, 3, 8), { nil: null }),
    gpuCountMode: fc.constantFrom('PER_INSTANCE', 'TOTAL'),
  })
  .map((r) => resolveRequirement(r));

const discountsArb: fc.Arbitrary<Discounts> = fc
  .subarray(
    PROVIDERS.map((p) => p.slug),
    { maxLength: 2 },
  )
  .chain((slugs) => fc.tuple(fc.constant(slugs), fc.array(fc.integer({ min: 0, max: 60 }), { minLength: slugs.length, maxLength: slugs.length })))
  .map(([slugs, pcts]) => resolveDiscounts(slugs.map((provider, i) => ({ provider, percent: at(pcts, i) }))));

const policyFieldArb = fc.constantFrom(...(Object.keys(ANY_POLICY) as (keyof CompliancePolicy)[]).filter((k) => k !== 'preset' && k !== 'referenceDate'));

/** Both policies at once: what complies with it complies with each. */
function tighten(a: CompliancePolicy, b: CompliancePolicy): CompliancePolicy {
  const stricter = <T>(order: readonly T[], x: T, y: T) => (order.indexOf(x) <= order.indexOf(y) ? x : y);
  const both = <T>(x: readonly T[] | null, y: readonly T[] | null) => (x && y ? x.filter((v) => y.includes(v)) : (x ?? y));
  const max = (x: Decimal | null, y: Decimal | null) => (x && y ? Decimal.max(x, y) : (x ?? y));
  const min = (x: Decimal | null, y: Decimal | null) => (x && y ? Decimal.min(x, y) : (x ?? y));
  return {
    preset: null,
    residency: stricter(RESIDENCY_STRICTNESS, a.residency, b.residency),
    countries: both(a.countries, b.countries),
    allowPartialAdequacy: a.allowPartialAdequacy && b.allowPartialAdequacy,
    operator: a.operator === 'EU' || b.operator === 'EU' ? 'EU' : 'ANY',
    certifications: [...new Set([...a.certifications, ...b.certifications])],
    minSlaPercent: max(a.minSlaPercent, b.minSlaPercent),
    pricingModels: both(a.pricingModels, b.pricingModels),
    tolerance: a.tolerance && b.tolerance ? stricter([...INTERRUPTION_TOLERANCES].reverse(), a.tolerance, b.tolerance) : (a.tolerance ?? b.tolerance),
    providers: both(a.providers, b.providers),
    excludeProviders: [...new Set([...a.excludeProviders, ...b.excludeProviders])],
    regions: null,
    maxPricePerGpuHour: min(a.maxPricePerGpuHour, b.maxPricePerGpuHour),
    includeEstimates: a.includeEstimates && b.includeEstimates,
    maxPriceAgeDays:
      a.maxPriceAgeDays !== null && b.maxPriceAgeDays !== null ? Math.min(a.maxPriceAgeDays, b.maxPriceAgeDays) : (a.maxPriceAgeDays ?? b.maxPriceAgeDays),
    minSourceKind:
      a.minSourceKind !== null && b.minSourceKind !== null ? stricter(SOURCE_KINDS, a.minSourceKind, b.minSourceKind) : (a.minSourceKind ?? b.minSourceKind),
    requireConfirmedAvailability: a.requireConfirmedAvailability || b.requireConfirmedAvailability,
    maxGridIntensity: null,
    referenceDate: a.referenceDate,
  };
}

const key = (item: RankedOffer, requirement: GpuRequirement) =>
  requirement.gpuCount !== null && requirement.gpuCountMode === 'TOTAL' ? item.totalPricePerHour : item.pricePerGpuHour;

/** The rule, stated apart from availability.ts: confirmed offers rank first, then unconfirmed ones; not-orderable ones never comply. */
const TIER: Record<Availability, number> = { CONFIRMED: 0, UNCONFIRMED: 1, LISTED_NOT_ORDERABLE: 2 };
const tier = (item: { offer: Offer }) => TIER[item.offer.availability];
/** Rank order: the tier, then what came before (a stable sort). */
const inTierOrder = <T extends { offer: Offer }>(rows: readonly T[]): T[] => [...rows].sort((a, b) => tier(a) - tier(b));
/** a ranks no better than b: a worse tier, or the same tier and a key at least b's. */
const rankedNoBetter = (a: RankedOffer, b: RankedOffer, requirement: GpuRequirement) =>
  tier(a) > tier(b) || (tier(a) === tier(b) && key(a, requirement).gte(key(b, requirement)));

/** The obvious, slow implementation the index must agree with: every candidate in price order (inTierOrder ranks them). */
function reference(catalog: CatalogContent, requirement: GpuRequirement, policy: CompliancePolicy, discounts: Discounts) {
  const byTotal = requirement.gpuCount !== null && requirement.gpuCountMode === 'TOTAL';
  return (
    catalog.offers
      // Estimates are candidates only when the policy includes them (stated here independently of the index).
      .filter((offer) => offer.priceKind === 'LIST' || policy.includeEstimates)
      .filter((offer) =>
        matchesRequirement({
          offer,
          gpu: defined(
            GPUS.find((g) => g.slug === offer.gpuSlug),
            offer.gpuSlug,
          ),
          requirement,
        }),
      )
      .map((offer) => {
        const discountPercent = discounts.get(offer.providerSlug);
        const perGpu = comparablePricePerGpuHour({ offer, currency: 'EUR', fxRates: TEST_FX_RATES, discountPercent });
        const k = byTotal ? perGpu.mul(offer.gpuCount).mul(instancesFor({ offer, requirement })) : perGpu;
        const evaluation = evaluateOffer({
          offer,
          provider: defined(
            PROVIDERS.find((p) => p.slug === offer.providerSlug),
            offer.providerSlug,
          ),
          region: defined(
            REGIONS.find((r) => r.code === offer.regionCode),
            offer.regionCode,
          ),
          policy,
          pricePerGpuHour: perGpu,
          currency: 'EUR',
        });
        return { offer, key: k, fails: evaluation.reasons.length, reasons: evaluation.reasons, passes: evaluation.passes, discountPercent };
      })
      .sort((a, b) => a.key.cmp(b.key) || compareTieKeys(a.offer, b.offer))
  );
}

const run = (catalog: CatalogContent, requirement: GpuRequirement, policy: CompliancePolicy, discounts?: Discounts, explain = false) =>
  findCheapestCompliant({ catalog: indexCatalog(catalog), requirement, policy, currency: 'EUR', limit: 5, explain, discounts });

describe(`${findCheapestCompliant.name} (properties)`, () => {
  it('never returns a better-ranked top offer for a stricter policy, and only offers the looser one allows', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, policyArb, (catalog, requirement, loose, extra) => {
        const strict = tighten(loose, extra);
        const looser = run(catalog, requirement, loose);
        const stricter = findCheapestCompliant({ catalog, requirement, policy: strict, currency: 'EUR', limit: 1000 });
        const allowedLoosely = new Set(
          findCheapestCompliant({ catalog, requirement, policy: loose, currency: 'EUR', limit: 1000 }).items.map((i) => i.offer.keyHash),
        );
        for (const item of stricter.items) expect(allowedLoosely.has(item.offer.keyHash)).toBe(true);
        if (stricter.items.length > 0) {
          expect(looser.items.length).toBeGreaterThan(0);
          expect(rankedNoBetter(at(stricter.items, 0), at(looser.items, 0), requirement)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never makes the top offer rank better by excluding one more provider', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, fc.constantFrom(...PROVIDERS.map((p) => p.slug)), (catalog, requirement, policy, slug) => {
        const before = run(catalog, requirement, policy);
        const after = run(catalog, requirement, { ...policy, excludeProviders: [...new Set([...policy.excludeProviders, slug])] });
        if (after.items.length > 0) expect(rankedNoBetter(at(after.items, 0), at(before.items, 0), requirement)).toBe(true);
        expect(after.items.some((i) => i.provider.slug === slug)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('always answers sorted by availability (confirmed first), then price, then the offer key, and never a not-orderable offer', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, discountsArb, (catalog, requirement, policy, discounts) => {
        const { items } = run(catalog, requirement, policy, discounts);
        expect(items.filter((i) => i.offer.availability === 'LISTED_NOT_ORDERABLE')).toEqual([]);
        for (let i = 1; i < items.length; i++) {
          const [a, b] = [at(items, i - 1), at(items, i)];
          const order = tier(a) - tier(b) || key(a, requirement).cmp(key(b, requirement));
          expect(order < 0 || (order === 0 && compareTieKeys(a.offer, b.offer) < 0)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with a plain filter-and-sort on items, excluded offers and nearest misses', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, discountsArb, (catalog, requirement, policy, discounts) => {
        const result = run(catalog, requirement, policy, discounts, true);
        const ref = reference(catalog, requirement, policy, discounts);
        const compliant = inTierOrder(ref.filter((r) => r.fails === 0));
        expect(result.items.map((i) => i.offer.keyHash)).toEqual(compliant.slice(0, 5).map((r) => r.offer.keyHash));
        const first = compliant[0];
        const cheaperExcluded = ref.filter((r) => r.fails > 0 && (!first || r.key.lt(first.key)));
        expect(result.excludedCount).toBe(cheaperExcluded.length);
        expect(result.excluded.map((e) => e.offer.keyHash)).toEqual(cheaperExcluded.slice(0, 20).map((r) => r.offer.keyHash));
        const misses = first ? [] : [...ref].sort((a, b) => a.fails - b.fails).slice(0, 3); // stable: cheapest first among equals
        expect(result.nearestMisses.map((m) => m.offer.keyHash)).toEqual(misses.map((r) => r.offer.keyHash));
        expect(result.nearestMisses.map((m) => m.reasons.length)).toEqual(misses.map((r) => r.fails));
        // Every explanation is evaluateOffer's for that offer, a discount note after it.
        const note = (r: (typeof ref)[number]) =>
          r.discountPercent && !r.discountPercent.isZero()
            ? [`negotiated discount of ${r.discountPercent.toString()}% for ${r.offer.providerSlug} applied before ranking`]
            : [];
        expect(result.items.map((i) => i.passes)).toEqual(compliant.slice(0, 5).map((r) => [...r.passes, ...note(r)]));
        expect(result.excluded.map((e) => e.reasons)).toEqual(cheaperExcluded.slice(0, 20).map((r) => r.reasons));
        expect(result.nearestMisses.map((m) => m.reasons)).toEqual(misses.map((r) => r.reasons));
      }),
      { numRuns: 400 },
    );
  });

  it('answers policy after policy on one index as if each were the first (verdicts shared between queries)', () => {
    fc.assert(
      fc.property(
        catalogArb,
        requirementArb,
        policyArb,
        fc.array(fc.tuple(policyFieldArb, policyArb), { minLength: 1, maxLength: 6 }),
        (catalog, requirement, base, changes) => {
          // Policies that differ from the first in one field each: what a shared verdict must tell apart.
          const policies = [base, ...changes.map(([field, other]) => ({ ...base, [field]: other[field] }))];
          const index = indexCatalog(catalog);
          for (const policy of policies) {
            const result = findCheapestCompliant({ catalog: index, requirement, policy, currency: 'EUR', limit: 5, explain: true });
            const ref = reference(catalog, requirement, policy, new Map());
            const compliant = inTierOrder(ref.filter((r) => r.fails === 0));
            expect(result.items.map((i) => [i.offer.keyHash, i.passes])).toEqual(compliant.slice(0, 5).map((r) => [r.offer.keyHash, r.passes]));
            const first = compliant[0];
            const cheaperExcluded = ref.filter((r) => r.fails > 0 && (!first || r.key.lt(first.key)));
            expect(result.excluded.map((e) => [e.offer.keyHash, e.reasons])).toEqual(cheaperExcluded.slice(0, 20).map((r) => [r.offer.keyHash, r.reasons]));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers the same from an index that priced only its base currency at build (a service before it listens)', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, (catalog, requirement, policy) => {
        const lazy = indexCatalog(catalog, { warm: false });
        const answer = (index: ReturnType<typeof indexCatalog>, currency: 'EUR' | 'USD') =>
          findCheapestCompliant({ catalog: index, requirement, policy, currency, limit: 5, explain: true });
        const key = (r: ReturnType<typeof answer>) => r.items.map((i) => [i.offer.keyHash, i.pricePerGpuHour.toString()]);
        expect(key(answer(lazy, 'EUR'))).toEqual(key(run(catalog, requirement, policy, undefined, true)));
        expect(key(answer(lazy, 'USD'))).toEqual(key(answer(indexCatalog(catalog), 'USD')));
      }),
      { numRuns: 100 },
    );
  });

  it('answers without explain exactly the items it answers with explain', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, (catalog, requirement, policy) => {
        const plain = run(catalog, requirement, policy);
        const explained = run(catalog, requirement, policy, undefined, true);
        expect(plain.items.map((i) => i.offer.keyHash)).toEqual(explained.items.map((i) => i.offer.keyHash));
        expect(plain.nearestMisses.map((i) => i.offer.keyHash)).toEqual(explained.nearestMisses.map((i) => i.offer.keyHash));
        expect(plain).toMatchObject({ excluded: [], excludedCount: 0 });
      }),
      { numRuns: 200 },
    );
  });

  it('treats the empty policy as allowing every orderable candidate on offer that day', () => {
    const policy: CompliancePolicy = { ...ANY_POLICY, referenceDate: REFERENCE_DATE };
    fc.assert(
      fc.property(catalogArb, requirementArb, (catalog, requirement) => {
        // On offer: the reference date inside the validity window (ISO dates compare as text), stated apart from evaluate.ts.
        const onOffer = reference(catalog, requirement, policy, new Map()).filter(
          ({ offer }) =>
            (offer.validFrom ?? '0000') <= REFERENCE_DATE && REFERENCE_DATE <= (offer.validUntil ?? '9999') && offer.availability !== 'LISTED_NOT_ORDERABLE',
        );
        expect(run(catalog, requirement, policy).items).toHaveLength(Math.min(5, onOffer.length));
      }),
      { numRuns: 100 },
    );
  });
});

describe(`${filterOffers.name} (properties)`, () => {
  it('pages through exactly the compliant offers of a plain filter-and-sort, in its order, whatever the page size', () => {
    fc.assert(
      fc.property(catalogArb, requirementArb, policyArb, discountsArb, fc.integer({ min: 1, max: 4 }), (catalog, requirement, policy, discounts, limit) => {
        // Listings rank by price per GPU-hour also in TOTAL mode; the reference ranks the same way then.
        const perGpu = { ...requirement, gpuCountMode: 'PER_INSTANCE' as const };
        const expected = inTierOrder(reference(catalog, perGpu, policy, discounts).filter((r) => r.fails === 0)).map((r) => r.offer.keyHash);
        const index = indexCatalog(catalog);
        const paged: string[] = [];
        let after: string | null = null;
        do {
          const page = filterOffers({ catalog: index, requirement: perGpu, policy, currency: 'EUR', limit, after, discounts });
          expect(page.items.length).toBeLessThanOrEqual(limit);
          paged.push(...page.items.map((i) => i.offer.keyHash));
          after = page.nextAfter;
        } while (after !== null && paged.length <= expected.length);
        expect(paged).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe(`${cheapestPerGpuModelAndSize.name} (properties)`, () => {
  it('answers for every GPU, pricing model and instance size exactly what one findCheapestCompliant per triple answers', () => {
    const gpuLists = fc.subarray(
      GPUS.map((g) => g.slug),
      { minLength: 1 },
    );
    fc.assert(
      fc.property(
        fc.oneof(catalogArb, denseCatalogArb),
        policyArb,
        // No discount half the time: the ranking is then the index's own order, which has a path of its own.
        fc.oneof(fc.constant(resolveDiscounts([])), discountsArb),
        gpuLists,
        fc.constantFrom('USD' as const, 'EUR' as const),
        (catalog, policy, discounts, gpus, currency) => {
          const index = indexCatalog(catalog);
          const all = cheapestPerGpuModelAndSize({ catalog: index, gpus, policy, currency, discounts });
          expect([...all.keys()]).toEqual(gpus);
          for (const gpu of gpus) {
            const found = defined(all.get(gpu), gpu);
            const expected: string[] = [];
            for (const pricingModel of PRICING_MODELS) {
              for (const size of [1, 2, 4, 8]) {
                // The separate query the one-query answer replaces: this GPU, pricing model and instance size only.
                if (policy.pricingModels && !policy.pricingModels.includes(pricingModel)) continue;
                const single = findCheapestCompliant({
                  catalog: index,
                  requirement: resolveRequirement({ gpus: [gpu], gpuCount: size }),
                  policy: { ...policy, pricingModels: [pricingModel] },
                  currency,
                  limit: 1,
                  discounts,
                }).items[0];
                if (single)
                  expected.push(
                    `${single.offer.keyHash} ${single.pricePerInstanceHour.toString()} ${single.pricePerGpuHour.toString()} ${single.provider.slug}`,
                  );
              }
            }
            const mine = found.map((o) => `${o.offer.keyHash} ${o.pricePerInstanceHour.toString()} ${o.pricePerGpuHour.toString()} ${o.provider.slug}`);
            expect(mine).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds a compliant offer behind cheaper failing ones in other lists, and none where nothing complies', () => {
    // Three lists of one GPU and pricing model, one per provider, in this order in the index.
    // Cheapest compliant (EEA) offer: aws DE 1.30, ovh FR 1.40, hetzner DE 1.20 behind CA 1.05 (and before FR 1.25);
    // the answer is hetzner's, though ovh's list, met before it, starts dearer than aws's answer.
    const offer = (provider: string, country: string, cents: number, i: number) =>
      makeOffer({
        providerSlug: provider,
        regionCode: `${provider}:${country.toLowerCase()}-1`,
        gpuSlug: 'h100-sxm-80gb',
        gpuCount: 1,
        instanceType: `t${i}`,
        pricingModel: 'ON_DEMAND',
        pricePerHour: new Decimal(cents).div(100),
        currency: 'EUR',
        observedAt: REFERENCE_DATE,
      });
    const catalog = makeCatalog({
      providers: PROVIDERS,
      regions: REGIONS,
      gpus: GPUS,
      offers: [
        offer('aws', 'US', 100, 1),
        offer('aws', 'DE', 130, 2),
        offer('ovh', 'FR', 140, 3),
        offer('hetzner', 'CA', 105, 4),
        offer('hetzner', 'DE', 120, 5),
        // A second compliant offer in the winning list, dearer: the list's first compliant one wins.
        offer('hetzner', 'FR', 125, 6),
      ],
    });
    const policy: CompliancePolicy = { ...ANY_POLICY, residency: 'EEA', referenceDate: REFERENCE_DATE };
    const found = defined(cheapestPerGpuModelAndSize({ catalog, gpus: ['h100-sxm-80gb', 'l4-24gb'], policy, currency: 'EUR' }).get('h100-sxm-80gb'), 'h100');
    expect(found.map((o) => [o.offer.pricingModel, o.offer.instanceType, o.pricePerInstanceHour.toString()])).toEqual([['ON_DEMAND', 't5', '1.2']]);
    expect(cheapestPerGpuModelAndSize({ catalog, gpus: ['l4-24gb'], policy, currency: 'EUR' }).get('l4-24gb')).toEqual([]);
  });
});
