// The mappers from REST query parameters and GraphQL arguments to the one OfferSearch that
// OffersService takes: both transports must reach the service with the same values.
import type { CheapestOffersArgs, OffersArgs } from './dto/offers.input.js';
import type { CheapestOffersQuery, ListOffersQuery } from './dto/offers.query.js';
import { policyInputFrom } from '../../common/inputs/policy.input.js';
import { searchFromCheapestArgs, searchFromCheapestQuery, searchFromListQuery, searchFromOffersArgs } from './offer-search.js';

// The DTO classes carry only decorators, so plain objects stand in for them (and keep the
// validation and schema libraries out of this test).
const listQuery = (fields: Partial<ListOffersQuery> = {}): ListOffersQuery => ({ ...fields });
const cheapestQuery = (fields: Partial<CheapestOffersQuery> = {}): CheapestOffersQuery => ({ ...fields });
const offersArgs = (fields: Partial<OffersArgs> = {}): OffersArgs => ({ ...fields });

describe(searchFromListQuery.name, () => {
  it('splits REST parameters into requirement, policy, currency and version, with USD by default', () => {
    const asOf = new Date('2026-06-01T00:00:00Z');
    const s = searchFromListQuery(
      listQuery({ gpu: ['h100-sxm-80gb'], gpuCount: 8, minSla: 99.9, provider: ['aws'], excludeProvider: ['ovh'], version: 'v3', asOf }),
    );
    expect(s.requirement).toMatchObject({ gpus: ['h100-sxm-80gb'], gpuCount: 8, model: undefined });
    expect(s.policy).toMatchObject({ minSlaPercent: 99.9, providers: ['aws'], excludeProviders: ['ovh'] });
    expect(s.currency).toBe('USD');
    expect(s.selector).toEqual({ version: 'v3', asOf });
    expect(s.discounts).toEqual([]);
    // Errors about list fields name the parameter REST has (gpu=, provider=, ...).
    expect(s.fieldNames).toEqual({ excludeProviders: 'excludeProvider', gpus: 'gpu', providers: 'provider', regions: 'region' });
  });

  it('narrows the allowed countries to those both country and countries name, and refuses lists with none in common', () => {
    expect(searchFromListQuery(listQuery({ country: ['de', 'US'], countries: ['DE', 'FR'] })).policy.countries).toEqual(['de']);
    expect(searchFromListQuery(listQuery({ country: ['DE'] })).policy.countries).toEqual(['DE']);
    expect(searchFromListQuery(listQuery({ countries: ['FR'] })).policy.countries).toEqual(['FR']);
    expect(searchFromListQuery(listQuery({ country: [], countries: [] })).policy.countries).toBeUndefined();
    expect(() => searchFromListQuery(listQuery({ country: ['US'], countries: ['DE', 'FR'] }))).toThrow(
      expect.objectContaining({ code: 'REQUEST.INVALID', kind: 'BAD_INPUT', errors: [expect.objectContaining({ field: 'countries' })] }),
    );
  });

  it('accepts pricingModel and pricingModels alike, and asks for a model only when one is named', () => {
    expect(searchFromListQuery(listQuery({ pricingModel: ['SPOT'], pricingModels: ['ON_DEMAND'] })).policy.pricingModels).toEqual(['SPOT', 'ON_DEMAND']);
    expect(searchFromListQuery(listQuery()).policy.pricingModels).toBeUndefined();
    expect(searchFromListQuery(listQuery({ model: 'llama-3-8b', precision: 'INT8' })).requirement.model).toEqual({
      preset: 'llama-3-8b',
      parametersB: undefined,
      precision: 'INT8',
    });
    expect(searchFromListQuery(listQuery({ parametersB: 13 })).requirement.model).toEqual({ preset: undefined, parametersB: 13, precision: undefined });
  });
});

describe(searchFromCheapestQuery.name, () => {
  it('reads discounts written provider:percent', () => {
    expect(searchFromCheapestQuery(cheapestQuery({ discounts: ['aws:12.5', 'ovh:3'] })).discounts).toEqual([
      { provider: 'aws', percent: 12.5 },
      { provider: 'ovh', percent: 3 },
    ]);
    expect(searchFromCheapestQuery(cheapestQuery()).discounts).toEqual([]);
  });
});

describe(policyInputFrom.name, () => {
  it('maps the GraphQL policy input, with minSla as minSlaPercent and the price cap as the decimal string it was sent as', () => {
    expect(policyInputFrom(undefined)).toEqual({});
    expect(policyInputFrom({ minSla: 99.95, maxPricePerGpuHour: '2.50', residency: 'EEA' })).toMatchObject({
      minSlaPercent: 99.95,
      maxPricePerGpuHour: '2.50',
      residency: 'EEA',
    });
    expect(policyInputFrom({ residency: 'EEA' }).maxPricePerGpuHour).toBeUndefined();
  });
});

describe(searchFromOffersArgs.name, () => {
  it('reaches the service with the same search as REST for the same listing', () => {
    const asOf = new Date('2026-06-01T00:00:00Z');
    const rest = searchFromListQuery(
      listQuery({
        gpu: ['h100-sxm-80gb'],
        gpuCount: 8,
        residency: 'EEA',
        countries: ['DE'],
        minSla: 99.9,
        pricingModels: ['ON_DEMAND'],
        maxPricePerGpuHour: '4.5',
        currency: 'EUR',
        version: 'v2',
        asOf,
      }),
    );
    const graphql = searchFromOffersArgs(
      offersArgs({
        filter: {
          gpus: ['h100-sxm-80gb'],
          gpuCount: 8,
          residency: 'EEA',
          countries: ['DE'],
          minSla: 99.9,
          pricingModels: ['ON_DEMAND'],
          maxPricePerGpuHour: '4.5',
          currency: 'EUR',
        },
        version: 'v2',
        asOf,
      }),
    );
    // The same search; only the names errors use differ (REST `cursor`, GraphQL `after`).
    const { fieldNames: _restNames, ...restSearch } = rest;
    const { fieldNames: graphqlNames, ...graphqlSearch } = graphql;
    expect(graphqlSearch).toEqual(restSearch);
    expect(graphqlNames).toEqual({ after: 'after' });
  });
});

describe(searchFromCheapestArgs.name, () => {
  it('reaches the service with the same search as REST for the same cheapest-offer question', () => {
    const rest = searchFromCheapestQuery(
      cheapestQuery({ gpu: ['a100-sxm-80gb'], gpuCountMode: 'TOTAL', gpuCount: 16, preset: 'GDPR_PERSONAL_DATA', discounts: ['aws:10'] }),
    );
    const graphql = searchFromCheapestArgs({
      requirement: { gpus: ['a100-sxm-80gb'], gpuCountMode: 'TOTAL', gpuCount: 16 },
      policy: { preset: 'GDPR_PERSONAL_DATA' },
      discounts: [{ provider: 'aws', percent: 10 }],
    } satisfies CheapestOffersArgs);
    // The same search; only the names errors use differ (REST `cursor`, GraphQL `after`).
    const { fieldNames: _restNames, ...restSearch } = rest;
    const { fieldNames: graphqlNames, ...graphqlSearch } = graphql;
    expect(graphqlSearch).toEqual(restSearch);
    expect(graphqlNames).toBeUndefined();
  });
});
