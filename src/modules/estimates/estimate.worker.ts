// Runs in a worker thread of EstimatePool: the pure cost model (with measurements: their parsing
// and analysis too), on input and output in the decimal wire format, so a long computation never
// blocks the event loop that serves requests.
import { estimateInferenceCost } from '../../domain/cost-model/index.js';
import { estimateFromMeasurements } from '../../domain/measurements/index.js';
import { toWire } from '../../domain/money/decimal-wire.js';
import { fromTask, type EstimateTask } from './estimate-task.js';

export default function estimate(task: EstimateTask): string {
  const { input, measurements } = fromTask(task);
  return toWire(measurements ? estimateFromMeasurements(input, measurements) : estimateInferenceCost(input));
}
