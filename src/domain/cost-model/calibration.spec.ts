import { TENSOR_PARALLEL_DEGREES } from '../sizing/fit.js';
import { MODEL_PRESETS } from '../sizing/model-presets.js';
import { CALIBRATION_POINTS, type CalibrationPoint } from './calibration-points.js';
import { estimateReplicaThroughput } from './throughput.js';
import { defined } from '../checked.js';

/** What the roofline predicts for a point, in the unit the point was measured in. */
function predict(point: CalibrationPoint): number {
  const model = defined(MODEL_PRESETS[point.modelSlug], `model preset ${point.modelSlug}`);
  const degrees = point.tensorParallel ? [point.tensorParallel] : [...TENSOR_PARALLEL_DEGREES];
  let best = 0;
  for (const t of degrees) {
    const r = estimateReplicaThroughput({
      model,
      precision: point.precision,
      gpu: point.gpu,
      tensorParallel: t,
      avgInputTokens: point.avgInputTokens,
      avgOutputTokens: point.avgOutputTokens,
      interTokenLatencyMs: point.interTokenLatencyMs,
      maxBatch: point.maxBatch,
      batch: point.batch,
    });
    if (!r) continue;
    if ('stepTimeMs' in point.measured) return defined(r.stepTimeMs, 'an estimated step time');
    best = Math.max(best, r.outputTokensPerSecond / t);
  }
  return best;
}

describe('roofline calibration', () => {
  it.each(CALIBRATION_POINTS.map((p) => [p.source, p] as const))('reproduces %s within ±35%%', (_, point) => {
    const measured = 'stepTimeMs' in point.measured ? point.measured.stepTimeMs : point.measured.outputTokensPerSecondPerGpu;
    const predicted = predict(point);
    const ratio = predicted / measured;
    if (process.env.CALIBRATION_REPORT) console.log(`${(ratio * 100 - 100).toFixed(1)}%  ${point.source}`);
    expect(ratio).toBeGreaterThanOrEqual(0.65);
    expect(ratio).toBeLessThanOrEqual(1.35);
  });
});
