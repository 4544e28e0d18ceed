// What crosses to an estimate worker: the cost-model input in the decimal wire format, and the
// measurements' texts beside it as plain strings (structured-cloned, a copy; never escaped into
// the JSON, which for megabytes of series would cost the request thread what the worker saves).
import type { EstimateInput } from '../../domain/cost-model/index.js';
import type { MeasurementsInput, MeasurementText } from '../../domain/measurements/index.js';
import { fromWire, toWire } from '../../domain/money/decimal-wire.js';

const TEXT_FIELDS = ['traffic', 'utilization', 'memoryUsed'] as const;

export interface EstimateTask {
  wire: string;
  /** The texts of traffic, utilization and memoryUsed, in that order; null where absent. */
  texts: (string | null)[];
}

export function toTask(input: EstimateInput, measurements?: MeasurementsInput): EstimateTask {
  if (!measurements) return { wire: toWire({ input }), texts: [] };
  const texts = TEXT_FIELDS.map((f) => measurements[f]?.text ?? null);
  const bare = { ...measurements };
  for (const f of TEXT_FIELDS) {
    const m = bare[f];
    if (m) (bare as Record<string, unknown>)[f] = { ...m, text: '' };
  }
  return { wire: toWire({ input, measurements: bare }), texts };
}

export function fromTask(task: EstimateTask): { input: EstimateInput; measurements?: MeasurementsInput } {
  const { input, measurements } = fromWire<{ input: EstimateInput; measurements?: MeasurementsInput }>(task.wire);
  if (!measurements) return { input };
  TEXT_FIELDS.forEach((f, i) => {
    const m: MeasurementText | undefined = measurements[f];
    if (m) m.text = task.texts[i] ?? '';
  });
  return { input, measurements };
}
