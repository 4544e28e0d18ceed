// Whether an offer can be ordered where it claims: checked against the provider's own availability
// data (AvailabilityRecord). A price list names prices for shapes and regions the provider does not
// sell (GCP's billing catalogue prices A100 machine types in regions with no A100 zone), so a price
// alone never proves an offer exists.
import type { Availability, AvailabilityRecord, Offer } from './catalog.types.js';

/**
 * What each availability means for ranking (docs/api.md#orderability). `tier`: answers rank every
 * compliant offer of a lower tier before any of a higher one, by price within a tier, so an offer
 * the provider's own data confirms comes first and an unconfirmed one follows, flagged.
 * `orderable` false: the provider's own catalogue says it cannot be ordered, so it never ranks
 * under any policy and explain names it with the provider's words.
 */
export const AVAILABILITY_TRAITS = {
  CONFIRMED: { tier: 0, orderable: true },
  UNCONFIRMED: { tier: 1, orderable: true },
  LISTED_NOT_ORDERABLE: { tier: 2, orderable: false },
} as const satisfies Record<Availability, { tier: number; orderable: boolean }>;

export type AvailabilityVerdict =
  | { kind: 'CONFIRMED' | 'UNCONFIRMED'; availability: Availability; note: string }
  /** The provider's data lists the instance type, but not in this region or not under this pricing model. */
  | { kind: 'NOT_SOLD'; field: 'region' | 'pricingModel'; reason: string };

/** "p5.48xlarge (All Upfront)" is a purchase option of p5.48xlarge: the availability of the type applies. */
export function baseInstanceType(instanceType: string): string {
  const i = instanceType.indexOf(' (');
  return i < 0 ? instanceType : instanceType.slice(0, i);
}

export function availabilityKey(provider: string, instanceType: string): string {
  return `${provider}|${instanceType}`;
}

/** The records of a catalog by provider and instance type, and the providers that have any. */
export interface AvailabilityIndex {
  byKey: ReadonlyMap<string, AvailabilityRecord>;
  providers: ReadonlySet<string>;
}

export function indexAvailability(records: readonly AvailabilityRecord[]): AvailabilityIndex {
  return {
    byKey: new Map(records.map((r) => [availabilityKey(r.provider, r.instanceType), r])),
    providers: new Set(records.map((r) => r.provider)),
  };
}

const recorded = (r: AvailabilityRecord): string => `${r.source}, observed ${r.observedAt}`;

/**
 * The verdict on one offer. `ownNote` is the offer row's own note on its availability (RunPod's
 * stock per data centre, say), used when the provider's data cannot confirm it.
 */
export function checkAvailability({
  offer,
  index,
  ownNote = null,
}: {
  offer: Pick<Offer, 'providerSlug' | 'instanceType' | 'regionCode' | 'pricingModel'>;
  index: AvailabilityIndex;
  ownNote?: string | null;
}): AvailabilityVerdict {
  const type = baseInstanceType(offer.instanceType);
  const record = index.byKey.get(availabilityKey(offer.providerSlug, type));
  if (!record) {
    const note = index.providers.has(offer.providerSlug)
      ? `no availability record for ${type} in this catalog's ${offer.providerSlug} availability data`
      : `${offer.providerSlug} availability per region is not in this catalog's data`;
    return { kind: 'UNCONFIRMED', availability: 'UNCONFIRMED', note: ownNote ?? note };
  }
  const listed = record.regions.includes(offer.regionCode);
  if (!listed && !record.listsEveryRegion) {
    const note = `${type} is not in ${offer.regionCode} in ${offer.providerSlug}'s availability data held here, which covers only ${record.regions.join(', ')} (${recorded(record)})`;
    return { kind: 'UNCONFIRMED', availability: 'UNCONFIRMED', note: ownNote ?? note };
  }
  if (!listed) {
    return {
      kind: 'NOT_SOLD',
      field: 'region',
      reason: `${offer.providerSlug} does not sell ${type} in ${offer.regionCode}: its availability data lists ${record.regions.join(', ')} (${recorded(record)})`,
    };
  }
  if (record.pricingModels !== null && !record.pricingModels.includes(offer.pricingModel)) {
    return {
      kind: 'NOT_SOLD',
      field: 'pricingModel',
      reason: `${offer.providerSlug} sells ${type} only as ${record.pricingModels.join(', ')}, not ${offer.pricingModel}${record.note ? `: ${record.note}` : ''} (${recorded(record)})`,
    };
  }
  return { kind: 'CONFIRMED', availability: 'CONFIRMED', note: `sold in ${offer.regionCode} per ${recorded(record)}` };
}
