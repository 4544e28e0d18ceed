// EstimatePool without worker threads, for unit tests: runs the worker's function in-process, on
// the same decimal wire format, or answers a canned outcome. Records what it was asked to run.
import type { EstimateInput, EstimateOutcome } from '../../../domain/cost-model/index.js';
import type { MeasuredOutcome, MeasurementsInput } from '../../../domain/measurements/index.js';
import { fromWire } from '../../../domain/money/decimal-wire.js';
import type { EstimatePool } from '../estimate-pool.js';
import { toTask } from '../estimate-task.js';
import estimate from '../estimate.worker.js';

export class InProcessEstimatePool implements Pick<EstimatePool, 'run'> {
  /** The cost-model inputs the service built, in order. */
  readonly inputs: EstimateInput[] = [];
  /** When set, answered instead of running the cost model. */
  outcome: EstimateOutcome | null = null;

  /** The measurements the service passed, in order (undefined where none). */
  readonly measurements: (MeasurementsInput | undefined)[] = [];

  async run(input: EstimateInput, measurements?: MeasurementsInput): Promise<MeasuredOutcome> {
    this.inputs.push(input);
    this.measurements.push(measurements);
    return this.outcome ?? fromWire<MeasuredOutcome>(estimate(toTask(input, measurements)));
  }
}
