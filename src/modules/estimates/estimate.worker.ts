// Runs in a worker thread of EstimatePool: the pure cost model (with measurements: their parsing
// and analysis too), on input and output in the decimal wire format, so a long computation never
// blocks the event loop that serves requests. One task plans both objectives: the request's, then
// the other one's for the same demand (with measured traffic, the profile the measurements gave).
// The same workers read large bodies (`readBody`, for estimate-bodies.ts).
import { estimateInferenceCost, type EstimateOutcome } from '../../domain/cost-model/index.js';
import { estimateFromMeasurements, type MeasuredOutcome } from '../../domain/measurements/index.js';
import { toWire } from '../../domain/money/decimal-wire.js';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { fromTask, type EstimateTask } from './estimate-task.js';
import { columnBuffers, readEstimateBody, type BodyOutcome, type BodyTask } from './estimate-body.js';
import { readGraphqlBody } from './graphql-body.js';

export interface PlannedEstimate {
  outcome: MeasuredOutcome;
  /** The other objective's plan; null when the request's could not be planned or none was asked. */
  other: EstimateOutcome | null;
}

export default function estimate(task: EstimateTask): string {
  return toWire(planBoth(task));
}

function planBoth(task: EstimateTask): PlannedEstimate {
  const { input, other, measurements } = fromTask(task);
  const outcome: MeasuredOutcome = measurements ? estimateFromMeasurements(input, measurements) : estimateInferenceCost(input);
  if (outcome.kind !== 'OK' || !other) return { outcome, other: null };
  const profile = outcome.measured?.traffic?.profile;
  const workload = profile ? { ...other.workload, hourlyProfile: undefined, requestsPerSecond: undefined, weeklyProfile: profile } : other.workload;
  return { outcome, other: estimateInferenceCost({ ...other, workload }) };
}

/** Tasks of EstimateBodies: a large estimate or GraphQL body read (estimate-body.ts, graphql-body.ts), its columns moved back. */
export function readBody(task: BodyTask): BodyOutcome {
  const outcome = task.graphql ? readGraphqlBody(task, task.graphql.maxTokens) : readEstimateBody(task);
  const buffers = outcome.kind === 'READ' ? columnBuffers(outcome.texts.map(([, text]) => text.parsed)) : [];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: outcome }) as unknown as BodyOutcome;
}
