// The one-sentence explanations of surprising choices: each appears when its choice is made, and its
// figures agree with figures derived by hand or reported elsewhere in the same answer.
import type { Decimal } from '../money/money.js';
import { estimateInferenceCost } from './estimate.js';
import { candidate, estimateInput, GPUS } from './estimate.factories.js';
import type { EstimateOutcome, InferenceEstimate } from './estimate.types.js';
import { at, defined } from '../checked.js';

function ok(outcome: EstimateOutcome): InferenceEstimate {
  if (outcome.kind !== 'OK') throw new Error(`expected an estimate, got ${JSON.stringify(outcome)}`);
  return outcome.estimate;
}

describe('explanations', () => {
  it('explains a mostly serverless plan by the dedicated utilization it avoids and the break-even', () => {
    // 0.1 requests/s on replicas that serve 1 at 50% utilization: 1 replica every hour, busy 0.1 of it.
    // Dedicated on demand 2.00 per replica-hour, serverless 4.00 per busy hour: break-even at 2 / 4 = 50%.
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { requestsPerSecond: 0.1, avgInputTokens: 500, avgOutputTokens: 200, targetUtilization: 0.5 },
          measuredThroughput: [{ requestsPerSecond: 1 }],
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '2.00', SERVERLESS: '4.00' })],
        }),
      ),
    );
    expect(e.tiers.map((t) => t.pricingModel)).toEqual(['SERVERLESS']);
    expect(e.explanations).toEqual([
      '100% of the GPU-hours are serverless because it bills busy time only: without it, the dedicated replicas would be busy 10% ' +
        'of the hours they are paid for, below the 50% at which a dedicated replica costs what serverless does.',
    ]);
  });

  it('explains a mostly spot plan by its price against on-demand', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          tolerance: 'TOLERANT',
          workload: { requestsPerSecond: 2, avgInputTokens: 500, avgOutputTokens: 200 },
          measuredThroughput: [{ requestsPerSecond: 1 }],
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.00', SPOT: '1.00' })],
        }),
      ),
    );
    expect(e.tiers.map((t) => t.pricingModel)).toEqual(['SPOT']);
    const sentence = defined(
      e.explanations.find((x) => x.includes('spot')),
      'the spot sentence',
    );
    const m = defined(
      /^100% of the GPU-hours are spot .*: spot at ([\d.]+) USD per GPU-hour .* is (\d+)% below on-demand \(3\.0000 USD\)\.$/.exec(sentence),
      sentence,
    );
    // The interruption overhead only adds: the effective price is at least the list price, and small next to it.
    const effective = Number(m[1]);
    expect(effective).toBeGreaterThanOrEqual(1);
    expect(effective).toBeLessThan(1.1);
    expect(Number(m[2])).toBe(Math.round((1 - effective / 3) * 100));
  });

  it('explains a GPU twice the size the model needs by the cost per token of the smaller one, as its alternative reports it', () => {
    // 20 requests/s × 200 output tokens for 730 h: 10,512 million output tokens a month.
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { requestsPerSecond: 20, avgInputTokens: 500, avgOutputTokens: 200 },
          candidates: [candidate(GPUS.l4, { ON_DEMAND: '0.80' }), candidate(GPUS.h100, { ON_DEMAND: '2.00' })],
        }),
      ),
    );
    expect(e.gpu.slug).toBe('h100-sxm-80gb');
    const sentence = at(e.explanations, 0);
    const m = defined(
      /^h100-sxm-80gb \(80 GB per replica\) is chosen although l4-24gb \(24 GB\) fits Llama-3-8B: .*, ([\d.]+) USD per 1M output tokens against ([\d.]+) USD on the best plan of l4-24gb\.$/.exec(
        sentence,
      ),
      sentence,
    );
    const l4 = defined(
      e.alternatives.find((a) => a.gpu === 'l4-24gb'),
      'the L4 alternative',
    );
    const perMillion = (monthly: Decimal) => monthly.div(10_512).toFixed(4);
    expect(m[1]).toBe(perMillion(e.monthlyCost.amount));
    expect(m[2]).toBe(perMillion(l4.monthlyCost.amount));
    expect(Number(m[1])).toBeLessThan(Number(m[2]));
  });

  it('explains nothing unsurprising: a right-sized on-demand plan', () => {
    const e = ok(estimateInferenceCost(estimateInput({ candidates: [candidate(GPUS.l4, { ON_DEMAND: '0.80' })] })));
    expect(e.explanations).toEqual([]);
  });
});
