/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query CheapestGdprOffers($gpus: [String!]!, $currency: Currency) {\n    cheapestOffers(requirement: { gpus: $gpus }, policy: { preset: \"GDPR_PERSONAL_DATA\" }, currency: $currency, limit: 3, explain: true) {\n      catalogVersion {\n        label\n      }\n      items {\n        provider\n        region\n        country\n        instanceType\n        pricingModel\n        priceKind\n        pricePerGpuHour {\n          amount\n          currency\n        }\n        source\n        observedAt\n      }\n      excludedCount\n    }\n  }\n": typeof types.CheapestGdprOffersDocument,
};
const documents: Documents = {
    "\n  query CheapestGdprOffers($gpus: [String!]!, $currency: Currency) {\n    cheapestOffers(requirement: { gpus: $gpus }, policy: { preset: \"GDPR_PERSONAL_DATA\" }, currency: $currency, limit: 3, explain: true) {\n      catalogVersion {\n        label\n      }\n      items {\n        provider\n        region\n        country\n        instanceType\n        pricingModel\n        priceKind\n        pricePerGpuHour {\n          amount\n          currency\n        }\n        source\n        observedAt\n      }\n      excludedCount\n    }\n  }\n": types.CheapestGdprOffersDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CheapestGdprOffers($gpus: [String!]!, $currency: Currency) {\n    cheapestOffers(requirement: { gpus: $gpus }, policy: { preset: \"GDPR_PERSONAL_DATA\" }, currency: $currency, limit: 3, explain: true) {\n      catalogVersion {\n        label\n      }\n      items {\n        provider\n        region\n        country\n        instanceType\n        pricingModel\n        priceKind\n        pricePerGpuHour {\n          amount\n          currency\n        }\n        source\n        observedAt\n      }\n      excludedCount\n    }\n  }\n"): (typeof documents)["\n  query CheapestGdprOffers($gpus: [String!]!, $currency: Currency) {\n    cheapestOffers(requirement: { gpus: $gpus }, policy: { preset: \"GDPR_PERSONAL_DATA\" }, currency: $currency, limit: 3, explain: true) {\n      catalogVersion {\n        label\n      }\n      items {\n        provider\n        region\n        country\n        instanceType\n        pricingModel\n        priceKind\n        pricePerGpuHour {\n          amount\n          currency\n        }\n        source\n        observedAt\n      }\n      excludedCount\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;