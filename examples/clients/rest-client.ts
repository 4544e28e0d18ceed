// A typed REST client generated from the OpenAPI document: `npm run clients:generate` writes
// openapi.d.ts with openapi-typescript, and openapi-fetch calls the service with those types. It
// calls every operation, so `npm run typecheck` (part of npm test) fails when the document and this
// usage part ways; src/common/openapi/clients.spec.ts checks that every operation is here.
import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';

export function gpuCostClient(baseUrl = 'http://localhost:3000', apiKey?: string) {
  return createClient<paths>({ baseUrl, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
}

/** The cheapest GDPR-compliant H100 per GPU-hour, with the catalog version that answered. */
export async function cheapestGdprH100(client = gpuCostClient()): Promise<{ version: string; pricePerGpuHour: string } | null> {
  const { data, error } = await client.GET('/v1/offers/cheapest', {
    params: { query: { gpu: ['h100-sxm-80gb', 'h100-pcie-80gb'], preset: 'GDPR_PERSONAL_DATA', currency: 'EUR', limit: 1 } },
  });
  if (error) throw new Error(`${error.code}: ${error.detail}`); // a Problem: code, detail, errors[]
  const best = data.items[0];
  return best ? { version: data.catalogVersion.label, pricePerGpuHour: best.pricePerGpuHour.amount } : null;
}

/** Every operation once, against a running service; returns each call's HTTP status by path. */
export async function callEveryOperation(client = gpuCostClient()): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const note = <T extends { response: Response }>(path: string, result: T): T => {
    statuses[path] = result.response.status;
    return result;
  };
  const versions = note('/v1/catalog/versions', await client.GET('/v1/catalog/versions'));
  const current = versions.data?.items.find((v) => v.current)?.label ?? 'current';
  note('/v1/catalog/diff', await client.GET('/v1/catalog/diff', { params: { query: { from: current, to: current } } }));
  note('/v1/providers', await client.GET('/v1/providers', { params: { query: { version: current } } }));
  note('/v1/regions', await client.GET('/v1/regions', {}));
  note('/v1/gpus', await client.GET('/v1/gpus', {}));
  note('/v1/reference-figures', await client.GET('/v1/reference-figures', {}));
  const offers = note('/v1/offers', await client.GET('/v1/offers', { params: { query: { gpu: ['l4-24gb'], residency: 'EEA', limit: 5 } } }));
  // JSON by default; the same operation answers text/csv when asked (Accept), hence the union.
  const first = typeof offers.data === 'object' ? offers.data.items[0] : undefined;
  if (first) {
    note(
      '/v1/offers/{offerId}/history',
      await client.GET('/v1/offers/{offerId}/history', { params: { path: { offerId: first.id }, query: { currency: 'EUR' } } }),
    );
  }
  note(
    '/v1/gpus/{gpu}/price-history',
    await client.GET('/v1/gpus/{gpu}/price-history', { params: { path: { gpu: 'h100-sxm-80gb' }, query: { pricingModels: ['ON_DEMAND'] } } }),
  );
  note(
    '/v1/offers/cheapest',
    await client.GET('/v1/offers/cheapest', { params: { query: { gpu: ['h100-sxm-80gb', 'h100-pcie-80gb'], preset: 'GDPR_PERSONAL_DATA', limit: 1 } } }),
  );
  note(
    '/v1/estimates',
    await client.POST('/v1/estimates', {
      body: {
        model: { preset: 'llama-3-8b', precision: 'FP16' },
        workload: { requestsPerSecond: 5, avgInputTokens: 500, avgOutputTokens: 200 },
        policy: { preset: 'GDPR_PERSONAL_DATA' },
        currency: 'EUR',
      },
    }),
  );
  note('/health/ready', await client.GET('/health/ready'));
  note('/health/live', await client.GET('/health/live'));
  return statuses;
}
