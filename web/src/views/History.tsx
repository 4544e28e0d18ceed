// Price history: a GPU's cheapest price per GPU-hour per provider in every published version.
import type { ChartConfiguration } from 'chart.js';
import { useMemo, useState } from 'preact/hooks';
import { useChoices } from '../catalog-data';
import { graphql, request, type ResultOf } from '../graphql';
import { SERIES_COLOURS, SERIES_DASHES } from '../tiers';
import { ChartCanvas, Checks, described, ErrorBox, Field, label, Loading, money, PRICING_MODELS, TableScroll, useRequest } from '../ui';
import { fromParams, toParams } from '../url-state';

const HistoryQuery = graphql(`
  query History($gpu: String!, $currency: Currency, $pricingModels: [PricingModel!]) {
    gpuPriceHistory(gpu: $gpu, currency: $currency, pricingModels: $pricingModels) {
      gpu
      currency
      providers {
        provider
        points {
          catalogVersion {
            id
            label
          }
          publishedAt
          pricePerGpuHour {
            amount
          }
        }
      }
    }
  }
`);
type History = ResultOf<typeof HistoryQuery>['gpuPriceHistory'];

const DEFAULTS = { gpu: 'h100-sxm-80gb', currency: 'USD', pricingModels: ['ON_DEMAND'] as string[] };

/** The versions on the axis, oldest first, and per provider its price in each (null where it had none). */
export function historySeries(h: History): { versions: string[]; series: { provider: string; values: (number | null)[] }[] } {
  const published = new Map<string, string>();
  for (const p of h.providers) for (const point of p.points) published.set(point.catalogVersion.label, point.publishedAt ?? '');
  const versions = [...published.entries()].sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0])).map(([v]) => v);
  const series = h.providers.map((p) => {
    const byVersion = new Map(p.points.map((point) => [point.catalogVersion.label, Number(point.pricePerGpuHour.amount)]));
    return { provider: p.provider, values: versions.map((v) => byVersion.get(v) ?? null) };
  });
  return { versions, series };
}

type HistoryForm = typeof DEFAULTS;
type Shaped = ReturnType<typeof historySeries>;

/** The line chart of the series: a line per provider, a point per version. */
function historyChart(shaped: Shaped, currency: string): ChartConfiguration {
  return {
    type: 'line',
    data: {
      labels: shaped.versions,
      datasets: shaped.series.map((s, i) => ({
        label: s.provider,
        data: s.values,
        borderColor: SERIES_COLOURS[i % SERIES_COLOURS.length],
        backgroundColor: SERIES_COLOURS[i % SERIES_COLOURS.length],
        borderDash: SERIES_DASHES[Math.floor(i / SERIES_COLOURS.length) % SERIES_DASHES.length],
        spanGaps: false,
        pointRadius: 3,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { title: { display: true, text: 'catalog version' } },
        y: { beginAtZero: false, title: { display: true, text: `${currency} per GPU-hour (cheapest)` } },
      },
    },
  };
}

export function HistoryView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const initial = fromParams(props.params, DEFAULTS);
  const [form, setForm] = useState(initial);
  const [applied, setApplied] = useState(initial);
  const choices = useChoices();
  const variables = useMemo(
    () => ({
      gpu: applied.gpu,
      currency: applied.currency as 'USD' | 'EUR',
      ...(applied.pricingModels.length ? { pricingModels: applied.pricingModels as (typeof PRICING_MODELS)[number][] } : {}),
    }),
    [applied],
  );
  const result = useRequest(JSON.stringify(variables), (signal) => request(HistoryQuery, variables, signal));
  const h = result.data?.gpuPriceHistory;
  const shaped = useMemo(() => (h ? historySeries(h) : undefined), [h]);
  const chart = useMemo<ChartConfiguration | undefined>(() => shaped && historyChart(shaped, h?.currency ?? ''), [shaped, h]);
  const err = (...names: string[]) => result.error?.forField(...names) ?? (result.error?.code === 'NOT_FOUND' ? result.error.message : undefined);

  return (
    <section aria-labelledby="history-title">
      <h1 id="history-title">Price history</h1>
      <HistoryFilters
        form={form}
        setForm={setForm}
        gpus={choices.data?.gpus}
        err={err}
        loading={result.loading}
        onSubmit={() => {
          setApplied(form);
          props.onParams(toParams(form, DEFAULTS));
        }}
      />
      <Loading active={result.loading} what="the price history" />
      <ErrorBox error={result.error} shownAtFields />
      {h && shaped && chart && <HistoryResult h={h} shaped={shaped} chart={chart} pricingModels={applied.pricingModels} />}
    </section>
  );
}

/** The GPU, the currency and the pricing models to show. */
function HistoryFilters(props: {
  form: HistoryForm;
  setForm: (form: HistoryForm) => void;
  gpus: readonly { slug: string; name: string }[] | undefined;
  err: (...names: string[]) => string | undefined;
  loading: boolean;
  onSubmit: () => void;
}) {
  const { form, setForm, err } = props;
  return (
    <form
      class="form"
      noValidate
      aria-label="History filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <Field id="hist-gpu" label="GPU" error={err('gpu')}>
        <select {...described('hist-gpu', err('gpu'))} value={form.gpu} onChange={(e) => setForm({ ...form, gpu: e.currentTarget.value })}>
          {!props.gpus && <option value={form.gpu}>{form.gpu}</option>}
          {(props.gpus ?? []).map((g) => (
            <option key={g.slug} value={g.slug}>
              {g.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="hist-currency" label="Currency">
        <select id="hist-currency" value={form.currency} onChange={(e) => setForm({ ...form, currency: e.currentTarget.value })}>
          <option>USD</option>
          <option>EUR</option>
        </select>
      </Field>
      <Checks
        id="hist-pricing"
        legend="Pricing models (none: all)"
        options={PRICING_MODELS.map((m) => ({ value: m, label: label(m) }))}
        value={form.pricingModels}
        onChange={(v) => setForm({ ...form, pricingModels: v })}
        error={err('pricingModels')}
      />
      <div class="actions">
        <button type="submit" disabled={props.loading}>
          Show history
        </button>
      </div>
    </form>
  );
}

/** The history as a chart and, with the same figures, as a table. */
function HistoryResult(props: { h: History; shaped: Shaped; chart: ChartConfiguration; pricingModels: readonly string[] }) {
  const { h, shaped } = props;
  return (
    <div>
      <p class="meta">
        Cheapest {props.pricingModels.length ? props.pricingModels.map(label).join(', ') : 'any pricing model'} price per GPU-hour of {h.gpu} per provider, in{' '}
        {h.currency}, across {shaped.versions.length} published version(s).
      </p>
      <ChartCanvas
        id="history-chart"
        config={props.chart}
        label={`Cheapest price per GPU-hour of ${h.gpu} per provider across catalog versions; figures in the table.`}
      />
      <TableScroll label="Price history">
        <table data-testid="history-table">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              {shaped.versions.map((v) => (
                <th key={v} scope="col">
                  {v}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shaped.series.map((s) => (
              <tr key={s.provider}>
                <th scope="row">{s.provider}</th>
                {s.values.map((v, i) => (
                  <td key={i} class="num">
                    {v === null ? '–' : money(String(v))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
