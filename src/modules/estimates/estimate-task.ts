// What crosses to an estimate worker: the cost-model inputs (the request's objective and the other
// one) in the decimal wire format, and the measurements' texts beside them as plain strings
// (structured-cloned, a copy; never escaped into the JSON, which for megabytes of series would cost
// the request thread what the worker saves), or, for a text read with its body in a worker
// (estimate-body.ts), its series as Float64Arrays or its refusal.
import type { EstimateInput } from '../../domain/cost-model/index.js';
import type { MeasurementsInput, MeasurementText } from '../../domain/measurements/index.js';
import { fromWire, toWire } from '../../domain/money/decimal-wire.js';
import { seriesOfColumns, type ReadText } from './estimate-body.js';

const TEXT_FIELDS = ['traffic', 'utilization', 'memoryUsed'] as const;

/** The plan to make, and the plan the other objective would choose for the same workload (none: not asked). */
export interface PlanRequest {
  input: EstimateInput;
  other: EstimateInput | null;
}

/** A measurement text read ahead (a MeasurementText's `parsed`), as it crosses: columns or the refusal's parts. */
export type MeasurementTextRead = ReadText['parsed'];

export interface EstimateTask {
  wire: string;
  /** The texts of traffic, utilization and memoryUsed, in that order, or what reading each ahead gave; null where absent. */
  texts: (string | MeasurementTextRead | null)[];
}

/** `read`: the texts read with the body, by token (estimate-bodies.ts), crossing as they came. */
export function toTask({ input, other }: PlanRequest, measurements?: MeasurementsInput, read?: ReadonlyMap<string, ReadText>): EstimateTask {
  if (!measurements) return { wire: toWire({ input, other }), texts: [] };
  const texts = TEXT_FIELDS.map((f) => {
    const m = measurements[f];
    if (!m) return null;
    return read?.get(m.text)?.parsed ?? m.text;
  });
  const bare = { ...measurements };
  for (const f of TEXT_FIELDS) {
    const m = bare[f];
    if (m) (bare as Record<string, unknown>)[f] = { ...m, text: '' };
  }
  return { wire: toWire({ input, other, measurements: bare }), texts };
}

export function fromTask(task: EstimateTask): PlanRequest & { measurements?: MeasurementsInput } {
  const request = fromWire<PlanRequest & { measurements?: MeasurementsInput }>(task.wire);
  const measurements = request.measurements;
  if (!measurements) return request;
  TEXT_FIELDS.forEach((f, i) => {
    const m: MeasurementText | undefined = measurements[f];
    const text = task.texts[i] ?? '';
    if (!m) return;
    if (typeof text === 'string') m.text = text;
    else m.parsed = seriesOfColumns(text);
  });
  return request;
}
