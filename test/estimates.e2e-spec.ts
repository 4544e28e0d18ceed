import { jurisdictionsOf } from '../src/domain/compliance/index.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

// A diurnal day (requests/s by hour), peaking at 170 requests/s in the early afternoon.
const DIURNAL = [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30];

const gdprWorkload = {
  model: { preset: 'llama-3-8b', precision: 'FP16' },
  workload: { hourlyProfile: DIURNAL, avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
  policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE' },
  precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
  gpus: ['a10g-24gb', 'l4-24gb', 't4-16gb'],
  currency: 'EUR',
};

const ESTIMATE_FIELDS = `
  catalogVersion { id label } monthlyCost { amount currency } gpuCost { amount currency } gpu precision gpusPerReplica
  tiers { pricingModel gpuHours cost { amount currency } capacityShare }
  hourlyPlan { hour replicasNeeded reservedInstances onDemandInstances spotInstances }
  chosenOffers { pricingModel offerId provider region country priceKind observedAt pricePerInstanceHour { amount currency } interruptionsPerHour interruptionBasis interruptionRate }
  baselines { naive { monthlyCost { amount } } onDemandAutoscaled { monthlyCost { amount } } }
  savingsVsNaivePct savingsVsOnDemandAutoscaledPct
  serverless { breakEvenUtilization cheaper monthlyCost { amount } }
  unitEconomics { costPer1MOutputTokens { amount } costPer1kRequests { amount } averageUtilization }
  replicaThroughput { requestsPerSecond outputTokensPerSecond batch }
  alternatives { gpu precision summary monthlyCost { amount } }
  assumptions warnings`;

describe('estimates (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('plans a diurnal GDPR workload on EEA offers only, with reserved, on-demand and spot tiers, savings, and alternatives', async () => {
    const res = await t.http().post('/v1/estimates').send(gdprWorkload).expect(200);
    const e = res.body;
    expect(e.catalogVersion.label).toBe('2026-12-02');
    expect(e.chosenOffers.every((o: { priceKind: string }) => o.priceKind === 'LIST')).toBe(true);
    expect(e.monthlyCost.currency).toBe('EUR');
    expect(e.tiers.map((x: { pricingModel: string }) => x.pricingModel)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^RESERVED_/), 'ON_DEMAND', 'SPOT']),
    );
    for (const offer of e.chosenOffers) expect(jurisdictionsOf(offer.country)).toContain('EEA');
    expect(e.hourlyPlan).toHaveLength(24);
    expect(e.savingsVsNaivePct).toBeGreaterThan(0);
    expect(Number(e.monthlyCost.amount)).toBeLessThan(Number(e.baselines.onDemandAutoscaled.monthlyCost.amount));
    expect(Number(e.baselines.onDemandAutoscaled.monthlyCost.amount)).toBeLessThanOrEqual(Number(e.baselines.naive.monthlyCost.amount));
    expect(e.alternatives.length).toBeGreaterThan(0);
    expect(e.assumptions.length).toBeGreaterThan(3);
    // The tier shares add up to the whole capacity.
    const shares = e.tiers.reduce((s: number, x: { capacityShare: number }) => s + x.capacityShare, 0);
    expect(shares).toBeCloseTo(1, 3);
  });

  it('gives the same numbers over GraphQL, to the cent', async () => {
    const rest = (await t.http().post('/v1/estimates').send(gdprWorkload).expect(200)).body;
    const gql = await t.graphql<{ estimate: Record<string, unknown> }>(`query($input: EstimateInput!) { estimate(input: $input) { ${ESTIMATE_FIELDS} } }`, {
      input: gdprWorkload,
    });
    expect(gql.errors).toBeUndefined();
    const g = gql.data.estimate as typeof rest;
    expect(g.monthlyCost).toEqual(rest.monthlyCost);
    expect(g.tiers).toEqual(
      rest.tiers.map(({ pricingModel, gpuHours, cost, capacityShare }: Record<string, unknown>) => ({ pricingModel, gpuHours, cost, capacityShare })),
    );
    const interruptions = ({ pricingModel, interruptionsPerHour, interruptionBasis, interruptionRate }: Record<string, unknown>) => ({
      pricingModel,
      interruptionsPerHour,
      interruptionBasis,
      interruptionRate,
    });
    expect(g.chosenOffers.map((o: { offerId: string }) => o.offerId)).toEqual(rest.chosenOffers.map((o: { offerId: string }) => o.offerId));
    expect(g.chosenOffers.map(interruptions)).toEqual(rest.chosenOffers.map(interruptions));
    // The bundled catalog's spot offers have no Spot Instance Advisor band: the flat default, and no rate for the other tiers.
    expect(rest.chosenOffers.map(interruptions)).toEqual(
      expect.arrayContaining([
        { pricingModel: 'SPOT', interruptionsPerHour: 0.05, interruptionBasis: 'DEFAULT', interruptionRate: null },
        { pricingModel: 'ON_DEMAND', interruptionsPerHour: null, interruptionBasis: null, interruptionRate: null },
      ]),
    );
    expect(g.savingsVsNaivePct).toBe(rest.savingsVsNaivePct);
    expect(g.unitEconomics.costPer1MOutputTokens).toEqual({ amount: rest.unitEconomics.costPer1MOutputTokens.amount });
  });

  it('is reproducible: the same input and version give the same answer', async () => {
    const a = (
      await t
        .http()
        .post('/v1/estimates')
        .send({ ...gdprWorkload, version: '2026-12-02' })
        .expect(200)
    ).body;
    const b = (
      await t
        .http()
        .post('/v1/estimates')
        .send({ ...gdprWorkload, version: '2026-12-02' })
        .expect(200)
    ).body;
    expect(b).toEqual(a);
  });

  it('prices AWS H100 on-demand 24/7 at the p5 list price, not the article figure: 6.88 USD/GPU-hour is 5,022.40 USD a GPU for a 730-hour month', async () => {
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({
        model: { preset: 'llama-3-8b' },
        workload: { requestsPerSecond: 0.5, avgInputTokens: 200, avgOutputTokens: 100 },
        policy: { providers: ['aws'], pricingModels: ['ON_DEMAND'], tolerance: 'INTOLERANT' },
        gpus: ['h100-sxm-80gb'],
        currency: 'USD',
      })
      .expect(200);
    // One p5 instance serves the load every hour; 55.04 USD/h for 8 GPUs (or the 1-GPU p5.4xlarge) is 6.88 per GPU-hour.
    const [tier] = res.body.tiers;
    expect(res.body.tiers).toHaveLength(1);
    expect(tier.pricingModel).toBe('ON_DEMAND');
    expect(res.body.unitEconomics.effectivePricePerGpuHour.amount).toBe('6.8800');
    expect(Number(res.body.monthlyCost.amount)).toBeCloseTo((tier.gpuHours / 730) * 5022.4, 4);
    expect(res.body.chosenOffers[0]).toMatchObject({ priceKind: 'LIST', instanceType: expect.stringMatching(/^p5\./) });
  });

  it('uses an ESTIMATE only with includeEstimates, and says so in warnings and on the chosen offer', async () => {
    const body = {
      model: { preset: 'llama-3-8b' },
      workload: { requestsPerSecond: 0.5, avgInputTokens: 200, avgOutputTokens: 100 },
      policy: { providers: ['aws'], regions: ['aws:eu-north-1'], pricingModels: ['RESERVED_1Y'], tolerance: 'INTOLERANT' },
      gpus: ['h100-sxm-80gb'],
    };
    const refused = await t.http().post('/v1/estimates').send(body).expect(422);
    expect(refused.body.code).toBe('ESTIMATE.NO_COMPLIANT_OFFER');
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({ ...body, policy: { ...body.policy, includeEstimates: true } })
      .expect(200);
    expect(res.body.chosenOffers).toEqual([expect.objectContaining({ priceKind: 'ESTIMATE', pricingModel: 'RESERVED_1Y' })]);
    expect(res.body.warnings).toEqual(expect.arrayContaining([expect.stringContaining('is an ESTIMATE, not a list price')]));
  });

  it("prices unknown egress at the dearest known price, or the caller's, and says so", async () => {
    const base = {
      model: { preset: 'llama-3-8b' },
      workload: { requestsPerSecond: 0.5, avgInputTokens: 200, avgOutputTokens: 100 },
      egressGbPerMonth: 1000,
      policy: { pricingModels: ['ON_DEMAND'] },
      currency: 'USD',
    };
    // Nebius publishes no egress price in this catalog. The dearest price data/catalog/providers.yaml
    // publishes is GCP's 0.1118 USD/GB (AWS 0.09, Azure 0.087, the rest 0): 1000 GB × 0.1118 = 111.80 USD.
    const unknown = (
      await t
        .http()
        .post('/v1/estimates')
        .send({ ...base, policy: { ...base.policy, providers: ['nebius'] } })
        .expect(200)
    ).body;
    expect(unknown.hiddenCosts).toMatchObject({
      egress: { amount: '111.80' },
      egressPriceKnown: false,
      egressUnpricedProviders: ['nebius'],
      egressFallbackPricePerGb: { amount: '0.1118', currency: 'USD' },
    });
    expect(unknown.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('egress of 1000 GB/month on nebius is not priced: nebius has no known internet egress price')]),
    );
    // The caller's price instead: 1000 GB × 0.05 = 50 USD, over REST and GraphQL alike.
    const own = { ...base, policy: { ...base.policy, providers: ['nebius'] }, egressPricePerGb: '0.05' };
    const rest = (await t.http().post('/v1/estimates').send(own).expect(200)).body;
    expect(rest.hiddenCosts).toMatchObject({ egress: { amount: '50.00' }, egressPriceKnown: false, egressFallbackPricePerGb: { amount: '0.0500' } });
    const gql = await t
      .http()
      .post('/graphql')
      .send({
        query: 'query($i: EstimateInput!) { estimate(input: $i) { hiddenCosts { egress { amount } egressFallbackPricePerGb { amount } } } }',
        variables: { i: own },
      })
      .expect(200);
    expect(gql.body.data.estimate.hiddenCosts).toEqual({ egress: { amount: '50.00' }, egressFallbackPricePerGb: { amount: '0.0500' } });
    // AWS: 1000 GB at 0.09 USD/GB = 90 USD.
    const aws = (
      await t
        .http()
        .post('/v1/estimates')
        .send({ ...base, policy: { ...base.policy, providers: ['aws'] } })
        .expect(200)
    ).body;
    expect(aws.hiddenCosts).toMatchObject({ egress: { amount: '90.00', currency: 'USD' }, egressPriceKnown: true, egressUnpricedProviders: [] });
  });

  it('prices the B200 scenario of the old dashboard default with on-demand baselines and no false warning', async () => {
    // Llama-3-8B, RECOVERABLE, a diurnal day peaking at 400 requests/s, 10 % batch, on B200 only: the catalog holds
    // B200 on-demand offers of 1, 2 and 4 GPUs, so the baselines are priced on demand, never at a spot price.
    const profile = Array.from({ length: 24 }, (_, h) => Number((400 * (0.6 + 0.4 * Math.cos((2 * Math.PI * (h - 14)) / 24))).toPrecision(4)));
    const e = (
      await t
        .http()
        .post('/v1/estimates')
        .send({
          model: { preset: 'llama-3-8b' },
          workload: { hourlyProfile: profile, avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.1 },
          policy: { tolerance: 'RECOVERABLE' },
          gpus: ['b200-180gb'],
        })
        .expect(200)
    ).body;
    expect(e.gpu).toBe('b200-180gb');
    const { naive, onDemandAutoscaled, unavailableReason } = e.baselines;
    expect([naive.pricingModel, onDemandAutoscaled.pricingModel, unavailableReason]).toEqual(['ON_DEMAND', 'ON_DEMAND', null]);
    // The offer a baseline names is an on-demand B200 offer of the catalog.
    const onDemand = (await t.http().get('/v1/offers').query({ gpu: 'b200-180gb', pricingModel: 'ON_DEMAND', limit: 200 }).expect(200)).body;
    const ids = onDemand.items.map((o: { id: string }) => o.id);
    expect(ids).toContain(naive.offerId);
    expect(ids).toContain(onDemandAutoscaled.offerId);
    expect(e.warnings.filter((w: string) => /no (compliant )?on-demand offer/.test(w))).toEqual([]);
    expect(e.savingsVsNaivePct).toBeGreaterThanOrEqual(0);
    expect(e.savingsVsOnDemandAutoscaledPct).toBeGreaterThanOrEqual(0);
    // The words follow the plan: a RECOVERABLE plan never describes a spot share it does not have.
    const mix = e.assumptions.find((a: string) => a.startsWith('The plan buys its GPU-hours as'));
    for (const tier of e.tiers) expect(mix).toContain(`${tier.pricingModel} (${tier.provider}, ${tier.region})`);
  });

  it('answers a model that fits no allowed GPU with 422 naming the largest GPU tried', async () => {
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({
        model: { preset: 'llama-3-70b', precision: 'FP16' },
        workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
        gpus: ['a10g-24gb', 'l4-24gb'],
      })
      .expect(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.code).toBe('ESTIMATE.MODEL_DOES_NOT_FIT');
    expect(res.body.detail).toMatch(/largest GPU tried was (a10g|l4)-24gb/);
  });

  it.each([
    [{ workload: { hourlyProfile: [1, 2, 3], avgInputTokens: 500, avgOutputTokens: 200 } }, 'workload.hourlyProfile'],
    [{ workload: { hourlyProfile: Array(24).fill(-1), avgInputTokens: 500, avgOutputTokens: 200 } }, 'workload.hourlyProfile'],
    [{ workload: { requestsPerSecond: 1, avgInputTokens: 0, avgOutputTokens: 200 } }, 'workload.avgInputTokens'],
    [{ workload: { requestsPerSecond: 1, avgInputTokens: 5, avgOutputTokens: 2_000_000 } }, 'workload.avgOutputTokens'],
    [{ workload: { requestsPerSecond: 1, avgInputTokens: 5, avgOutputTokens: 5, batchShare: 1.5 } }, 'workload.batchShare'],
    [{ model: { parametersB: 20_000 } }, 'model.parametersB'],
    [{ model: { preset: 'gpt-9' } }, 'model.preset'],
    [{ currency: 'GBP' }, 'currency'],
    [{ policy: { preset: 'NOPE' } }, 'policy.preset'],
    [{ gpus: ['h900'] }, 'gpus'],
    [{ surprise: true }, 'surprise'],
  ])('rejects %j with 400 naming %s', async (override, field) => {
    const body = { model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 }, ...override };
    const res = await t.http().post('/v1/estimates').send(body).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('rejects bad GraphQL estimate input with BAD_USER_INPUT', async () => {
    const res = await t.graphql(
      'query { estimate(input: { model: { preset: "llama-3-8b" }, workload: { requestsPerSecond: 1, avgInputTokens: 0, avgOutputTokens: 10 } }) ' +
        '{ monthlyCost { amount } } }',
    );
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.errors?.[0]?.extensions)).toContain('workload.avgInputTokens');
  });
  it('prices owning the base load against reserving it (docs/cost-model.md#rent-or-buy), the same over GraphQL', async () => {
    const owned = { serverPriceUsd: '60000', electricityUsdPerKwh: '0.20', colocationUsdPerKwMonth: '180', operationsSharePercent: 10 };
    const e = (
      await t
        .http()
        .post('/v1/estimates')
        .send({ ...gdprWorkload, owned })
        .expect(200)
    ).body;
    const o = e.owned;
    const reserved = e.tiers.filter((x: { pricingModel: string }) => x.pricingModel.startsWith('RESERVED'));
    const reservedGpus = Math.round(reserved.reduce((s: number, x: { gpuHours: number }) => s + x.gpuHours, 0) / 730);
    expect(o.baseLoadBasis).toBe('RESERVED');
    expect(o.baseGpus).toBe(reservedGpus);
    expect(o.servers).toBe(Math.ceil(reservedGpus / 8));
    expect(o.gpus).toBe(o.servers * 8);
    // 150 W per A10G-class board (data/catalog/energy.yaml), default PUE: an own site is no cloud region.
    expect(o.itKw).toBeCloseTo((o.gpus * o.tdpWatts.value) / 1000, 4);
    expect(o.pue.basis).toBe('DEFAULT');
    expect(o.monthlyCost.currency).toBe('EUR');
    const parts = ['depreciation', 'capital', 'power', 'colocation', 'operations'].reduce((s, k) => s + Number(o[k].amount), 0);
    expect(parts).toBeCloseTo(Number(o.monthlyCost.amount), 1);
    // The reserved tier's price for the same GPUs, and 60,000 USD / 48 a server as depreciation (in EUR).
    const tierCost = reserved.reduce((s: number, x: { cost: { amount: string } }) => s + Number(x.cost.amount), 0);
    expect(Number(o.reservedMonthlyCost.amount)).toBeCloseTo((tierCost * o.gpus) / reservedGpus, 0);
    expect(Number(o.capital.amount)).toBe(0);
    expect(o.cheaperThanReserved).toBe(Number(o.monthlyCost.amount) < Number(o.reservedMonthlyCost.amount));
    if (o.crossoverUtilization !== null) expect(o.crossoverUtilization).toBeGreaterThan(0);
    const fields = 'owned { baseGpus servers monthlyCost { amount } power { amount } reservedMonthlyCost { amount } crossoverUtilization paybackMonths }';
    const gql = await t.graphql<{ estimate: { owned: Record<string, unknown> } }>(`query($input: EstimateInput!) { estimate(input: $input) { ${fields} } }`, {
      input: { ...gdprWorkload, owned },
    });
    expect(gql.data?.estimate.owned).toEqual({
      baseGpus: o.baseGpus,
      servers: o.servers,
      monthlyCost: { amount: o.monthlyCost.amount },
      power: { amount: o.power.amount },
      reservedMonthlyCost: { amount: o.reservedMonthlyCost.amount },
      crossoverUtilization: o.crossoverUtilization,
      paybackMonths: o.paybackMonths,
    });
  });

  it("prices owning from sourced defaults: the GPU's server price, the site's electricity and grid", async () => {
    const h100 = { ...gdprWorkload, gpus: ['h100-sxm-80gb'], precisions: ['FP16'], owned: { site: 'DE' } };
    const e = (await t.http().post('/v1/estimates').send(h100).expect(200)).body;
    const o = e.owned;
    expect(e.gpu).toBe('h100-sxm-80gb');
    // Eurostat band ID, 2025-S2, Germany: 192.2 EUR/MWh = 0.1922 EUR/kWh; no conversion in EUR.
    expect(o.electricityPerKwh).toEqual({ amount: '0.1922', currency: 'EUR' });
    expect(o.electricitySource).toContain('Eurostat nrg_pc_205');
    expect(o.serverPriceSource).toContain('HGX H100 8-GPU server new');
    expect(o.colocationSource).toContain('150-250');
    // 285,000 USD a server, written off over 48 months at 0 % (the default): depreciation = servers × price / 48.
    expect(Number(o.depreciation.amount)).toBeCloseTo((o.servers * Number(o.serverPrice.amount)) / 48, 1);
    // Carbon at the site: Germany's grid, 342 g/kWh (data/catalog/energy.yaml).
    expect(o.gridIntensity).toMatchObject({ value: 342, subject: 'DE', basis: 'COUNTRY_FALLBACK' });
    expect(o.kgCo2ePerMonth).toBeCloseTo((o.kwhPerMonth * 342) / 1000, 2);
    // A site without a sourced price, and no price given: 400 naming the site.
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({ ...h100, owned: { site: 'US-TX' } })
      .expect(400);
    expect(res.body.errors.map((x: { field: string }) => x.field)).toEqual(['owned.site']);
  });

  it('rejects owned without an electricity price: 400 and BAD_USER_INPUT naming the field', async () => {
    const owned = { serverPriceUsd: '60000', colocationUsdPerKwMonth: '180' };
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({ ...gdprWorkload, owned })
      .expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('owned.electricityUsdPerKwh');
    const gql = await t.graphql(`query($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount } } }`, {
      input: { ...gdprWorkload, owned: { ...owned, electricityUsdPerKwh: '-1' } },
    });
    expect(gql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(gql.errors?.[0]?.extensions)).toContain('owned.electricityUsdPerKwh');
  });
});
