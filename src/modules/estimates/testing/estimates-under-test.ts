// EstimatesService over an in-memory catalog and an in-process estimate pool, for unit tests:
// the real service, the real cost model, no worker threads and no database.
import { catalogTestingModule } from '../../catalog/testing/catalog-testing-module.js';
import { InMemoryCatalogRepository } from '../../catalog/testing/in-memory-catalog.repository.js';
import { EstimatePool } from '../estimate-pool.js';
import { EstimatesService } from '../estimates.service.js';
import { MeasurementInputs } from '../measurement-inputs.js';
import { PrometheusClient } from '../prometheus-client.js';
import { PrometheusQueries } from '../prometheus-queries.js';
import { InProcessEstimatePool } from './in-process-estimate-pool.js';

export async function estimatesUnderTest(
  repo = new InMemoryCatalogRepository(),
  measurementConfig: { PROMETHEUS_URL?: string; MEASUREMENT_MAX_SAMPLES?: number; PROMETHEUS_QUERIES?: 'authenticated' | 'anyone' } = {},
) {
  const pool = new InProcessEstimatePool();
  const moduleRef = await catalogTestingModule({
    repository: repo,
    config: {
      STALE_PRICE_DAYS: 90,
      STALE_FX_DAYS: 10_000,
      MEASUREMENT_MAX_SAMPLES: 200_000,
      PROMETHEUS_TIMEOUT_MS: 2_000,
      PROMETHEUS_MAX_BYTES: 1 << 25,
      PROMETHEUS_QUERIES: 'authenticated',
      PROMETHEUS_METRICS: ['DCGM_FI_DEV_GPU_UTIL', 'DCGM_FI_DEV_FB_USED', 'vllm:request_success_total'],
      PROMETHEUS_QUERIES_PER_MINUTE: 30,
      ...measurementConfig,
    },
    providers: [EstimatesService, EstimatePool, MeasurementInputs, PrometheusClient, PrometheusQueries],
  })
    .overrideProvider(EstimatePool)
    .useValue(pool)
    .compile();
  return { repo, pool, estimates: moduleRef.get(EstimatesService) };
}
