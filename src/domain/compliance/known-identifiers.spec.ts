import { indexCatalog } from './catalog-index.js';
import { filterOffers } from './filter-offers.js';
import { findCheapestCompliant } from './cheapest.js';
import { assertKnownIdentifiers, UnknownIdentifierError } from './known-identifiers.js';
import { ANY_POLICY, resolvePolicy } from './policy.js';
import { resolveDiscounts } from './ranking.js';
import { ANY_REQUIREMENT } from './requirement.js';
import { sampleCatalog } from './testing/sample-catalog.js';

const index = indexCatalog(sampleCatalog());
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    if (error instanceof UnknownIdentifierError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected an UnknownIdentifierError');
};

describe('assertKnownIdentifiers', () => {
  it('accepts the known GPUs, providers and both spellings of a region, in any case', () => {
    expect(() =>
      assertKnownIdentifiers(index, {
        requirement: { ...ANY_REQUIREMENT, gpus: ['L4-24GB'] },
        policy: resolvePolicy({ providers: ['AWS', 'ovh'], excludeProviders: ['lambda'], regions: ['aws:eu-central-1', 'GRA'] }),
        discounts: resolveDiscounts([{ provider: 'scaleway', percent: 10 }]),
      }),
    ).not.toThrow();
  });

  it.each([
    ['gpus', () => assertKnownIdentifiers(index, { requirement: { ...ANY_REQUIREMENT, gpus: ['l4-24gb', 'h1000'] } }), 'GPU model "h1000"'],
    ['providers', () => assertKnownIdentifiers(index, { policy: resolvePolicy({ providers: ['ovhcloud'] }) }), 'provider "ovhcloud"; closest known: ovh'],
    [
      'excludeProviders',
      () => assertKnownIdentifiers(index, { policy: resolvePolicy({ excludeProviders: ['lamda'] }) }),
      'provider "lamda"; closest known: lambda',
    ],
    [
      'regions',
      () => assertKnownIdentifiers(index, { policy: resolvePolicy({ regions: ['eu-central-2'] }) }),
      'region "eu-central-2"; closest known: eu-central-1',
    ],
    [
      'discounts[1].provider',
      () =>
        assertKnownIdentifiers(index, {
          discounts: resolveDiscounts([
            { provider: 'aws', percent: 5 },
            { provider: 'scalewai', percent: 5 },
          ]),
        }),
      'provider "scalewai"; closest known: scaleway',
    ],
  ])('refuses an unknown value in %s, naming it and the closest known', (field, f, message) => {
    const r = refusal(f);
    expect(r.field).toBe(field);
    expect(r.message).toContain(`unknown ${message}`);
  });

  it('is the rule of both offer queries: listing and cheapest refuse what they would otherwise match nothing with', () => {
    const policy = resolvePolicy({ providers: ['nope'] });
    expect(refusal(() => filterOffers({ catalog: index, policy, currency: 'USD', limit: 10 })).field).toBe('providers');
    expect(refusal(() => findCheapestCompliant({ catalog: index, requirement: ANY_REQUIREMENT, policy, currency: 'USD' })).field).toBe('providers');
    const requirement = { ...ANY_REQUIREMENT, gpus: ['nope'] };
    expect(refusal(() => filterOffers({ catalog: index, requirement, policy: ANY_POLICY, currency: 'USD', limit: 10 })).field).toBe('gpus');
  });
});
