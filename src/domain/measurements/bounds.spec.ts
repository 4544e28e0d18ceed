// Values a measurement cannot hold: a repeated series (Prometheus answers each label set once) and
// a memory sample larger than any GPU's memory.
import { analyzeMemory } from './analyze.js';
import { MeasurementError, parsePrometheusMatrix } from './series.js';

const answer = (labels: Record<string, string>[]) =>
  JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: labels.map((metric) => ({ metric, values: [[60, '1']] })) } });

describe('a repeated series', () => {
  it('is refused, naming the repeat and the first, whatever the order of its labels', () => {
    const text = answer([
      { gpu: '0', Hostname: 'a' },
      { gpu: '1', Hostname: 'a' },
      { Hostname: 'a', gpu: '0' },
    ]);
    expect(() => parsePrometheusMatrix(text)).toThrow(MeasurementError);
    expect(() => parsePrometheusMatrix(text)).toThrow(
      expect.objectContaining({ field: 'data.result[2]', message: expect.stringContaining('result[0]') as string }),
    );
  });

  it('is not confused with series that differ in one label', () => {
    expect(parsePrometheusMatrix(answer([{ gpu: '0' }, { gpu: '1' }, {}]))).toHaveLength(3);
  });
});

describe('memory used', () => {
  const series = (mib: number) => [{ labels: {}, t: [0, 60], v: [1024, mib] }];

  it('may reach the largest GPU memory and no more: 80 GiB = 81,920 MiB', () => {
    expect(analyzeMemory(series(81_920), 'memoryUsed', 80).maxGib).toBe(80);
    expect(() => analyzeMemory(series(81_921), 'memoryUsed', 80)).toThrow(/81921 MiB is more than the largest GPU holds \(80 GiB = 81920 MiB\)/);
    expect(() => analyzeMemory(series(1e12), 'memoryUsed', 80)).toThrow(MeasurementError);
  });
});
