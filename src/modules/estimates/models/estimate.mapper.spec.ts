// toEstimateModel: the domain estimate (Decimal money, full-precision ratios) as REST and GraphQL
// send it (decimal strings with 4 places, ratios to 4 decimals, offers joined with the catalog).
import { estimateInferenceCost, gpuSpecFromCatalog, type InferenceEstimate } from '../../../domain/cost-model/index.js';
import { estimateInput } from '../../../domain/cost-model/estimate.factories.js';
import { indexCatalog } from '../../../domain/compliance/index.js';
import { makeGpu } from '../../../domain/compliance/testing/factories.js';
import { sampleCatalog } from '../../../domain/compliance/testing/sample-catalog.js';
import type { CatalogVersionInfo } from '../../../domain/catalog/catalog.types.js';
import { Decimal, money } from '../../../domain/money/money.js';
import { toEstimateModel } from './estimate.mapper.js';

const SCALEWAY = 'scaleway|scaleway:fr-par-2|h100-sxm-80gb|1|H100-1-80G|ON_DEMAND';
const version = { id: '00000000-0000-4000-8000-000000000001', label: 'v1' } as CatalogVersionInfo;

/** A real estimate: Llama-3-8B on Scaleway's H100 at 2.73 EUR an hour. */
function scalewayEstimate(): InferenceEstimate {
  const outcome = estimateInferenceCost(
    estimateInput({
      currency: 'EUR',
      candidates: [
        {
          gpu: gpuSpecFromCatalog({ gpu: makeGpu() }),
          offers: [
            {
              ref: SCALEWAY,
              provider: 'scaleway',
              region: 'scaleway:fr-par-2',
              egressPricePerGb: null,
              pricingModel: 'ON_DEMAND',
              gpusPerInstance: 1,
              pricePerInstanceHour: new Decimal('2.73'),
              interruptionNoticeSeconds: null,
            },
          ],
        },
      ],
    }),
  );
  if (outcome.kind !== 'OK') throw new Error(`expected a plan, got ${outcome.kind}`);
  return outcome.estimate;
}

describe(toEstimateModel.name, () => {
  const index = indexCatalog(sampleCatalog());

  it('names the version by id and label only', () => {
    expect(toEstimateModel({ version, estimate: scalewayEstimate(), index }).catalogVersion).toEqual({ id: version.id, label: 'v1' });
  });

  it('joins each chosen offer with its region, country and source from the catalog', () => {
    const model = toEstimateModel({ version, estimate: scalewayEstimate(), index });
    expect(model.chosenOffers).toHaveLength(1);
    expect(model.chosenOffers[0]).toMatchObject({
      pricingModel: 'ON_DEMAND',
      offerId: SCALEWAY,
      provider: 'scaleway',
      region: 'scaleway:fr-par-2',
      country: 'FR',
      gpu: 'h100-sxm-80gb',
      instanceType: 'H100-1-80G',
      observedAt: '2026-11-27',
      priceKind: 'LIST',
      source: 'https://example.test/prices',
      pricePerInstanceHour: { amount: '2.7300', currency: 'EUR' },
      // Not spot: no interruption rate, no basis, no band.
      interruptionsPerHour: null,
      interruptionBasis: null,
      interruptionRate: null,
    });
  });

  it('sends totals in cents and unit prices with 4 places, as decimal strings in the estimate’s currency', () => {
    const e = scalewayEstimate();
    const model = toEstimateModel({ version, estimate: { ...e, monthlyCost: money('1234.56789', 'EUR'), gpuCost: money('7', 'EUR') }, index });
    // 1234.56789 to cents, half to even: 1234.57.
    expect(model.monthlyCost).toEqual({ amount: '1234.57', currency: 'EUR' });
    expect(model.gpuCost).toEqual({ amount: '7.00', currency: 'EUR' });
    expect(model.tiers.every((t) => /^\d+\.\d{2}$/.test(t.cost.amount) && t.cost.currency === 'EUR')).toBe(true);
    expect(model.chosenOffers.every((o) => /^\d+\.\d{4}$/.test(o.pricePerInstanceHour.amount))).toBe(true);
    expect(model.unitEconomics.costPer1MOutputTokens?.amount).toMatch(/^\d+\.\d{4}$/);
  });

  it('rounds ratios and shares to 4 decimals and token counts to whole tokens, keeping nulls', () => {
    const e = scalewayEstimate();
    const model = toEstimateModel({
      version,
      index,
      estimate: {
        ...e,
        savingsVsNaivePct: 12.345678,
        savingsVsOnDemandAutoscaledPct: 0.00004,
        unitEconomics: { ...e.unitEconomics, averageUtilization: 0.666666, costPer1kRequests: null },
        replicaThroughput: { ...e.replicaThroughput, requestsPerSecond: 1.23456, stepTimeMs: null },
        serverless: null,
        apiComparison: {
          apiPricePer1MTokens: money('0.6', 'EUR'),
          tokensPerDay: 1_234.5,
          monthlyApiCost: money('10', 'EUR'),
          breakEvenTokensPerDay: 99.4,
          selfHostingCheaper: false,
        },
      },
    });
    expect(model.savingsVsNaivePct).toBe(12.3457);
    expect(model.savingsVsOnDemandAutoscaledPct).toBe(0);
    expect(model.unitEconomics.averageUtilization).toBe(0.6667);
    expect(model.unitEconomics.costPer1kRequests).toBeNull();
    expect(model.replicaThroughput.requestsPerSecond).toBe(1.2346);
    expect(model.replicaThroughput.stepTimeMs).toBeNull();
    expect(model.serverless).toBeNull();
    expect(model.apiComparison).toEqual({
      apiPricePer1MTokens: { amount: '0.6000', currency: 'EUR' },
      tokensPerDay: 1_235,
      monthlyApiCost: { amount: '10.00', currency: 'EUR' },
      breakEvenTokensPerDay: 99,
      selfHostingCheaper: false,
    });
  });

  it('describes the baselines in words', () => {
    const e = scalewayEstimate();
    const model = toEstimateModel({
      version,
      index,
      estimate: {
        ...e,
        baselines: {
          naive: { monthlyCost: money('100', 'EUR'), pricingModel: 'ON_DEMAND', offerRef: SCALEWAY, instances: 2, replicas: 3 },
          onDemandAutoscaled: { monthlyCost: money('80', 'EUR'), pricingModel: 'ON_DEMAND', offerRef: SCALEWAY, gpuHours: 1_000.123456 },
          unavailableReason: null,
        },
      },
    });
    expect(model.baselines.naive).toEqual({
      monthlyCost: { amount: '100.00', currency: 'EUR' },
      pricingModel: 'ON_DEMAND',
      offerId: SCALEWAY,
      description: '3 replicas (peak) on 2 instance(s), ON_DEMAND, every hour',
    });
    expect(model.baselines.onDemandAutoscaled?.description).toBe('ON_DEMAND instances following the hourly demand (1000.1235 GPU-hours a month)');
  });

  it("sends a spot offer's interruption rate, where it came from, and the offer's band", () => {
    const catalog = sampleCatalog();
    const spotIndex = indexCatalog({
      ...catalog,
      offers: catalog.offers.map((o) => (o.pricingModel === 'SPOT' ? { ...o, interruptionRate: '15-20%' as const } : o)),
    });
    const spotRef = 'aws|aws:us-east-1|h100-sxm-80gb|8|p5.48xlarge|SPOT';
    const outcome = estimateInferenceCost(
      estimateInput({
        tolerance: 'TOLERANT',
        candidates: [
          {
            gpu: gpuSpecFromCatalog({ gpu: makeGpu() }),
            offers: [
              {
                ref: spotRef,
                provider: 'aws',
                region: 'aws:us-east-1',
                egressPricePerGb: new Decimal('0.09'),
                pricingModel: 'SPOT',
                gpusPerInstance: 8,
                pricePerInstanceHour: new Decimal('12.00'),
                interruptionRate: '15-20%',
              },
            ],
          },
        ],
      }),
    );
    if (outcome.kind !== 'OK') throw new Error(`expected a plan, got ${outcome.kind}`);
    const spot = toEstimateModel({ version, estimate: outcome.estimate, index: spotIndex }).chosenOffers[0];
    expect(spot).toMatchObject({ pricingModel: 'SPOT', offerId: spotRef, interruptionBasis: 'ADVISOR_BAND', interruptionRate: '15-20%' });
    // −ln(1 − 0.2) / 730 = 0.2231435513142098 / 730, sent unrounded.
    expect(spot?.interruptionsPerHour).toBeCloseTo(0.2231435513142098 / 730, 15);
  });
});
