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

/** Every operation once: a smoke run against a running service (`node --experimental-strip-types` or tsx). */
export async function callEveryOperation(client = gpuCostClient()): Promise<void> {
  const versions = await client.GET('/v1/catalog/versions');
  const current = versions.data?.items.find((v) => v.current)?.label ?? 'current';
  await client.GET('/v1/catalog/diff', { params: { query: { from: current, to: current } } });
  await client.GET('/v1/providers', { params: { query: { version: current } } });
  await client.GET('/v1/regions', {});
  await client.GET('/v1/gpus', {});
  await client.GET('/v1/reference-figures', {});
  const offers = await client.GET('/v1/offers', { params: { query: { gpu: ['l4-24gb'], residency: 'EEA', limit: 5 } } });
  // JSON by default; the same operation answers text/csv when asked (Accept), hence the union.
  const first = typeof offers.data === 'object' ? offers.data.items[0] : undefined;
  if (first) await client.GET('/v1/offers/{offerId}/history', { params: { path: { offerId: first.id }, query: { currency: 'EUR' } } });
  await client.GET('/v1/gpus/{gpu}/price-history', { params: { path: { gpu: 'h100-sxm-80gb' }, query: { pricingModels: ['ON_DEMAND'] } } });
  await cheapestGdprH100(client);
  const estimate = await client.POST('/v1/estimates', {
    body: {
      model: { preset: 'llama-3-8b', precision: 'FP16' },
      workload: { requestsPerSecond: 5, avgInputTokens: 500, avgOutputTokens: 200 },
      policy: { preset: 'GDPR_PERSONAL_DATA' },
      currency: 'EUR',
    },
  });
  if (estimate.data)
    console.log(`${estimate.data.monthlyCost.amount} ${estimate.data.monthlyCost.currency}/month (catalog ${estimate.data.catalogVersion.label})`);
  await client.GET('/health/ready');
  await client.GET('/health/live');
}
