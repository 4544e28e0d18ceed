// EstimatePool without worker threads, for unit tests: runs the worker's function in-process, on
// the same decimal wire format, or answers a canned outcome. Records what it was asked to run.
import type { EstimateInput, EstimateOutcome } from '../../../domain/cost-model/index.js';
import type { MeasurementsInput } from '../../../domain/measurements/index.js';
import { fromWire } from '../../../domain/money/decimal-wire.js';
import type { EstimatePool } from '../estimate-pool.js';
import type { ParsedTexts } from '../estimate-bodies.js';
import { toTask, type PlanRequest } from '../estimate-task.js';
import estimate, { type PlannedEstimate } from '../estimate.worker.js';

export class InProcessEstimatePool implements Pick<EstimatePool, 'run'> {
  /** The cost-model inputs of the request's objective the service built, in order. */
  readonly inputs: EstimateInput[] = [];
  /** The inputs for the other objective, in order (null where none was asked). */
  readonly others: (EstimateInput | null)[] = [];
  /** When set, answered instead of running the cost model (and no other plan). */
  outcome: EstimateOutcome | null = null;

  /** The measurements the service passed, in order (undefined where none). */
  readonly measurements: (MeasurementsInput | undefined)[] = [];

  async run(request: PlanRequest, measurements?: MeasurementsInput, read?: ParsedTexts): Promise<PlannedEstimate> {
    this.inputs.push(request.input);
    this.others.push(request.other);
    this.measurements.push(measurements);
    if (this.outcome) return { outcome: this.outcome, other: null };
    // Through structured cloning, as to a worker: the columns arrive as copies.
    return fromWire<PlannedEstimate>(estimate(structuredClone(toTask(request, measurements, read))));
  }
}
