// Enums shared by REST and GraphQL, spelled the same in both (API.md).
import { registerEnumType } from '@nestjs/graphql';
import { CURRENCIES, PRICING_MODELS, PROVIDER_KINDS } from '../../domain/catalog/catalog.types.js';

const asEnum = <T extends string>(values: readonly T[]): Record<T, T> => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

export const PricingModelEnum = asEnum(PRICING_MODELS);
export const CurrencyEnum = asEnum(CURRENCIES);
export const ProviderKindEnum = asEnum(PROVIDER_KINDS);

registerEnumType(PricingModelEnum, { name: 'PricingModel', description: 'How capacity is bought' });
registerEnumType(CurrencyEnum, { name: 'Currency' });
registerEnumType(ProviderKindEnum, { name: 'ProviderKind' });
