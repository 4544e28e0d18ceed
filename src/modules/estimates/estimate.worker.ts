// Runs in a worker thread of EstimatePool: the pure cost model, on input and output in the
// decimal wire format, so a long computation never blocks the event loop that serves requests.
import { estimateInferenceCost } from '../../domain/cost-model/index.js';
import { fromWire, toWire } from '../../domain/money/decimal-wire.js';

export default function estimate(input: string): string {
  return toWire(estimateInferenceCost(fromWire(input)));
}
