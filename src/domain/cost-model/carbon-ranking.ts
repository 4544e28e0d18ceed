// optimizeFor CARBON (docs/carbon.md): options ranked by their plan's g CO2e per month at the plan's
// utilization, the formula the answer reports (objective.ts), after the latency target and before
// cost. A plan with an offer of unknown carbon weighs that offer at an unreachable figure, so it
// ranks after every plan whose carbon is known.
import { compareEvaluations, type Evaluation } from './right-sizing.js';

export function byCarbonThenCost(a: Evaluation, b: Evaluation): number {
  const latency = Number(b.throughput.meetsLatencyTarget) - Number(a.throughput.meetsLatencyTarget);
  if (latency !== 0) return latency;
  if (a.carbonPerMonth !== b.carbonPerMonth) return a.carbonPerMonth < b.carbonPerMonth ? -1 : 1;
  return compareEvaluations(a, b);
}
