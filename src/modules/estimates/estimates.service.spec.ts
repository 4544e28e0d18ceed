// EstimatesService over the in-memory catalog and an in-process estimate pool: what it checks
// before planning, the cost-model input it builds from the catalog (the cheapest compliant offer
// per GPU and pricing model), and how each outcome of the cost model is answered.
import { Logger } from '@nestjs/common';
import { estimateInferenceCost, type EstimateOutcome } from '../../domain/cost-model/index.js';
import { sampleCatalog } from '../../domain/compliance/testing/sample-catalog.js';
import type { EstimateInput } from './dto/estimate.input.js';
import { EstimatesService } from './estimates.service.js';
import { at } from '../../domain/checked.js';
import { Decimal } from '../../domain/money/money.js';
import { estimatesUnderTest } from './testing/estimates-under-test.js';

const input = (overrides: Partial<EstimateInput> = {}): EstimateInput => ({
  model: { preset: 'llama-3-8b' },
  workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
  ...overrides,
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

async function setUp(content = sampleCatalog()) {
  const { repo, pool, estimates } = await estimatesUnderTest();
  const v1 = repo.addVersion({ content });
  repo.publishAt(v1.id, new Date('2026-01-01T00:00:00Z'));
  return { repo, v1, pool, estimates };
}

describe(EstimatesService.name, () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('before planning', () => {
    it('refuses a workload or model given twice or not at all, without reading the catalog', async () => {
      const { repo, pool, estimates } = await setUp();
      repo.lookups = 0;
      const workload = { avgInputTokens: 500, avgOutputTokens: 200 };
      const cases: [Partial<EstimateInput>, string][] = [
        [{ workload: { ...workload, requestsPerSecond: 1, hourlyProfile: Array<number>(24).fill(1) } }, 'workload.hourlyProfile'],
        [{ workload }, 'workload.hourlyProfile'],
        [{ model: { preset: 'llama-3-8b', parametersB: 8 } }, 'model.preset'],
        [{ model: {} }, 'model.preset'],
      ];
      for (const [overrides, field] of cases) {
        await expect(estimates.estimate(input(overrides))).rejects.toMatchObject({ code: 'REQUEST.INVALID', kind: 'BAD_INPUT', errors: [{ field }] });
      }
      expect(repo.lookups).toBe(0);
      expect(pool.inputs).toEqual([]);
    });

    it('answers a null preset without parametersB as a bad model.parametersB, not as a fault', async () => {
      const { estimates } = await setUp();
      const model = { preset: null as unknown as string, precision: 'FP16' as const };
      await expect(estimates.estimate(input({ model }))).rejects.toMatchObject({ code: 'REQUEST.INVALID', errors: [{ field: 'model.parametersB' }] });
    });

    it('refuses a GPU model the version does not have, naming it and the closest known ones', async () => {
      const { pool, estimates } = await setUp();
      await expect(estimates.estimate(input({ gpus: ['H100-SXM-80GB', 'b300', 'mi400'] }))).rejects.toMatchObject({
        code: 'REQUEST.INVALID',
        // Edit distances by hand: b300→l4-24gb 7 (no common letter), b300→h100-sxm-80gb 11 ("00" kept).
        errors: [{ field: 'gpus', message: 'unknown GPU model "b300"; closest known: l4-24gb, h100-sxm-80gb' }],
      });
      expect(pool.inputs).toEqual([]);
    });

    it('names policy fields under policy., and discounts by their position', async () => {
      const { estimates } = await setUp();
      await expect(estimates.estimate(input({ policy: { minSla: 101 } }))).rejects.toMatchObject({
        code: 'REQUEST.INVALID',
        errors: [{ field: 'policy.minSla' }],
      });
      // A value validation refuses first, given straight to the service to reach its own check.
      await expect(estimates.estimate(input({ policy: { residency: 'MARS' as never } }))).rejects.toMatchObject({ errors: [{ field: 'policy.residency' }] });
      await expect(
        estimates.estimate(
          input({
            discounts: [
              { provider: 'aws', percent: 5 },
              { provider: 'ovh', percent: 100 },
            ],
          }),
        ),
      ).rejects.toMatchObject({
        code: 'REQUEST.INVALID',
        errors: [{ field: 'discounts[1].percent' }],
      });
    });

    it('answers 404 for a version that does not exist', async () => {
      const { estimates } = await setUp();
      await expect(estimates.estimate(input({ version: 'v7' }))).rejects.toMatchObject({ code: 'CATALOG.VERSION_NOT_FOUND', kind: 'NOT_FOUND' });
    });
  });

  describe('the cost model’s input', () => {
    it('offers the cost model the cheapest compliant offer per pricing model and instance size, in the asked currency, each with its provider’s egress price', async () => {
      const { pool, estimates } = await setUp();
      await estimates.estimate(input({ gpus: ['h100-sxm-80gb'], policy: { residency: 'EEA' }, currency: 'EUR' }));
      const sent = at(pool.inputs, 0);
      expect(sent.currency).toBe('EUR');
      expect(sent.candidates).toHaveLength(1);
      const h100 = at(sent.candidates, 0);
      expect(h100.gpu.slug).toBe('h100-sxm-80gb');
      // In the EEA, on demand: of 1-GPU instances Scaleway at 2.73 EUR beats OVH at 2.80 EUR; of 8-GPU ones, AWS Frankfurt
      // at 36.00 USD is the only one. The only spot offer is in the US.
      expect(h100.offers.map((o) => [o.pricingModel, o.provider, o.gpusPerInstance])).toEqual([
        ['ON_DEMAND', 'scaleway', 1],
        ['ON_DEMAND', 'aws', 8],
      ]);
      const [scaleway, aws] = [at(h100.offers, 0), at(h100.offers, 1)];
      expect(scaleway).toMatchObject({ ref: 'scaleway|scaleway:fr-par-2|h100-sxm-80gb|1|H100-1-80G|ON_DEMAND', region: 'scaleway:fr-par-2' });
      expect(scaleway.pricePerInstanceHour.toFixed(4)).toBe('2.7300');
      // Each provider's egress, 0.09 USD per GB, at 0.8650 EUR per USD.
      expect(scaleway.egressPricePerGb?.toFixed(5)).toBe('0.07785');
      expect(aws.egressPricePerGb?.toFixed(5)).toBe('0.07785');
      // 36.00 USD × 0.8650 = 31.14 EUR.
      expect(aws.pricePerInstanceHour.toFixed(2)).toBe('31.14');
    });

    it('plans as the cheapest answer ranks: a confirmed offer before a cheaper unconfirmed one, never a not-orderable one', async () => {
      const withAvailability = (availability: Record<string, 'UNCONFIRMED' | 'LISTED_NOT_ORDERABLE'>) => {
        const catalog = sampleCatalog();
        const offers = catalog.offers.map((o) =>
          availability[o.instanceType] ? { ...o, availability: availability[o.instanceType] ?? o.availability, availabilityNote: 'test note' } : o,
        );
        return { ...catalog, offers };
      };
      const oneGpuPick = async (content: ReturnType<typeof sampleCatalog>) => {
        const { pool, estimates } = await setUp(content);
        await estimates.estimate(input({ gpus: ['h100-sxm-80gb'], policy: { residency: 'EEA' }, currency: 'EUR' }));
        const offers = at(at(pool.inputs, 0).candidates, 0).offers;
        return offers.filter((o) => o.gpusPerInstance === 1).map((o) => [o.provider, o.pricePerInstanceHour.toFixed(2)]);
      };
      // EEA, on demand, 1 GPU: Scaleway 2.73 EUR, OVH 2.80, Exoscale (CH, outside the EEA) out.
      // Scaleway unconfirmed: OVH, confirmed, is planned though dearer.
      expect(await oneGpuPick(withAvailability({ 'H100-1-80G': 'UNCONFIRMED' }))).toEqual([['ovh', '2.80']]);
      // OVH not orderable too: the unconfirmed Scaleway offer is the only one left, and is planned (flagged by the answer).
      expect(await oneGpuPick(withAvailability({ 'H100-1-80G': 'UNCONFIRMED', 'h100-380': 'LISTED_NOT_ORDERABLE' }))).toEqual([['scaleway', '2.73']]);
      // Scaleway not orderable: OVH.
      expect(await oneGpuPick(withAvailability({ 'H100-1-80G': 'LISTED_NOT_ORDERABLE' }))).toEqual([['ovh', '2.80']]);
    });

    it('considers only the pricing models the policy allows, and every GPU of the version when none is named', async () => {
      const { pool, estimates } = await setUp();
      await estimates.estimate(input({ policy: { pricingModels: ['SPOT'], tolerance: 'TOLERANT' } })).catch(() => undefined);
      const sent = at(pool.inputs, 0);
      expect(sent.candidates.map((c) => c.gpu.slug)).toEqual(['h100-sxm-80gb', 'l4-24gb']);
      const [h100, l4] = [at(sent.candidates, 0), at(sent.candidates, 1)];
      // The p5.48xlarge spot offer: 8 GPUs at 12.00 USD an instance-hour.
      expect(h100.offers.map((o) => o.pricingModel)).toEqual(['SPOT']);
      expect(at(h100.offers, 0)).toMatchObject({ gpusPerInstance: 8, interruptionNoticeSeconds: null });
      expect(at(h100.offers, 0).pricePerInstanceHour.toFixed(2)).toBe('12.00');
      expect(l4.offers).toEqual([]);
    });

    it("hands the spot offer's Spot Instance Advisor band to the cost model, which prices with it and says so", async () => {
      const catalog = sampleCatalog();
      // The sample's p5.48xlarge spot offer, given the band a synced AWS spot offer carries.
      const content = { ...catalog, offers: catalog.offers.map((o) => (o.pricingModel === 'SPOT' ? { ...o, interruptionRate: '<5%' as const } : o)) };
      const { pool, estimates } = await setUp(content);
      const answer = await estimates.estimate(input({ gpus: ['h100-sxm-80gb'], policy: { pricingModels: ['SPOT'], tolerance: 'TOLERANT' } }));
      expect(at(pool.inputs, 0).candidates[0]?.offers.find((o) => o.pricingModel === 'SPOT')).toMatchObject({ interruptionRate: '<5%' });
      const spot = at(answer.estimate.chosenOffers, 0);
      expect(spot).toMatchObject({ pricingModel: 'SPOT', interruptionBasis: 'ADVISOR_BAND' });
      // −ln(1 − 0.05) / 730 = 0.0512932943875506 / 730 per instance-hour.
      expect(spot.interruptionsPerHour).toBeCloseTo(0.0512932943875506 / 730, 15);
    });

    it("hands a marketplace spot offer's own interruption rate to the cost model, before its band", async () => {
      const catalog = sampleCatalog();
      const market = { p10: new Decimal(10), median: new Decimal(12), p90: new Decimal(14), sampleSize: 9, hostReliability: null, basis: 'test hosts' };
      // The sample's p5.48xlarge spot offer (12.00 an instance-hour) as a marketplace's, with a band too.
      const content = {
        ...catalog,
        offers: catalog.offers.map((o) =>
          o.pricingModel === 'SPOT' ? { ...o, interruptionRate: '<5%' as const, market: { ...market, interruptionsPerHour: new Decimal('0.02') } } : o,
        ),
      };
      const { pool, estimates } = await setUp(content);
      const answer = await estimates.estimate(input({ gpus: ['h100-sxm-80gb'], policy: { pricingModels: ['SPOT'], tolerance: 'TOLERANT' } }));
      expect(at(pool.inputs, 0).candidates[0]?.offers.find((o) => o.pricingModel === 'SPOT')).toMatchObject({ marketInterruptionsPerHour: 0.02 });
      expect(at(answer.estimate.chosenOffers, 0)).toMatchObject({ pricingModel: 'SPOT', interruptionBasis: 'MARKET', interruptionsPerHour: 0.02 });
      expect(answer.estimate.assumptions.join('\n')).toContain("the marketplace offer's own rate, 0.02/h");
    });

    it('keeps candidates per version, policy, discounts and currency, never answering one with another’s', async () => {
      const { repo, pool, estimates } = await setUp();
      // The i-th estimate's input for its objective (COST); the other objective's is in pool.others.
      const h100 = (i: number) => at(at(pool.inputs, i).candidates, 0).offers.find((o) => o.pricingModel === 'ON_DEMAND' && o.gpusPerInstance === 1);
      const gpus = ['h100-sxm-80gb'];
      await estimates.estimate(input({ gpus, policy: { residency: 'EEA' }, currency: 'EUR' }));
      // Another workload, the same catalog question: the same offers.
      await estimates.estimate(
        input({ gpus, policy: { residency: 'EEA' }, currency: 'EUR', workload: { requestsPerSecond: 7, avgInputTokens: 500, avgOutputTokens: 200 } }),
      );
      expect(h100(1)).toEqual(h100(0));
      // Without Scaleway (2.73 EUR), OVH at 2.80 EUR is the cheapest in the EEA.
      await estimates.estimate(input({ gpus, policy: { residency: 'EEA', excludeProviders: ['scaleway'] }, currency: 'EUR' }));
      expect(h100(2)?.pricePerInstanceHour.toFixed(2)).toBe('2.80');
      // 10% off Scaleway: 2.457 EUR.
      await estimates.estimate(input({ gpus, policy: { residency: 'EEA' }, currency: 'EUR', discounts: [{ provider: 'scaleway', percent: 10 }] }));
      expect(h100(3)?.pricePerInstanceHour.toFixed(3)).toBe('2.457');
      // The same policy in USD: 2.73 EUR at 0.8650 EUR per USD = 3.156 USD.
      await estimates.estimate(input({ gpus, policy: { residency: 'EEA' } }));
      expect(h100(4)?.pricePerInstanceHour.toFixed(3)).toBe('3.156');
      // A new version where Scaleway charges 2.00 EUR: its own candidates, not the kept ones.
      const content = sampleCatalog();
      content.offers = content.offers.map((o) => (o.keyHash === h100(0)?.ref ? { ...o, pricePerHour: new Decimal('2.00') } : o));
      const v2 = repo.addVersion({ content });
      repo.publishAt(v2.id, new Date('2026-06-01T00:00:00Z'));
      const answer = await estimates.estimate(input({ gpus, policy: { residency: 'EEA' }, currency: 'EUR' }));
      expect(answer.version.id).toBe(v2.id);
      expect(h100(5)?.pricePerInstanceHour.toFixed(2)).toBe('2.00');
    });

    it('passes the model, precisions and workload assumptions through as the cost model names them', async () => {
      const { pool, estimates } = await setUp();
      await estimates
        .estimate(
          input({
            model: { parametersB: 7, layers: 32, precision: 'INT8' },
            spotInterruptionsPerHour: 0.1,
            apiPricePer1MTokens: '0.60',
            measuredThroughput: [{ gpu: 'H100-SXM-80GB', requestsPerSecond: 3 }],
            hoursPerMonth: 720,
          }),
        )
        .catch(() => undefined);
      const sent = at(pool.inputs, 0);
      expect(sent.model).toEqual({ parametersB: 7, layers: 32, nativePrecision: 'INT8' });
      expect(sent.precisions).toEqual(['INT8']);
      expect(sent.spot).toEqual({ interruptionsPerHour: 0.1 });
      expect(sent.apiPricePer1MTokens?.toFixed(2)).toBe('0.60');
      expect(sent.measuredThroughput).toEqual([{ gpuSlug: 'h100-sxm-80gb', requestsPerSecond: 3 }]);
      expect(sent.hoursPerMonth).toBe(720);
    });
  });

  describe('outcomes', () => {
    it('answers a plan with the version it used, and warns about prices older than STALE_PRICE_DAYS at asOf', async () => {
      const { v1, estimates } = await setUp();
      const stale = (warnings: string[]) => warnings.filter((w) => w.includes('price observed'));
      // Scaleway's price was observed 2026-11-27: 186 days before 2027-06-01, 4 days before 2026-12-01.
      const late = await estimates.estimate(input({ gpus: ['h100-sxm-80gb'], policy: { residency: 'EEA' }, asOf: new Date('2027-06-01T00:00:00Z') }));
      expect(late.version.id).toBe(v1.id);
      expect(late.estimate.chosenOffers.map((c) => c.ref)).toEqual(['scaleway|scaleway:fr-par-2|h100-sxm-80gb|1|H100-1-80G|ON_DEMAND']);
      expect(stale(late.estimate.warnings)).toEqual([
        expect.stringContaining('scaleway H100-1-80G scaleway:fr-par-2 ON_DEMAND: price observed 2026-11-27, 186 days before 2027-06-01'),
      ]);
      const fresh = await estimates.estimate(input({ gpus: ['h100-sxm-80gb'], policy: { residency: 'EEA' }, asOf: new Date('2026-12-01T00:00:00Z') }));
      expect(stale(fresh.estimate.warnings)).toEqual([]);
    });

    it('plans the other objective in the same task, and builds the answer without changing the plan it was given', async () => {
      const { pool, estimates } = await setUp();
      const asked = input({ gpus: ['h100-sxm-80gb'], policy: { residency: 'EEA' }, optimizeFor: 'CARBON' });
      await estimates.estimate(asked);
      expect(at(pool.inputs, 0)).toMatchObject({ optimizeFor: 'CARBON' });
      expect(at(pool.others, 0)).toMatchObject({ optimizeFor: 'COST', maxAlternatives: 1 });
      // The worker's plan, frozen: adding a warning or an assumption to it would throw.
      const planned = estimateInferenceCost(at(pool.inputs, 0));
      pool.outcome = deepFreeze(planned);
      const late = await estimates.estimate({ ...asked, asOf: new Date('2027-06-01T00:00:00Z') });
      if (planned.kind !== 'OK') throw new Error(planned.kind);
      expect(late.estimate.warnings).toEqual([...planned.estimate.warnings, expect.stringContaining('price observed 2026-11-27, 186 days before 2027-06-01')]);
      // Scaleway prices in EUR: the answer in USD names the rate.
      expect(late.estimate.assumptions).toEqual([
        ...planned.estimate.assumptions,
        expect.stringMatching(/^Optimized for carbon/),
        expect.stringMatching(/^Prices converted at 1 USD = 0.8650 EUR/),
      ]);
    });

    it.each<[string, EstimateOutcome, { code: string; kind: string; field: string; message?: string }]>([
      [
        'an invalid input',
        { kind: 'INVALID_INPUT', field: 'model.layers', reason: 'layers must be positive' },
        { code: 'REQUEST.INVALID', kind: 'BAD_INPUT', field: 'model.layers' },
      ],
      [
        'a model that fits no GPU',
        { kind: 'NO_FIT', largestGpuTried: { slug: 'h100-sxm-80gb', memoryGb: 80, gpusPerInstance: 8 }, reason: 'needs 1,400 GB' },
        {
          code: 'ESTIMATE.MODEL_DOES_NOT_FIT',
          kind: 'UNPROCESSABLE',
          field: 'model',
          message: 'The largest GPU tried was h100-sxm-80gb (80 GB, up to 8 per instance).',
        },
      ],
      [
        'a workload too large to plan',
        { kind: 'TOO_LARGE', gpusAtPeak: 100_000, reason: '100000 GPUs at the peak' },
        { code: 'ESTIMATE.TOO_LARGE', kind: 'UNPROCESSABLE', field: 'workload' },
      ],
      [
        'no usable offer',
        { kind: 'NO_USABLE_OFFER', reason: 'no offer is allowed' },
        { code: 'ESTIMATE.NO_COMPLIANT_OFFER', kind: 'UNPROCESSABLE', field: 'policy' },
      ],
    ])('answers %s with its own code', async (_name, outcome, expected) => {
      const { pool, estimates } = await setUp();
      pool.outcome = outcome;
      const error = await estimates.estimate(input()).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: expected.code,
        kind: expected.kind,
        errors: [{ field: expected.field, message: (outcome as { reason: string }).reason }],
      });
      if (expected.message) expect((error as Error).message).toContain(expected.message);
    });

    it('says nothing of a largest GPU when none was tried', async () => {
      const { pool, estimates } = await setUp();
      pool.outcome = { kind: 'NO_FIT', largestGpuTried: null, reason: 'no GPU allowed' };
      await expect(estimates.estimate(input())).rejects.toMatchObject({
        code: 'ESTIMATE.MODEL_DOES_NOT_FIT',
        message: 'The model fits no allowed GPU: no GPU allowed.',
      });
    });
  });
});
