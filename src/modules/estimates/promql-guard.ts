// What a query against PROMETHEUS_URL may read (docs/measurements.md#queries-run-by-the-service):
// only metrics named in PROMETHEUS_METRICS, each selected by its name. The query is parsed with
// Prometheus' own grammar (@prometheus-io/lezer-promql), so functions, operators and label
// matchers stay free, while a selector without a name, a match on __name__ or any other metric
// is refused before Prometheus is asked.
import { parser } from '@prometheus-io/lezer-promql';
import { badInput } from '../../common/errors/app-error.js';

/** The metric names the query selects; throws a 400 naming `field` for anything else. */
export function checkPromql(promql: string, allowed: readonly string[], field: string): string[] {
  const refuse = (message: string) => badInput('REQUEST.INVALID', [{ field, message }]);
  const cursor = parser.parse(promql).cursor();
  const metrics = new Set<string>();
  do {
    if (cursor.type.isError) throw refuse(`is not valid PromQL (at character ${cursor.from + 1})`);
    const text = promql.slice(cursor.from, cursor.to);
    if (cursor.name === 'VectorSelector') {
      const name = cursor.node.getChild('Identifier');
      if (!name) throw refuse(`selects series without a metric name (${text.slice(0, 80)}): name the metric, such as DCGM_FI_DEV_GPU_UTIL{…}`);
      metrics.add(promql.slice(name.from, name.to));
    }
    if ((cursor.name === 'LabelName' || cursor.name === 'QuotedLabelName') && text.replace(/^["'`]|["'`]$/g, '') === '__name__') {
      throw refuse('matches on __name__: name the metric instead');
    }
  } while (cursor.next());
  const outside = [...metrics].filter((m) => !allowed.includes(m));
  if (outside.length > 0) {
    throw refuse(`reads ${outside.join(', ')}, which this service does not query; it reads ${allowed.join(', ')} (PROMETHEUS_METRICS)`);
  }
  return [...metrics];
}
