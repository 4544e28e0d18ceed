// EstimatePool without worker threads, for unit tests: runs the worker's function in-process, on
// the same decimal wire format, or answers a canned outcome. Records what it was asked to run.
import type { EstimateInput, EstimateOutcome } from '../../../domain/cost-model/index.js';
import { fromWire, toWire } from '../../../domain/money/decimal-wire.js';
import type { EstimatePool } from '../estimate-pool.js';
import estimate from '../estimate.worker.js';

export class InProcessEstimatePool implements Pick<EstimatePool, 'run'> {
  /** The cost-model inputs the service built, in order. */
  readonly inputs: EstimateInput[] = [];
  /** When set, answered instead of running the cost model. */
  outcome: EstimateOutcome | null = null;

  async run(input: EstimateInput): Promise<EstimateOutcome> {
    this.inputs.push(input);
    return this.outcome ?? fromWire<EstimateOutcome>(estimate(toWire(input)));
  }
}
