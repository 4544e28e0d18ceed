// The transport-neutral shape of an offer query, built from REST query params or GraphQL inputs
// by the mappers below, so both reach OffersService with the same values.
import type { Currency } from '../../domain/catalog/catalog.types.js';
import type { DiscountInput, GpuRequirementInput as DomainRequirement, OfferSort, PolicyInput } from '../../domain/compliance/index.js';
import type { VersionSelector } from '../catalog/index.js';
import { badInput } from '../../common/errors/app-error.js';
import { policyInputFrom } from '../../common/inputs/policy.input.js';
import type { ModelInput } from '../../common/inputs/model.input.js';
import type { CheapestOffersArgs, OffersArgs } from './dto/offers.input.js';
import type { CheapestOffersQuery, ListOffersQuery, OffersQuery } from './dto/offers.query.js';

export interface ModelNeed {
  preset?: string;
  parametersB?: number;
  activeParametersB?: number;
  precision?: string;
  layers?: number;
  hiddenSize?: number;
  attentionHeads?: number;
  kvHeads?: number;
  headDim?: number;
  contextTokens?: number;
}

export interface OfferSearch {
  requirement: DomainRequirement & { model?: ModelNeed };
  policy: PolicyInput;
  currency: Currency;
  selector: VersionSelector;
  discounts: DiscountInput[];
  /** The listing's order (default PRICE). */
  sort?: OfferSort;
  /** How the transport spells a domain field in errors, where it differs (REST's excludeProvider). */
  fieldNames?: Readonly<Record<string, string>>;
}

/** REST query parameters named unlike the domain's policy fields. */
const REST_FIELD_NAMES: Readonly<Record<string, string>> = { excludeProviders: 'excludeProvider', gpus: 'gpu', providers: 'provider', regions: 'region' };
/** GraphQL's cursor argument is `after`, as the domain's (REST's is `cursor`). */
const GRAPHQL_FIELD_NAMES: Readonly<Record<string, string>> = { after: 'after' };

/**
 * `country` (where the region is) and `countries` (allowed) narrow the same list. Disjoint lists
 * can match nothing: that is a contradiction in the request, answered 400, never "no filter".
 */
const intersect = (a?: string[], b?: string[]): string[] | undefined => {
  if (!a?.length) return b?.length ? b : undefined;
  if (!b?.length) return a;
  const upper = new Set(b.map((c) => c.toUpperCase()));
  const both = a.filter((c) => upper.has(c.toUpperCase()));
  if (both.length === 0) {
    throw badInput('REQUEST.INVALID', [
      { field: 'countries', message: `country ${a.join(',')} and countries ${b.join(',')} have no country in common, so nothing could match` },
    ]);
  }
  return both;
};

function fromQuery(q: OffersQuery): Omit<OfferSearch, 'discounts'> {
  const pricingModels = [...(q.pricingModel ?? []), ...(q.pricingModels ?? [])];
  return {
    requirement: {
      gpus: q.gpu,
      gpuCount: q.gpuCount,
      gpuCountMode: q.gpuCountMode,
      minGpuMemoryGb: q.minGpuMemoryGb,
      model: q.model || q.parametersB !== undefined ? { preset: q.model, parametersB: q.parametersB, precision: q.precision } : undefined,
    },
    policy: {
      preset: q.preset,
      residency: q.residency,
      // `country` (where the region is) and `countries` (allowed) both narrow the same list.
      countries: intersect(q.country, q.countries),
      allowPartialAdequacy: q.allowPartialAdequacy,
      operator: q.operator,
      certifications: q.certifications,
      minSlaPercent: q.minSla,
      pricingModels: pricingModels.length ? pricingModels : undefined,
      tolerance: q.tolerance,
      providers: q.provider,
      excludeProviders: q.excludeProvider,
      regions: q.region,
      maxPricePerGpuHour: q.maxPricePerGpuHour,
      includeEstimates: q.includeEstimates,
      maxPriceAgeDays: q.maxPriceAgeDays,
      minSourceKind: q.minSourceKind,
      requireConfirmedAvailability: q.requireConfirmedAvailability,
      maxGridIntensity: q.maxGridIntensity,
    },
    currency: q.currency ?? 'USD',
    selector: { version: q.version, asOf: q.asOf },
    fieldNames: REST_FIELD_NAMES,
  };
}

export const searchFromListQuery = (q: ListOffersQuery): OfferSearch => ({ ...fromQuery(q), discounts: [], ...(q.sort ? { sort: q.sort } : {}) });

export const searchFromCheapestQuery = (q: CheapestOffersQuery): OfferSearch => ({
  ...fromQuery(q),
  discounts: (q.discounts ?? []).map((d) => {
    const [provider = '', percent] = d.split(':'); // split always gives a first part
    return { provider, percent: Number(percent) };
  }),
});

const modelNeed = (m: ModelInput | undefined): ModelNeed | undefined => (m ? { ...m } : undefined);

export const searchFromOffersArgs = (a: OffersArgs): OfferSearch => ({
  requirement: {
    gpus: a.filter?.gpus,
    gpuCount: a.filter?.gpuCount,
    gpuCountMode: a.filter?.gpuCountMode,
    minGpuMemoryGb: a.filter?.minGpuMemoryGb,
    model: modelNeed(a.filter?.model),
  },
  policy: policyInputFrom(a.filter),
  currency: a.filter?.currency ?? 'USD',
  selector: { version: a.version, asOf: a.asOf },
  discounts: [],
  ...(a.sort ? { sort: a.sort } : {}),
  fieldNames: GRAPHQL_FIELD_NAMES,
});

export const searchFromCheapestArgs = (a: CheapestOffersArgs): OfferSearch => ({
  requirement: {
    gpus: a.requirement.gpus,
    gpuCount: a.requirement.gpuCount,
    gpuCountMode: a.requirement.gpuCountMode,
    minGpuMemoryGb: a.requirement.minGpuMemoryGb,
    model: modelNeed(a.requirement.model),
  },
  policy: policyInputFrom(a.policy),
  currency: a.currency ?? 'USD',
  selector: { version: a.version, asOf: a.asOf },
  discounts: a.discounts ?? [],
});
