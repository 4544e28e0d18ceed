// Enums shared by REST and GraphQL, spelled the same in both.
import { registerEnumType } from '@nestjs/graphql';
import { CURRENCIES, PRICE_KINDS, PRICING_MODELS, PROVIDER_KINDS, REFERENCE_METRICS } from '../../domain/catalog/catalog.types.js';

const asEnum = <T extends string>(values: readonly T[]): Record<T, T> => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

export const PricingModelEnum = asEnum(PRICING_MODELS);
export const CurrencyEnum = asEnum(CURRENCIES);
export const ProviderKindEnum = asEnum(PROVIDER_KINDS);
export const PriceKindEnum = asEnum(PRICE_KINDS);
export const ReferenceMetricEnum = asEnum(REFERENCE_METRICS);

registerEnumType(PricingModelEnum, { name: 'PricingModel', description: 'How capacity is bought' });
registerEnumType(CurrencyEnum, { name: 'Currency' });
registerEnumType(ProviderKindEnum, { name: 'ProviderKind' });
registerEnumType(PriceKindEnum, { name: 'PriceKind', description: "LIST: read from the provider's own price data; ESTIMATE: computed by a named rule" });
registerEnumType(ReferenceMetricEnum, { name: 'ReferenceMetric', description: 'What a reference figure is compared with' });
