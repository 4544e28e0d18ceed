import { Decimal } from '../money/money.js';
import { findCheapestCompliant } from './cheapest.js';
import { evaluateFreshness, oldestAcceptedObservation, priceAgeDays } from './evaluate.js';
import { filterOffers } from './filter-offers.js';
import { ANY_POLICY, PolicyError, resolvePolicy } from './policy.js';
import { priceQualityWarnings, priceReferenceDate } from './price-quality.js';
import { ANY_REQUIREMENT } from './requirement.js';
import { makeCatalog, makeOffer, makeProvider, makeRegion } from './testing/factories.js';

const list = makeOffer({ instanceType: 'list', pricePerHour: new Decimal('4.00'), observedAt: '2026-11-01' });
const estimate = makeOffer({
  instanceType: 'estimate',
  pricePerHour: new Decimal('1.00'),
  priceKind: 'ESTIMATE',
  derivation: 'on-demand x 0.25',
  observedAt: '2026-11-01',
});
const old = makeOffer({ instanceType: 'old', pricePerHour: new Decimal('3.00'), observedAt: '2025-03-06' });
const catalog = makeCatalog({ providers: [makeProvider()], regions: [makeRegion()], offers: [list, estimate, old] });
const cheapest = (policy: Parameters<typeof resolvePolicy>[0], explain = false) =>
  findCheapestCompliant({ catalog, requirement: ANY_REQUIREMENT, policy: resolvePolicy({ referenceDate: '2026-11-30', ...policy }), currency: 'USD', explain });

describe('price kinds', () => {
  it('ranks LIST prices only by default: the cheaper ESTIMATE is not a candidate, not even an excluded one', () => {
    const r = cheapest({}, true);
    expect(r.items.map((i) => i.offer.instanceType)).toEqual(['old', 'list']);
    expect([...r.excluded, ...r.nearestMisses]).toEqual([]);
    const page = filterOffers({ catalog, policy: resolvePolicy({}), currency: 'USD', limit: 10 });
    expect(page.items.map((i) => i.offer.instanceType)).toEqual(['old', 'list']);
  });

  it('ranks estimates with includeEstimates, and says why each complies', () => {
    const r = cheapest({ includeEstimates: true });
    expect(r.items.map((i) => i.offer.instanceType)).toEqual(['estimate', 'old', 'list']);
    expect(r.items[0]?.passes).toContain('ESTIMATE price, included because includeEstimates is set: on-demand x 0.25');
  });
});

describe('freshness', () => {
  it('counts the age in whole days from the reference date', () => {
    // 2025-03-06 → 2026-03-06 is 365 days; → 2026-11-30 adds 25 (Mar) + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 30 = 269: 634.
    expect(priceAgeDays('2025-03-06', '2026-11-30')).toBe(634);
    expect(priceAgeDays('2026-12-01', '2026-11-30')).toBe(0);
    expect(oldestAcceptedObservation({ ...ANY_POLICY, maxPriceAgeDays: 29, referenceDate: '2026-11-30' })).toBe('2026-11-01');
  });

  it('excludes prices older than maxPriceAgeDays with the reason, and keeps one exactly at the limit', () => {
    const r = cheapest({ maxPriceAgeDays: 29 }, true);
    expect(r.items.map((i) => i.offer.instanceType)).toEqual(['list']);
    expect(r.excluded.map((e) => [e.offer.instanceType, e.reasons.map((x) => x.rule)])).toEqual([['old', ['FRESHNESS']]]);
    expect(r.excluded[0]?.reasons[0]?.message).toBe('price observed 2025-03-06, 634 days before 2026-11-30: older than maxPriceAgeDays 29');
    expect(cheapest({ maxPriceAgeDays: 28 }).items).toEqual([]);
  });

  it('explains what passes', () => {
    const v = evaluateFreshness({ offer: list, policy: { ...ANY_POLICY, maxPriceAgeDays: 30, referenceDate: '2026-11-30' } });
    expect(v).toEqual({ reasons: [], passes: ['price observed 2026-11-01, within maxPriceAgeDays 30'] });
  });

  it('validates maxPriceAgeDays and the reference date, naming the field', () => {
    for (const bad of [-1, 1.5, 10_001]) {
      expect(() => resolvePolicy({ maxPriceAgeDays: bad })).toThrow(
        new PolicyError('maxPriceAgeDays', `maxPriceAgeDays must be a whole number from 0 to 10000; got ${bad}`),
      );
    }
    expect(() => resolvePolicy({ referenceDate: '2026-13-45' })).toThrow(PolicyError);
    // A preset does not decide data quality: both fields apply on top of it.
    expect(resolvePolicy({ preset: 'GDPR_PERSONAL_DATA', includeEstimates: true, maxPriceAgeDays: 90 })).toEqual(
      expect.objectContaining({ includeEstimates: true, maxPriceAgeDays: 90 }),
    );
  });
});

describe(priceQualityWarnings.name, () => {
  it('names every ESTIMATE with its rule and every price older than the threshold with its age', () => {
    const w = priceQualityWarnings([estimate, old, list, old], { referenceDate: '2026-11-30', staleAfterDays: 90 });
    expect(w).toEqual([
      'aws estimate aws:eu-central-1 ON_DEMAND is an ESTIMATE, not a list price (included by includeEstimates): on-demand x 0.25',
      'aws old aws:eu-central-1 ON_DEMAND: price observed 2025-03-06, 634 days before 2026-11-30 (older than 90 days); check the source before buying',
    ]);
    // 29 days old against a 29-day threshold is not stale; against 28 it is.
    expect(priceQualityWarnings([list], { referenceDate: '2026-11-30', staleAfterDays: 29 })).toEqual([]);
    expect(priceQualityWarnings([list], { referenceDate: '2026-11-30', staleAfterDays: 28 })).toHaveLength(1);
  });

  it('counts from the asOf day when there is one, else from today', () => {
    expect(priceReferenceDate(new Date('2026-06-01T23:00:00Z'))).toBe('2026-06-01');
    expect(priceReferenceDate(undefined, new Date('2026-11-30T08:00:00Z'))).toBe('2026-11-30');
  });
});
