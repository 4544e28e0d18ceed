// The estimate planner: a workload in, the plan out as pictures (the hours of the average day or
// week by tier against demand, the month by tier, the plan against its baselines) and as text
// (unit economics, alternatives, why the plan looks as it does, assumptions, warnings, the chosen
// offers with where their prices come from). The form lives in the URL, with the
// catalog version the answer used, so a link reproduces the plan.
import type { ChartConfiguration } from 'chart.js';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useChoices } from '../catalog-data';
import { graphql, request, type ResultOf, type VariablesOf } from '../graphql';
import { hourLabel, PERIOD_HOURS, PERIODS, PROFILE_PRESETS, profileOf, WEEKDAYS, type Period, type ProfilePreset } from '../profiles';
import { TIER_COLOURS, tierOf } from '../tiers';
import {
  ChartCanvas,
  Checks,
  described,
  DiscountsEditor,
  ErrorBox,
  Field,
  flag,
  label,
  Loading,
  money,
  PRESETS,
  sourceKindLabel,
  availabilityLabel,
  RowsEditor,
  TableScroll,
  useRequest,
} from '../ui';
import { discountInput, ESTIMATE_DEFAULTS, type EstimateForm, measuredInput, measuredItems, measuredRows } from '../forms';
import { fromParams, toParams } from '../url-state';

export { ESTIMATE_DEFAULTS, type EstimateForm };

const EstimateQuery = graphql(`
  query Estimate($input: EstimateInput!) {
    estimate(input: $input) {
      catalogVersion {
        id
        label
      }
      gpu
      precision
      gpusPerReplica
      reservedInstances
      model {
        name
      }
      monthlyCost {
        amount
        currency
      }
      periodHours
      exchangeRate {
        base
        currency
        rate
        date
        source
      }
      explanations
      savingsVsNaivePct
      savingsVsOnDemandAutoscaledPct
      tiers {
        pricingModel
        provider
        region
        cost {
          amount
        }
        gpuHours
        instanceHours
        capacityShare
      }
      baselines {
        naive {
          description
          monthlyCost {
            amount
          }
        }
        onDemandAutoscaled {
          description
          monthlyCost {
            amount
          }
        }
        unavailableReason
      }
      unitEconomics {
        averageUtilization
        costPer1MOutputTokens {
          amount
        }
        costPer1kRequests {
          amount
        }
        effectivePricePerGpuHour {
          amount
        }
      }
      alternatives {
        gpu
        precision
        gpusPerReplica
        monthlyCost {
          amount
        }
        deltaVsChosenPct
        summary
      }
      apiComparison {
        apiPricePer1MTokens {
          amount
        }
        monthlyApiCost {
          amount
        }
        tokensPerDay
        breakEvenTokensPerDay
        selfHostingCheaper
      }
      assumptions
      warnings
      chosenOffers {
        pricingModel
        provider
        region
        country
        instanceType
        gpusPerInstance
        replicasPerInstance
        pricePerInstanceHour {
          amount
        }
        priceKind
        sourceKind
        availability
        observedAt
        source
        interruptionsPerHour
        interruptionBasis
        interruptionRate
      }
      hourlyPlan {
        hour
        demandRequestsPerSecond
        replicasNeeded
        reservedInstances
        onDemandInstances
        spotInstances
        serverlessReplicaHours
        batchReplicaHours
      }
    }
  }
`);
export type EstimateResult = ResultOf<typeof EstimateQuery>['estimate'];
type Input = VariablesOf<typeof EstimateQuery>['input'];
type Precision = NonNullable<Input['precisions']>[number];

const MODEL_PRESETS = ['llama-3-8b', 'llama-3-70b', 'llama-2-7b', 'llama-2-13b', 'llama-2-70b', 'mistral-7b', 'mixtral-8x7b', 'gpt-j-6b'];
const PRECISIONS: Precision[] = ['BF16', 'FP16', 'FP8', 'INT8', 'INT4', 'FP32'];

export function estimateInput(f: EstimateForm): Input {
  const discounts = discountInput(f.discounts).value;
  const measured = measuredInput(f.measured).value as NonNullable<Input['measuredThroughput']>;
  return {
    model: f.model === 'custom' ? { parametersB: Number(f.params) } : { preset: f.model },
    ...(f.precisions.length ? { precisions: f.precisions as Precision[] } : {}),
    workload: {
      avgInputTokens: Number(f.input),
      avgOutputTokens: Number(f.output),
      batchShare: Number(f.batch),
      ...(f.profile.length === PERIOD_HOURS.week ? { weeklyProfile: f.profile } : { hourlyProfile: f.profile }),
    },
    policy: { tolerance: f.tolerance as 'INTOLERANT' | 'RECOVERABLE' | 'TOLERANT', ...(f.preset ? { preset: f.preset } : {}) },
    ...(f.gpus.length ? { gpus: f.gpus } : {}),
    currency: f.currency as 'USD' | 'EUR',
    ...(discounts.length ? { discounts } : {}),
    ...(f.apiPrice.trim() ? { apiPricePer1MTokens: f.apiPrice.trim() } : {}),
    ...(measured.length ? { measuredThroughput: measured } : {}),
    ...(f.version ? { version: f.version } : {}),
  };
}

/** What the form cannot send as typed (a discount without provider or percent, a rate that is not a number), by field. */
function localErrors(f: EstimateForm) {
  return [...discountInput(f.discounts).errors, ...measuredInput(f.measured).errors];
}

/** Replicas per hour by tier: instances × the replicas one instance of that tier's offer holds; serverless and batch are replica-hours. */
export function hourlyReplicas(e: EstimateResult) {
  const perInstance = (tier: string) => e.chosenOffers.find((o) => tierOf(o.pricingModel) === tier)?.replicasPerInstance ?? 1;
  return {
    reserved: e.hourlyPlan.map((h) => h.reservedInstances * perInstance('RESERVED')),
    onDemand: e.hourlyPlan.map((h) => h.onDemandInstances * perInstance('ON_DEMAND')),
    spot: e.hourlyPlan.map((h) => h.spotInstances * perInstance('SPOT')),
    serverless: e.hourlyPlan.map((h) => h.serverlessReplicaHours),
    batch: e.hourlyPlan.map((h) => h.batchReplicaHours),
    demand: e.hourlyPlan.map((h) => h.replicasNeeded),
  };
}

export function EstimateView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const initial = fromParams(props.params, ESTIMATE_DEFAULTS);
  const [form, setForm] = useState<EstimateForm>(initial);
  const [applied, setApplied] = useState<EstimateForm>(initial);
  const choices = useChoices();
  const input = useMemo(() => estimateInput(applied), [applied]);
  const [local, setLocal] = useState(() => localErrors(initial));
  const result = useRequest(local.length ? null : JSON.stringify(input), (signal) => request(EstimateQuery, { input }, signal));
  const set = <K extends keyof EstimateForm>(key: K, value: EstimateForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const err = (...names: string[]) => {
    const mine = local.filter((x) => names.includes(x.field)).map((x) => x.message);
    return mine.length ? mine.join('; ') : result.error?.forField(...names);
  };
  const e = result.data?.estimate;

  // The answer names its catalog version; the URL then pins it, so the link reproduces this plan.
  useEffect(() => {
    if (!e || applied.version) return;
    const pinned = { ...applied, version: e.catalogVersion.label };
    setForm((f) => ({ ...f, version: e.catalogVersion.label }));
    props.onParams(toParams(pinned, ESTIMATE_DEFAULTS));
  }, [e]);

  const submit = (ev: Event) => {
    ev.preventDefault();
    setLocal(localErrors(form));
    setApplied(form);
    props.onParams(toParams(form, ESTIMATE_DEFAULTS));
  };
  const profileError = err('workload.hourlyProfile', 'workload.weeklyProfile');
  const period: Period = form.profile.length === PERIOD_HOURS.week ? 'week' : 'day';
  const fill = (changes: Partial<EstimateForm>) =>
    setForm((f) => {
      const next = { ...f, ...changes };
      return { ...next, profile: profileOf(next.shape as ProfilePreset, Number(next.peak) || 0, next.period as Period) };
    });

  return (
    <section aria-labelledby="estimate-title">
      <h1 id="estimate-title">Estimate planner</h1>
      <form class="form" onSubmit={submit} noValidate aria-label="Workload">
        <Field id="est-model" label="Model" error={err('model.preset', 'model')}>
          <select {...described('est-model', err('model.preset', 'model'))} value={form.model} onChange={(ev) => set('model', ev.currentTarget.value)}>
            {MODEL_PRESETS.map((m) => (
              <option key={m}>{m}</option>
            ))}
            <option value="custom">custom (parameters)</option>
          </select>
        </Field>
        {form.model === 'custom' && (
          <Field id="est-params" label="Parameters (billions)" error={err('model.parametersB')}>
            <input
              {...described('est-params', err('model.parametersB'))}
              type="number"
              step="any"
              value={form.params}
              onInput={(ev) => set('params', ev.currentTarget.value)}
            />
          </Field>
        )}
        <Field id="est-input" label="Input tokens per request" error={err('workload.avgInputTokens')}>
          <input
            {...described('est-input', err('workload.avgInputTokens'))}
            type="number"
            value={form.input}
            onInput={(ev) => set('input', ev.currentTarget.value)}
          />
        </Field>
        <Field id="est-output" label="Output tokens per request" error={err('workload.avgOutputTokens')}>
          <input
            {...described('est-output', err('workload.avgOutputTokens'))}
            type="number"
            value={form.output}
            onInput={(ev) => set('output', ev.currentTarget.value)}
          />
        </Field>
        <Field id="est-batch" label="Batch share (0 to <1)" error={err('workload.batchShare')}>
          <input
            {...described('est-batch', err('workload.batchShare'))}
            type="number"
            step="any"
            value={form.batch}
            onInput={(ev) => set('batch', ev.currentTarget.value)}
          />
        </Field>
        <Field id="est-tolerance" label="Interruption tolerance" error={err('policy.tolerance')}>
          <select {...described('est-tolerance', err('policy.tolerance'))} value={form.tolerance} onChange={(ev) => set('tolerance', ev.currentTarget.value)}>
            <option value="INTOLERANT">Intolerant (no spot)</option>
            <option value="RECOVERABLE">Recoverable</option>
            <option value="TOLERANT">Tolerant</option>
          </select>
        </Field>
        <Field id="est-preset" label="Policy preset" error={err('policy.preset', 'preset')}>
          <select {...described('est-preset', err('policy.preset', 'preset'))} value={form.preset} onChange={(ev) => set('preset', ev.currentTarget.value)}>
            <option value="">None</option>
            {PRESETS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="est-currency" label="Currency">
          <select id="est-currency" value={form.currency} onChange={(ev) => set('currency', ev.currentTarget.value)}>
            <option>USD</option>
            <option>EUR</option>
          </select>
        </Field>
        <Field id="est-api-price" label="Hosted API price per 1M tokens" error={err('apiPricePer1MTokens')} hint="to compare with, in the currency above">
          <input
            {...described('est-api-price', err('apiPricePer1MTokens'), true)}
            inputMode="decimal"
            value={form.apiPrice}
            onInput={(ev) => set('apiPrice', ev.currentTarget.value)}
          />
        </Field>
        <Field id="est-version" label="Catalog version" error={err('version')}>
          <select {...described('est-version', err('version'))} value={form.version} onChange={(ev) => set('version', ev.currentTarget.value)}>
            <option value="">current</option>
            {form.version && !choices.data?.catalogVersions.some((v) => v.label === form.version) && <option value={form.version}>{form.version}</option>}
            {(choices.data?.catalogVersions ?? []).map((v) => (
              <option key={v.id} value={v.label}>
                {v.label}
                {v.current ? ' (current)' : ''}
              </option>
            ))}
          </select>
        </Field>
        <Checks
          id="est-precisions"
          legend="Precisions (none: the model's)"
          options={PRECISIONS.map((p) => ({ value: p, label: p }))}
          value={form.precisions}
          onChange={(v) => set('precisions', v)}
          error={err('precisions')}
        />
        <Checks
          id="est-gpus"
          legend="GPU shortlist (none: all)"
          options={(choices.data?.gpus ?? []).map((g) => ({ value: g.slug, label: g.name }))}
          value={form.gpus}
          onChange={(v) => set('gpus', v)}
          error={err('gpus')}
        />
        <DiscountsEditor
          id="est-discounts"
          providers={choices.data?.providers ?? []}
          items={form.discounts}
          onChange={(items) => set('discounts', items)}
          err={err}
        />
        <RowsEditor
          id="est-measured"
          legend="Measured throughput of one replica (replaces the estimate from the GPU's specs)"
          what="measurement"
          list="measuredThroughput"
          hint="Give output tokens/s or requests/s; leave GPU or precision empty for every one."
          columns={[
            {
              key: 'gpu',
              label: 'GPU',
              field: 'gpu',
              options: [{ value: '', label: 'every GPU' }, ...(choices.data?.gpus ?? []).map((g) => ({ value: g.slug, label: g.name }))],
            },
            {
              key: 'precision',
              label: 'Precision',
              field: 'precision',
              options: [{ value: '', label: 'every precision' }, ...PRECISIONS.map((p) => ({ value: p, label: p }))],
            },
            { key: 'tokens', label: 'Output tokens/s', field: 'outputTokensPerSecond', type: 'number' },
            { key: 'requests', label: 'Requests/s', field: 'requestsPerSecond', type: 'number' },
          ]}
          rows={measuredRows(form.measured)}
          onChange={(rows) => set('measured', measuredItems(rows))}
          err={err}
        />
        <fieldset class="field profile wide" aria-describedby={profileError ? 'est-profile-error' : undefined}>
          <legend>Requests per second, hour by hour (an average {period})</legend>
          <div class="profile-tools">
            <label for="est-period">Period</label>
            <select id="est-period" value={form.period} onChange={(ev) => fill({ period: ev.currentTarget.value })}>
              {PERIODS.map((p) => (
                <option key={p} value={p}>
                  {p === 'day' ? 'day (24 h)' : 'week (168 h)'}
                </option>
              ))}
            </select>
            <label for="est-shape">Shape</label>
            <select id="est-shape" value={form.shape} onChange={(ev) => set('shape', ev.currentTarget.value)}>
              {PROFILE_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {p === 'business' ? 'business hours' : p}
                </option>
              ))}
            </select>
            <label for="est-peak">Peak requests/s</label>
            <input id="est-peak" type="number" step="any" value={form.peak} onInput={(ev) => set('peak', ev.currentTarget.value)} />
            <button type="button" onClick={() => fill({})}>
              Fill the {form.profile.length === PERIOD_HOURS.week ? 168 : 24} hours
            </button>
          </div>
          {(period === 'week' ? WEEKDAYS.map((day, d) => ({ day, from: d * 24 })) : [{ day: null, from: 0 }]).map(({ day, from }) => (
            <div class="profile-grid" key={from} role={day ? 'group' : undefined} aria-label={day ?? undefined}>
              {form.profile.slice(from, from + 24).map((v, i) => {
                const hour = from + i;
                return (
                  <label key={hour} class="hour">
                    <span>{hourLabel(hour, form.profile.length)}</span>
                    <input
                      type="number"
                      step="any"
                      min="0"
                      value={v}
                      aria-label={`Requests per second ${day ? `on ${day} ` : ''}at ${i}:00`}
                      onInput={(ev) => {
                        const value = Number(ev.currentTarget.value);
                        setForm((f) => ({ ...f, profile: f.profile.map((x, j) => (j === hour ? value : x)) }));
                      }}
                    />
                  </label>
                );
              })}
            </div>
          ))}
          {profileError && (
            <small id="est-profile-error" class="error" role="alert" data-field-error="est-profile">
              {profileError}
            </small>
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" disabled={result.loading}>
            Estimate
          </button>
        </div>
      </form>
      <Loading active={result.loading} what="the estimate" />
      <ErrorBox error={result.error} shownAtFields={!!result.error?.fields.length} />
      {e && <Plan e={e} />}
    </section>
  );
}

function Plan({ e }: { e: EstimateResult }) {
  const currency = e.monthlyCost.currency;
  const hourly = useMemo(() => hourlyReplicas(e), [e]);
  const hourlyChart = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: e.hourlyPlan.map((h) => hourLabel(h.hour, e.periodHours)),
        datasets: [
          {
            type: 'line',
            label: 'Demand (replicas needed)',
            data: hourly.demand,
            borderColor: TIER_COLOURS.DEMAND,
            backgroundColor: TIER_COLOURS.DEMAND,
            stepped: 'middle',
            borderWidth: 2,
            pointRadius: 0,
            order: 0,
          },
          { label: 'Reserved', data: hourly.reserved, backgroundColor: TIER_COLOURS.RESERVED, stack: 'plan', order: 1 },
          { label: 'On-demand', data: hourly.onDemand, backgroundColor: TIER_COLOURS.ON_DEMAND, stack: 'plan', order: 1 },
          { label: 'Spot', data: hourly.spot, backgroundColor: TIER_COLOURS.SPOT, stack: 'plan', order: 1 },
          { label: 'Serverless', data: hourly.serverless, backgroundColor: TIER_COLOURS.SERVERLESS, stack: 'plan', order: 1 },
          { label: 'Batch', data: hourly.batch, backgroundColor: TIER_COLOURS.BATCH, borderColor: '#1f2328', borderWidth: 1, stack: 'plan', order: 1 },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'replicas (average in the hour)' } } },
      },
    }),
    [e, hourly],
  );
  const tierChart = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: ['This plan', 'On-demand autoscaled', 'Naive (peak, on-demand)'],
        datasets: [
          ...e.tiers.map((t) => ({
            label: label(t.pricingModel),
            data: [Number(t.cost.amount), 0, 0],
            backgroundColor: TIER_COLOURS[tierOf(t.pricingModel)],
            stack: 'cost',
          })),
          {
            label: 'baseline (on-demand)',
            data: [0, Number(e.baselines.onDemandAutoscaled?.monthlyCost.amount ?? 0), Number(e.baselines.naive?.monthlyCost.amount ?? 0)],
            backgroundColor: '#8c959f',
            stack: 'cost',
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        indexAxis: 'y',
        scales: { x: { stacked: true, beginAtZero: true, title: { display: true, text: `${currency} per month` } }, y: { stacked: true } },
      },
    }),
    [e, currency],
  );

  return (
    <div class="plan" data-testid="plan">
      <p class="headline">
        <span class="big" data-testid="monthly-cost">
          {money(e.monthlyCost.amount)}
        </span>{' '}
        {currency} a month: {e.model.name} at {e.precision} on {e.gpusPerReplica} × {e.gpu} per replica, {e.reservedInstances} reserved instance(s). Catalog
        version <strong data-testid="plan-version">{e.catalogVersion.label}</strong>.
        {e.exchangeRate && (
          <span data-testid="exchange-rate">
            {' '}
            Prices converted at 1 {e.exchangeRate.base} = {e.exchangeRate.rate} {e.exchangeRate.currency} ({e.exchangeRate.source}, {e.exchangeRate.date}).
          </span>
        )}
      </p>
      {e.explanations.length > 0 && (
        <section aria-labelledby="why-title">
          <h2 id="why-title">Why this plan</h2>
          <ul data-testid="explanations">
            {e.explanations.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        </section>
      )}
      <h2>The average {e.periodHours > 24 ? 'week' : 'day'} by tier</h2>
      <ChartCanvas
        id="hourly-chart"
        config={hourlyChart}
        label="Replicas per hour by tier, stacked, against the replicas demand needs; the figures are in the hourly table below."
      />
      <details>
        <summary>Hourly plan as a table</summary>
        <TableScroll label="Hourly plan">
          <table data-testid="hourly-table">
            <thead>
              <tr>
                <th scope="col">{e.periodHours > 24 ? 'Day and hour' : 'Hour'}</th>
                <th scope="col">Demand (req/s)</th>
                <th scope="col">Replicas needed</th>
                <th scope="col">Reserved inst.</th>
                <th scope="col">On-demand inst.</th>
                <th scope="col">Spot inst.</th>
                <th scope="col">Serverless replica-h</th>
                <th scope="col">Batch replica-h</th>
              </tr>
            </thead>
            <tbody>
              {e.hourlyPlan.map((h) => (
                <tr key={h.hour}>
                  <td>{e.periodHours > 24 ? hourLabel(h.hour, e.periodHours) : h.hour}</td>
                  <td class="num">{h.demandRequestsPerSecond}</td>
                  <td class="num">{h.replicasNeeded}</td>
                  <td class="num">{h.reservedInstances}</td>
                  <td class="num">{h.onDemandInstances}</td>
                  <td class="num">{h.spotInstances}</td>
                  <td class="num">{h.serverlessReplicaHours}</td>
                  <td class="num">{h.batchReplicaHours}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
      <div class="cols">
        <section aria-labelledby="month-title">
          <h2 id="month-title">The month by tier, against the baselines</h2>
          <ChartCanvas
            id="tier-chart"
            height={220}
            config={tierChart}
            label="Monthly cost of this plan by tier, next to on-demand autoscaled and naive; the figures are in the table."
          />
          <TableScroll label="Monthly cost by tier">
            <table data-testid="tier-table">
              <thead>
                <tr>
                  <th scope="col">Tier</th>
                  <th scope="col">Bought from</th>
                  <th scope="col">Cost ({currency})</th>
                  <th scope="col">GPU-hours</th>
                  <th scope="col">Share of capacity</th>
                </tr>
              </thead>
              <tbody>
                {e.tiers.map((t) => (
                  <tr key={t.pricingModel} data-tier={t.pricingModel}>
                    <th scope="row">
                      <span class="swatch" data-colour={tierOf(t.pricingModel)} aria-hidden="true" /> {label(t.pricingModel)}
                    </th>
                    <td>
                      {t.provider}, {t.region}
                    </td>
                    <td class="num" data-testid={`tier-cost-${t.pricingModel}`}>
                      {money(t.cost.amount)}
                    </td>
                    <td class="num">{t.gpuHours}</td>
                    <td class="num">{(t.capacityShare * 100).toFixed(1)} %</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <table class="compare" data-testid="baselines">
            <tbody>
              <tr>
                <th scope="row">This plan</th>
                <td class="num" data-testid="baseline-plan">
                  {money(e.monthlyCost.amount)}
                </td>
                <td />
              </tr>
              <tr>
                <th scope="row" title={e.baselines.onDemandAutoscaled?.description}>
                  On-demand autoscaled
                </th>
                <td class="num" data-testid="baseline-autoscaled">
                  {e.baselines.onDemandAutoscaled ? money(e.baselines.onDemandAutoscaled.monthlyCost.amount) : 'not priced'}
                </td>
                <td data-testid="savings-autoscaled">{e.savingsVsOnDemandAutoscaledPct === null ? '' : `saves ${e.savingsVsOnDemandAutoscaledPct} %`}</td>
              </tr>
              <tr>
                <th scope="row" title={e.baselines.naive?.description}>
                  Naive
                </th>
                <td class="num" data-testid="baseline-naive">
                  {e.baselines.naive ? money(e.baselines.naive.monthlyCost.amount) : 'not priced'}
                </td>
                <td data-testid="savings-naive">{e.savingsVsNaivePct === null ? '' : `saves ${e.savingsVsNaivePct} %`}</td>
              </tr>
              {e.baselines.unavailableReason && (
                <tr>
                  <td colSpan={3} data-testid="baselines-unavailable">
                    {e.baselines.unavailableReason}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="unit-title">
          <h2 id="unit-title">Unit economics</h2>
          <dl class="facts" data-testid="unit-economics">
            <dt>Per 1M output tokens</dt>
            <dd data-testid="unit-1m">{money(e.unitEconomics.costPer1MOutputTokens?.amount, currency)}</dd>
            <dt>Per 1,000 requests</dt>
            <dd data-testid="unit-1k">{money(e.unitEconomics.costPer1kRequests?.amount, currency)}</dd>
            <dt>Effective price per GPU-hour</dt>
            <dd data-testid="unit-gpuh">{money(e.unitEconomics.effectivePricePerGpuHour?.amount, currency)}</dd>
            <dt>Average utilisation</dt>
            <dd>{(e.unitEconomics.averageUtilization * 100).toFixed(1)} %</dd>
          </dl>
          {e.apiComparison && (
            <>
              <h2 id="api-title">Against a hosted API</h2>
              <dl class="facts" data-testid="api-comparison" aria-labelledby="api-title">
                <dt>API price</dt>
                <dd>{money(e.apiComparison.apiPricePer1MTokens.amount, currency)} per 1M tokens</dd>
                <dt>API cost a month</dt>
                <dd data-testid="api-monthly">{money(e.apiComparison.monthlyApiCost.amount, currency)}</dd>
                <dt>Tokens per day</dt>
                <dd>{e.apiComparison.tokensPerDay.toLocaleString('en-US')}</dd>
                <dt>Break-even tokens/day</dt>
                <dd>{e.apiComparison.breakEvenTokensPerDay.toLocaleString('en-US')}</dd>
                <dt>Cheaper</dt>
                <dd data-testid="api-cheaper">{e.apiComparison.selfHostingCheaper ? 'this plan' : 'the hosted API'}</dd>
              </dl>
            </>
          )}
          <h2>Alternatives</h2>
          {e.alternatives.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul data-testid="alternatives">
              {e.alternatives.map((a) => (
                <li key={`${a.gpu}-${a.precision}-${a.gpusPerReplica}`}>
                  {a.gpusPerReplica} × {a.gpu} at {a.precision}: {money(a.monthlyCost.amount, currency)} a month ({a.deltaVsChosenPct >= 0 ? '+' : ''}
                  {a.deltaVsChosenPct} %)
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <h2>Chosen offers</h2>
      <TableScroll label="Chosen offers">
        <table data-testid="chosen-offers">
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Provider</th>
              <th scope="col">Region</th>
              <th scope="col">Instance</th>
              <th scope="col">GPUs</th>
              <th scope="col">Replicas per instance</th>
              <th scope="col">Price per instance-hour</th>
              <th scope="col">Spot interruptions per hour</th>
              <th scope="col">Observed</th>
              <th scope="col">Availability</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {e.chosenOffers.map((o) => (
              <tr key={`${o.pricingModel}-${o.provider}-${o.instanceType}-${o.region}`}>
                <td>{label(o.pricingModel)}</td>
                <td>{o.provider}</td>
                <td>
                  {o.region} <span aria-hidden="true">{flag(o.country)}</span> {o.country}
                </td>
                <td>{o.instanceType}</td>
                <td class="num">{o.gpusPerInstance}</td>
                <td class="num">{o.replicasPerInstance}</td>
                <td class="num">{money(o.pricePerInstanceHour.amount)}</td>
                <td class="num" data-testid={`interruptions-${o.pricingModel}`} data-rate={o.interruptionsPerHour ?? undefined}>
                  {o.interruptionsPerHour === null
                    ? '—'
                    : `${Number(o.interruptionsPerHour.toPrecision(3))} (${interruptionBasisLabel(o.interruptionBasis, o.interruptionRate)})`}
                </td>
                <td>
                  {o.observedAt} ({o.priceKind})
                </td>
                <td data-testid={`availability-${o.pricingModel}`}>{availabilityLabel(o.availability)}</td>
                <td>
                  <a href={o.source} target="_blank" rel="noreferrer noopener">
                    {sourceKindLabel(o.sourceKind)}
                    <span class="sr-only"> of the {label(o.pricingModel)} price</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div class="cols">
        <section aria-labelledby="assumptions-title">
          <h2 id="assumptions-title">Assumptions</h2>
          <ul data-testid="assumptions">
            {e.assumptions.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="warnings-title">
          <h2 id="warnings-title">Warnings</h2>
          {e.warnings.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul data-testid="warnings">
              {e.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

/** Where a spot offer's interruption rate came from, in words (docs/cost-model.md, "The Spot Instance Advisor band"). */
function interruptionBasisLabel(basis: string | null, band: string | null): string {
  if (basis === 'ADVISOR_BAND') return `AWS Spot Advisor band ${band ?? ''}`.trim();
  if (basis === 'REQUEST') return 'your rate';
  return 'default';
}
