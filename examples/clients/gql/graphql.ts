/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Currency =
  | 'EUR'
  | 'USD';

/** LIST: read from the provider's own price data; ESTIMATE: computed by a named rule */
export type PriceKind =
  | 'ESTIMATE'
  | 'LIST';

/** How capacity is bought */
export type PricingModel =
  | 'MONTHLY'
  | 'ON_DEMAND'
  | 'RESERVED_1Y'
  | 'RESERVED_3Y'
  | 'SERVERLESS'
  | 'SPOT';

export type CheapestGdprOffersQueryVariables = Exact<{
  gpus: Array<string> | string;
  currency?: Currency | null | undefined;
}>;


export type CheapestGdprOffersQuery = { cheapestOffers: { excludedCount: number, catalogVersion: { label: string }, items: Array<{ provider: string, region: string, country: string, instanceType: string, pricingModel: PricingModel, priceKind: PriceKind, source: string, observedAt: string, pricePerGpuHour: { amount: string, currency: Currency } }> } };


export const CheapestGdprOffersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CheapestGdprOffers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gpus"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"currency"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Currency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cheapestOffers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"requirement"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"gpus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gpus"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"policy"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"preset"},"value":{"kind":"StringValue","value":"GDPR_PERSONAL_DATA","block":false}}]}},{"kind":"Argument","name":{"kind":"Name","value":"currency"},"value":{"kind":"Variable","name":{"kind":"Name","value":"currency"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"3"}},{"kind":"Argument","name":{"kind":"Name","value":"explain"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"catalogVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"region"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"instanceType"}},{"kind":"Field","name":{"kind":"Name","value":"pricingModel"}},{"kind":"Field","name":{"kind":"Name","value":"priceKind"}},{"kind":"Field","name":{"kind":"Name","value":"pricePerGpuHour"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"observedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"excludedCount"}}]}}]}}]} as unknown as DocumentNode<CheapestGdprOffersQuery, CheapestGdprOffersQueryVariables>;