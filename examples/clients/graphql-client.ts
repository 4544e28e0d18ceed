// A typed GraphQL client call, as a dashboard would make it: the document is parsed by
// graphql-codegen (codegen.ts) against schema.gql, so the variables and the result are typed and
// `npm run typecheck` fails when the schema and this query part ways.
import { print } from 'graphql';
import { graphql } from './gql/gql.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

export const CheapestGdprOffers = graphql(`
  query CheapestGdprOffers($gpus: [String!]!, $currency: Currency) {
    cheapestOffers(requirement: { gpus: $gpus }, policy: { preset: "GDPR_PERSONAL_DATA" }, currency: $currency, limit: 3, explain: true) {
      catalogVersion {
        label
      }
      items {
        provider
        region
        country
        instanceType
        pricingModel
        priceKind
        pricePerGpuHour {
          amount
          currency
        }
        source
        observedAt
      }
      excludedCount
    }
  }
`);

/** POSTs a typed document to /graphql; throws with the first error's code when the answer has errors. */
export async function request<Result, Variables>(
  document: TypedDocumentNode<Result, Variables>,
  variables: Variables,
  url = 'http://localhost:3000/graphql',
): Promise<Result> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await res.json()) as { data?: Result; errors?: { message: string; extensions?: { code?: string } }[] };
  if (body.errors?.length || !body.data) throw new Error(`${body.errors?.[0]?.extensions?.code ?? res.status}: ${body.errors?.[0]?.message ?? 'no data'}`);
  return body.data;
}

export async function cheapestGdprH100(url?: string): Promise<string> {
  const { cheapestOffers } = await request(CheapestGdprOffers, { gpus: ['h100-sxm-80gb'], currency: 'EUR' }, url);
  const best = cheapestOffers.items[0];
  return best
    ? `${best.provider} ${best.region} (${best.country}): ${best.pricePerGpuHour.amount} ${best.pricePerGpuHour.currency}/GPU-hour, catalog ${cheapestOffers.catalogVersion.label}`
    : 'nothing complies';
}
