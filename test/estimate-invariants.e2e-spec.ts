// The estimate's invariants (checkEstimate, docs/cost-model.md#invariants) on the bundled catalog,
// over a matrix of 216 scenarios: every model preset × every tolerance × a flat, a daily and a weekly
// profile, each in three variants that rotate the policy preset, the currency, a GPU shortlist,
// the batch share and the egress. Every scenario is asked over REST and over GraphQL (the same
// figures, to the cent) and in the other currency (the same plan, converted at the rate named).
// A scenario the catalog cannot serve must be refused with a 422 and a reason, never answered wrongly.
import { MODEL_PRESET_SLUGS } from '../src/domain/sizing/index.js';
import { INTERRUPTION_TOLERANCES, resolvePolicy, type InterruptionTolerance } from '../src/domain/compliance/index.js';
import { assembleCatalog, parseCatalogFiles } from '../src/domain/catalog/catalog-files.js';
import type { CatalogContent, Currency } from '../src/domain/catalog/catalog.types.js';
import { checkEstimate, type WireEstimate } from './setup/check-estimate.js';
import { readCatalogFiles } from '../src/modules/catalog-admin/index.js';
import { at, defined } from '../src/domain/checked.js';
import { BUNDLED_CATALOG, createTestServer, type TestServer } from './setup/test-app.js';

const FIELDS = `
  monthlyCost { amount currency } gpuCost { amount currency } gpu gpusPerReplica periodHours
  tiers { pricingModel offerId provider region cost { amount currency } capacityShare egressGb egressPricePerGb { amount currency } egress { amount currency } }
  hourlyPlan { hour demandRequestsPerSecond onlineRequestsPerSecond replicasNeeded reservedInstances onDemandInstances spotInstances serverlessReplicaHours
    batchReplicaHours batchOnDemandInstances batchSpotInstances batchServerlessReplicaHours }
  chosenOffers { pricingModel offerId provider replicasPerInstance gpusPerInstance }
  reservedInstances
  baselines { naive { monthlyCost { amount currency } pricingModel offerId } onDemandAutoscaled { monthlyCost { amount currency } pricingModel offerId } unavailableReason }
  savingsVsNaivePct savingsVsOnDemandAutoscaledPct
  replicaThroughput { requestsPerSecond }
  hiddenCosts { egress { amount currency } egressPriceKnown egressUnpricedProviders egressFallbackPricePerGb { amount currency } }
  assumptions warnings
  exchangeRate { base currency rate date }`;

// A weekday: quiet nights, a daytime plateau peaking mid-afternoon (requests/s at peak = 1).
const DAY = Array.from({ length: 24 }, (_, h) => Number((0.1 + 0.9 * Math.max(0, Math.sin(((h - 6) / 16) * Math.PI))).toFixed(3)));
// A week, Monday first: five such weekdays, then a weekend at 30 % of them.
const WEEK = Array.from({ length: 168 }, (_, h) => Number((at(DAY, h % 24) * (h >= 120 ? 0.3 : 1)).toFixed(3)));

const POLICIES = [undefined, 'GDPR_PERSONAL_DATA', 'EU_SOVEREIGN', 'DE_BSI_C5'] as const;
const SHORTLISTS = [undefined, ['h100-sxm-80gb', 'h200-141gb', 'b200-180gb'], ['l4-24gb', 'l40s-48gb', 'a10g-24gb', 'a100-sxm-80gb']] as const;
const BATCH = [0, 0.15, 0.3] as const;
const EGRESS = [0, 2_000, 50_000] as const;

interface Scenario {
  name: string;
  body: Record<string, unknown>;
  profile: number[];
  batchShare: number;
  tolerance: InterruptionTolerance;
  egressGbPerMonth: number;
  currency: Currency;
  policyPreset: string | undefined;
}

function scenarios(): Scenario[] {
  const out: Scenario[] = [];
  let i = 0;
  for (const preset of MODEL_PRESET_SLUGS) {
    for (const tolerance of INTERRUPTION_TOLERANCES) {
      for (const shape of ['flat', 'day', 'week'] as const) {
        for (let variant = 0; variant < 3; variant++, i++) {
          const peak = [4, 25, 120][(i + variant) % 3] ?? 4;
          const profile = shape === 'flat' ? Array<number>(24).fill(peak) : (shape === 'day' ? DAY : WEEK).map((x) => Number((x * peak).toFixed(3)));
          const workloadProfile = shape === 'flat' ? { requestsPerSecond: peak } : shape === 'day' ? { hourlyProfile: profile } : { weeklyProfile: profile };
          const policyPreset = POLICIES[i % POLICIES.length];
          const shortlist = SHORTLISTS[(i + variant) % SHORTLISTS.length];
          const batchShare = at(BATCH, (i + 2 * variant) % BATCH.length);
          const egressGbPerMonth = at(EGRESS, (i + variant) % EGRESS.length);
          const currency: Currency = i % 2 === 0 ? 'USD' : 'EUR';
          out.push({
            name: `${preset} ${tolerance} ${shape}@${peak} ${policyPreset ?? 'ANY'} ${shortlist ? at(shortlist, 0) + '…' : 'all GPUs'} batch ${batchShare} egress ${egressGbPerMonth} ${currency}`,
            body: {
              model: { preset },
              workload: { ...workloadProfile, avgInputTokens: 500, avgOutputTokens: 200, batchShare, targetUtilization: 0.75 },
              policy: { ...(policyPreset ? { preset: policyPreset } : {}), tolerance },
              recoverableSpotShare: 0.5,
              egressGbPerMonth,
              currency,
              ...(shortlist ? { gpus: shortlist } : {}),
            },
            profile,
            batchShare,
            tolerance,
            egressGbPerMonth,
            currency,
            policyPreset,
          });
        }
      }
    }
  }
  return out;
}

describe('estimate invariants (e2e, bundled catalog)', () => {
  let t: TestServer;
  let catalog: CatalogContent;
  beforeAll(async () => {
    t = await createTestServer();
    const assembled = assembleCatalog({ parsed: parseCatalogFiles(await readCatalogFiles([BUNDLED_CATALOG])), inherited: null, scope: { mode: 'FULL' } });
    catalog = defined(assembled.content, 'the bundled catalog');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('every one of 216 scenarios keeps every invariant over REST and GraphQL, in both currencies, or is refused with a reason', async () => {
    const all = scenarios();
    expect(all.length).toBeGreaterThanOrEqual(200);
    const referenceDate = new Date().toISOString().slice(0, 10);
    const failures: string[] = [];
    const refused = new Map<string, number>();
    let answered = 0;

    const run = async (s: Scenario): Promise<void> => {
      const other: Currency = s.currency === 'USD' ? 'EUR' : 'USD';
      const [rest, gql, twin] = await Promise.all([
        t.http().post('/v1/estimates').send(s.body),
        t.graphql<{ estimate: WireEstimate | null }>(`query($input: EstimateInput!) { estimate(input: $input) { ${FIELDS} } }`, { input: s.body }),
        t
          .http()
          .post('/v1/estimates')
          .send({ ...s.body, currency: other }),
      ]);
      if (rest.status === 422) {
        const code = String(rest.body.code);
        refused.set(code, (refused.get(code) ?? 0) + 1);
        if (!rest.body.detail) failures.push(`${s.name}: 422 without a reason`);
        if (twin.status !== 422) failures.push(`${s.name}: refused in ${s.currency}, answered ${twin.status} in ${other}`);
        // Both transports refuse, for the same reason.
        const extensions = gql.errors?.[0]?.extensions;
        if (extensions?.['code'] !== 'UNPROCESSABLE' || extensions['errorCode'] !== code) {
          failures.push(`${s.name}: REST refused with ${code}, GraphQL said ${JSON.stringify(gql.errors)}`);
        }
        return;
      }
      if (rest.status !== 200 || twin.status !== 200) {
        failures.push(`${s.name}: HTTP ${rest.status} / ${twin.status}: ${JSON.stringify(rest.body).slice(0, 300)}`);
        return;
      }
      answered++;
      const request = {
        profile: s.profile,
        batchShare: s.batchShare,
        targetUtilization: 0.75,
        tolerance: s.tolerance,
        recoverableSpotShare: 0.5,
        egressGbPerMonth: s.egressGbPerMonth,
        fallbackEgressPricePerGb: null,
        currency: s.currency,
        policy: resolvePolicy({ ...(s.policyPreset ? { preset: s.policyPreset } : {}), tolerance: s.tolerance, referenceDate }),
      };
      const answer = rest.body as WireEstimate;
      for (const broken of checkEstimate({ request, answer, twin: twin.body as WireEstimate, catalog })) failures.push(`${s.name} (REST): ${broken}`);
      const g = gql.data?.estimate;
      if (!g) {
        failures.push(`${s.name}: GraphQL answered ${JSON.stringify(gql.errors)}`);
        return;
      }
      for (const broken of checkEstimate({ request, answer: g, catalog })) failures.push(`${s.name} (GraphQL): ${broken}`);
      if (g.monthlyCost.amount !== answer.monthlyCost.amount) failures.push(`${s.name}: GraphQL ${g.monthlyCost.amount}, REST ${answer.monthlyCost.amount}`);
      if (JSON.stringify(g.tiers) !== JSON.stringify(answer.tiers.map((x) => pick(x, Object.keys(at(g.tiers, 0) ?? {}))))) {
        failures.push(`${s.name}: GraphQL and REST tiers differ`);
      }
    };

    // Two at a time: the machine has two cores and the service plans on worker threads.
    const queue = [...all];
    await Promise.all(
      [0, 1].map(async () => {
        for (let s = queue.shift(); s; s = queue.shift()) await run(s);
      }),
    );
    expect(failures).toEqual([]);
    // Refusals are reasons, not faults; the matrix is about answers, so most scenarios must get one.
    expect([...refused.keys()].every((code) => /^ESTIMATE\.(MODEL_DOES_NOT_FIT|NO_COMPLIANT_OFFER|TOO_LARGE)$/.test(code))).toBe(true);
    expect(answered).toBeGreaterThanOrEqual(150);
  }, 900_000);
});

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
