// optimizeFor CARBON (docs/carbon.md): plans ranked by their g CO2e per month at full load (each
// tier's GPU-hours × its offer's g CO2e per GPU-hour, as the caller gives it on the offer), after
// the latency target and before cost. A plan with an offer of unknown carbon ranks after every
// plan whose carbon is known. The answer's own carbon applies the utilization model on top.
import type { EstimateInput } from './estimate.types.js';
import type { PlanCosting } from './plan-costing.js';
import { compareEvaluations, type Evaluation } from './right-sizing.js';

export function byCarbonThenCost(input: EstimateInput, price: (e: Evaluation) => PlanCosting): (a: Evaluation, b: Evaluation) => number {
  const perGpuHour = new Map<string, number>();
  for (const c of input.candidates) for (const o of c.offers) perGpuHour.set(o.ref, o.gCo2ePerGpuHour ?? Infinity);
  const scores = new Map<Evaluation, number>();
  const score = (e: Evaluation): number => {
    let s = scores.get(e);
    if (s === undefined) {
      s = price(e).tiers.reduce((sum, t) => sum + t.gpuHours * (perGpuHour.get(t.offerRef) ?? Infinity), 0);
      scores.set(e, s);
    }
    return s;
  };
  return (a, b) => {
    const latency = Number(b.throughput.meetsLatencyTarget) - Number(a.throughput.meetsLatencyTarget);
    if (latency !== 0) return latency;
    const [sa, sb] = [score(a), score(b)];
    if (sa !== sb) return sa < sb ? -1 : 1;
    return compareEvaluations(a, b);
  };
}
