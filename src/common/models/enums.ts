// Enums shared by REST and GraphQL, spelled the same in both.
import { registerEnumType } from '@nestjs/graphql';
import {
  AVAILABILITIES,
  CURRENCIES,
  GRID_SOURCES,
  PRICE_KINDS,
  PRICING_MODELS,
  PROVIDER_KINDS,
  REFERENCE_METRICS,
  SOURCE_KINDS,
} from '../../domain/catalog/catalog.types.js';

export const asEnum = <T extends string>(values: readonly T[]): Record<T, T> => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

export const PricingModelEnum = asEnum(PRICING_MODELS);
export const CurrencyEnum = asEnum(CURRENCIES);
export const ProviderKindEnum = asEnum(PROVIDER_KINDS);
export const PriceKindEnum = asEnum(PRICE_KINDS);
export const ReferenceMetricEnum = asEnum(REFERENCE_METRICS);
export const SourceKindEnum = asEnum(SOURCE_KINDS);
export const AvailabilityEnum = asEnum(AVAILABILITIES);
export const GridSourceEnum = asEnum(GRID_SOURCES);

registerEnumType(PricingModelEnum, { name: 'PricingModel', description: 'How capacity is bought' });
registerEnumType(CurrencyEnum, { name: 'Currency' });
registerEnumType(ProviderKindEnum, { name: 'ProviderKind' });
registerEnumType(PriceKindEnum, { name: 'PriceKind', description: "LIST: read from the provider's own price data; ESTIMATE: computed by a named rule" });
registerEnumType(ReferenceMetricEnum, { name: 'ReferenceMetric', description: 'What a reference figure is compared with' });
registerEnumType(SourceKindEnum, {
  name: 'SourceKind',
  description:
    "Where a price was read, best first: PROVIDER_API (the provider's own price API or feed), PROVIDER_PAGE (its own pricing page or rate card), " +
    "MIRROR (a third party's copy of the provider's price data as published), TRANSCRIPTION (a third party's retyped or re-tabulated " +
    'reading of it), ANNOUNCEMENT (blog post, press release, article; never a LIST price)',
});
registerEnumType(AvailabilityEnum, {
  name: 'Availability',
  description:
    "CONFIRMED: the provider's own availability data says the instance type is sold there under this pricing model; UNCONFIRMED: not confirmed " +
    "(ranked after every confirmed offer, flagged); LISTED_NOT_ORDERABLE: the provider's own catalogue says it cannot be ordered (never ranked; " +
    'availabilityNote quotes it with the source)',
});
registerEnumType(GridSourceEnum, {
  name: 'GridSource',
  description:
    "How a grid intensity was made (docs/carbon.md): PROVIDER, the cloud provider's own figure for its region (Google's region-carbon-info); " +
    "ELECTRICITY_MAPS, Electricity Maps' yearly average of the grid zone or country the region lies in",
});
