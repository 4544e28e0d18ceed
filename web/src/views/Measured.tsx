// Measured: a team's own metrics in (a Prometheus range answer or CSV of traffic and of
// DCGM_FI_DEV_GPU_UTIL, pasted or uploaded, and the fleet that runs today), and out: the
// utilization by hour of the week as a heatmap, what the idle hours cost, and the plan made from
// the measured traffic next to the fleet's monthly cost (docs/measurements.md). The texts are too
// large for the address; the small fields are kept there.
import { useState } from 'preact/hooks';
import { useChoices } from '../catalog-data';
import { graphql, request, type ResultOf, type VariablesOf } from '../graphql';
import { formFromRequest, heatColour, seriesInput, WEEKDAYS, type MeasuredRequest } from '../measured';
import { described, ErrorBox, Field, label, Loading, MODEL_PRESETS, money, PRESETS, PRICING_MODELS, TableScroll, useRequest } from '../ui';
import { fromParams, toParams } from '../url-state';

const MeasuredQuery = graphql(`
  query Measured($input: EstimateInput!) {
    estimate(input: $input) {
      catalogVersion {
        label
      }
      gpu
      precision
      monthlyCost {
        amount
        currency
      }
      gpuCost {
        amount
      }
      tiers {
        pricingModel
        provider
        region
        gpuHours
        cost {
          amount
        }
      }
      warnings
      measured {
        timezone
        percentile
        traffic {
          samples
          days
          coveragePct
          profile
        }
        utilization {
          series
          samples
          days
          coveragePct
          meanPct
          p95Pct
          byHourOfWeek
        }
        fleet {
          gpu
          count
          region
          pricePerGpuHour {
            amount
          }
          monthlyCost {
            amount
          }
          idleGpuHours
          waste {
            amount
          }
          saving {
            amount
          }
          savingPct
        }
      }
    }
  }
`);
type Answer = ResultOf<typeof MeasuredQuery>['estimate'];
type Input = VariablesOf<typeof MeasuredQuery>['input'];

const DEFAULTS = {
  model: 'llama-3-8b',
  tokensIn: '500',
  tokensOut: '200',
  unit: 'REQUESTS_PER_SECOND',
  preset: '',
  timezone: 'UTC',
  currency: 'USD',
  fleetGpu: 'h100-sxm-80gb',
  fleetCount: '8',
  fleetProvider: 'aws',
  fleetRegion: 'eu-north-1',
  fleetPricing: 'ON_DEMAND',
};
type Form = typeof DEFAULTS;

function inputOf(form: Form, traffic: string, utilization: string): Input {
  const t = seriesInput(traffic);
  const u = seriesInput(utilization);
  return {
    model: { preset: form.model },
    workload: { avgInputTokens: Number(form.tokensIn), avgOutputTokens: Number(form.tokensOut) },
    currency: form.currency as 'USD' | 'EUR',
    ...(form.preset ? { policy: { preset: form.preset } } : {}),
    measurements: {
      ...(t ? { traffic: { ...t, unit: form.unit as 'REQUESTS_PER_SECOND' | 'OUTPUT_TOKENS_PER_SECOND' } } : {}),
      ...(u ? { utilization: u } : {}),
      timezone: form.timezone,
      fleet: {
        gpu: form.fleetGpu,
        count: Number(form.fleetCount),
        provider: form.fleetProvider,
        region: form.fleetRegion,
        pricingModel: form.fleetPricing as (typeof PRICING_MODELS)[number],
      },
    },
  };
}

export function MeasuredView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const [form, setForm] = useState(fromParams(props.params, DEFAULTS));
  const [traffic, setTraffic] = useState('');
  const [utilization, setUtilization] = useState('');
  const [asked, setAsked] = useState<{ key: string; input: Input } | null>(null);
  const choices = useChoices();
  const result = useRequest(asked?.key ?? null, (signal) => request(MeasuredQuery, { input: asked?.input as Input }, signal));
  const err = (...names: string[]) => result.error?.forField(...names);
  const set = (field: keyof Form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [field]: e.currentTarget.value });
  const submit = (f: Form = form, t: string = traffic, u: string = utilization) => {
    setAsked({ key: `${Date.now()}`, input: inputOf(f, t, u) });
    props.onParams(toParams(f, DEFAULTS));
  };
  return (
    <section aria-labelledby="measured-title">
      <h1 id="measured-title">Measured</h1>
      <p class="meta">
        Paste or upload a Prometheus range answer (<code>/api/v1/query_range</code>) or a CSV of <code>timestamp,value</code>: traffic, and{' '}
        <code>DCGM_FI_DEV_GPU_UTIL</code> of the GPUs that run today. <code>npm run measure</code> writes both.
      </p>
      <LoadExample
        disabled={result.loading}
        onLoaded={(filled) => {
          setForm(filled.form);
          setTraffic(filled.traffic);
          setUtilization(filled.utilization);
          submit(filled.form, filled.traffic, filled.utilization);
        }}
      />
      <form
        class="form"
        noValidate
        aria-label="Measurements"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SeriesField
          id="meas-traffic"
          label="Traffic (requests/s or output tokens/s)"
          value={traffic}
          onChange={setTraffic}
          error={err('measurements.traffic.prometheus', 'measurements.traffic.csv', 'measurements.traffic')}
        />
        <Field id="meas-unit" label="Traffic unit">
          <select id="meas-unit" value={form.unit} onChange={set('unit')}>
            <option value="REQUESTS_PER_SECOND">requests/s</option>
            <option value="OUTPUT_TOKENS_PER_SECOND">output tokens/s</option>
          </select>
        </Field>
        <SeriesField
          id="meas-util"
          label="GPU utilization (DCGM_FI_DEV_GPU_UTIL, %)"
          value={utilization}
          onChange={setUtilization}
          error={err('measurements.utilization.prometheus', 'measurements.utilization.csv', 'measurements.utilization')}
        />
        <WorkloadFields form={form} set={set} err={err} />
        <FleetFields form={form} set={set} err={err} gpus={choices.data?.gpus} />
        <div class="actions">
          <button type="submit" disabled={result.loading}>
            Compare with the plan
          </button>
        </div>
      </form>
      <Loading active={result.loading} what="the measured estimate" />
      <ErrorBox error={result.error} shownAtFields />
      {result.data && <MeasuredResult e={result.data.estimate} />}
    </section>
  );
}

/**
 * "Load the example": the README's measured example (a week of traffic and utilization, two H100s
 * today), fetched as a chunk of its own on the first click, handed over as the view's fields.
 */
function LoadExample(props: { disabled: boolean; onLoaded: (filled: { form: Form; traffic: string; utilization: string }) => void }) {
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const load = async () => {
    setState('loading');
    try {
      const { default: request } = (await import('../../../examples/estimate-measured.json')) as { default: MeasuredRequest };
      setState('idle');
      props.onLoaded(formFromRequest(request, DEFAULTS));
    } catch {
      setState('failed');
    }
  };
  return (
    <p class="actions">
      <button type="button" onClick={() => void load()} disabled={state === 'loading' || props.disabled}>
        Load the example
      </button>
      <span class="meta">a week of a chatbot&apos;s traffic and two H100s&apos; utilization (examples/estimate-measured.json)</span>
      {state === 'failed' && <span role="alert">The example could not be loaded; reload the page and try again.</span>}
    </p>
  );
}

/** The model, the request's shape, the policy and the zone of the hours. */
function WorkloadFields(props: {
  form: Form;
  set: (field: keyof Form) => (e: { currentTarget: { value: string } }) => void;
  err: (...names: string[]) => string | undefined;
}) {
  const { form, set, err } = props;
  return (
    <>
      <Field id="meas-model" label="Model preset" error={err('model', 'model.preset')}>
        <select {...described('meas-model', err('model', 'model.preset'))} value={form.model} onChange={set('model')}>
          {MODEL_PRESETS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </Field>
      <TextField id="meas-in" label="Input tokens per request" value={form.tokensIn} onInput={set('tokensIn')} error={err('workload.avgInputTokens')} />
      <TextField id="meas-out" label="Output tokens per request" value={form.tokensOut} onInput={set('tokensOut')} error={err('workload.avgOutputTokens')} />
      <Field id="meas-preset" label="Policy preset">
        <select id="meas-preset" value={form.preset} onChange={set('preset')}>
          <option value="">none</option>
          {PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <TextField id="meas-tz" label="Time zone (IANA)" value={form.timezone} onInput={set('timezone')} error={err('measurements.timezone')} />
    </>
  );
}

function TextField(props: { id: string; label: string; value: string; onInput: (e: { currentTarget: { value: string } }) => void; error?: string }) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <input {...described(props.id, props.error)} value={props.value} onInput={props.onInput} />
    </Field>
  );
}

/** A measurement: pasted into the text area, or read from a file into it. */
function SeriesField(props: { id: string; label: string; value: string; onChange: (text: string) => void; error?: string }) {
  return (
    <Field id={props.id} label={props.label} error={props.error} wide hint="A range answer (JSON) or timestamp,value lines">
      <textarea
        {...described(props.id, props.error, true)}
        rows={4}
        value={props.value}
        onInput={(e) => props.onChange(e.currentTarget.value)}
        spellcheck={false}
      />
      <input
        type="file"
        aria-label={`${props.label}: upload a file`}
        accept=".json,.csv,.txt,application/json,text/csv"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void file.text().then(props.onChange);
        }}
      />
    </Field>
  );
}

function FleetFields(props: {
  form: Form;
  set: (field: keyof Form) => (e: { currentTarget: { value: string } }) => void;
  err: (...names: string[]) => string | undefined;
  gpus: readonly { slug: string; name: string }[] | undefined;
}) {
  const { form, set, err } = props;
  return (
    <>
      <Field id="fleet-gpu" label="Fleet GPU" error={err('measurements.fleet.gpu')}>
        <select {...described('fleet-gpu', err('measurements.fleet.gpu'))} value={form.fleetGpu} onChange={set('fleetGpu')}>
          {(props.gpus ?? [{ slug: form.fleetGpu, name: form.fleetGpu }]).map((g) => (
            <option key={g.slug} value={g.slug}>
              {g.name}
            </option>
          ))}
        </select>
      </Field>
      <TextField id="fleet-count" label="GPUs in the fleet" value={form.fleetCount} onInput={set('fleetCount')} error={err('measurements.fleet.count')} />
      <TextField
        id="fleet-provider"
        label="Fleet provider"
        value={form.fleetProvider}
        onInput={set('fleetProvider')}
        error={err('measurements.fleet.provider')}
      />
      <TextField id="fleet-region" label="Fleet region" value={form.fleetRegion} onInput={set('fleetRegion')} error={err('measurements.fleet.region')} />
      <Field id="fleet-pricing" label="Fleet pricing model" error={err('measurements.fleet.pricingModel')}>
        <select {...described('fleet-pricing', err('measurements.fleet.pricingModel'))} value={form.fleetPricing} onChange={set('fleetPricing')}>
          {PRICING_MODELS.map((m) => (
            <option key={m} value={m}>
              {label(m)}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

function MeasuredResult({ e }: { e: Answer }) {
  const m = e.measured;
  const f = m?.fleet;
  const u = m?.utilization;
  const currency = e.monthlyCost.currency;
  return (
    <div data-testid="measured">
      <p class="meta">
        Catalog version {e.catalogVersion.label}; hours of the week in {m?.timezone}.
      </p>
      <dl class="facts">
        {u && <Figure id="mean-util" term="Mean GPU utilization" value={`${u.meanPct.toFixed(1)} %`} />}
        {u && <Figure id="p95-util" term="p95 GPU utilization" value={`${u.p95Pct.toFixed(1)} %`} />}
        {f?.idleGpuHours != null && <Figure id="idle-hours" term="Idle GPU-hours per month" value={f.idleGpuHours.toFixed(1)} />}
        {f?.waste && <Figure id="waste" term="What the idle hours cost per month" value={money(f.waste.amount, currency)} />}
        {f && <Figure id="fleet-cost" term={`The fleet today (${f.count} × ${f.gpu}, ${f.region}) per month`} value={money(f.monthlyCost.amount, currency)} />}
        <Figure id="plan-cost" term={`The plan from the measured traffic (${e.gpu}, ${e.precision}) per month`} value={money(e.gpuCost.amount, currency)} />
        {f && <Figure id="saving" term="Saving against the fleet" value={`${money(f.saving.amount, currency)} (${f.savingPct.toFixed(1)} %)`} />}
      </dl>
      {u && <Heatmap byHour={u.byHourOfWeek} />}
      <TableScroll label="The plan's tiers">
        <table data-testid="measured-tiers">
          <caption>The plan from the measured traffic, by tier</caption>
          <thead>
            <tr>
              <th scope="col">Pricing model</th>
              <th scope="col">Provider</th>
              <th scope="col">Region</th>
              <th scope="col">GPU-hours per month</th>
              <th scope="col">Cost per month</th>
            </tr>
          </thead>
          <tbody>
            {e.tiers.map((t) => (
              <tr key={`${t.pricingModel}-${t.region}`}>
                <th scope="row">{label(t.pricingModel)}</th>
                <td>{t.provider}</td>
                <td>{t.region}</td>
                <td class="num">{t.gpuHours.toFixed(1)}</td>
                <td class="num" data-testid={`measured-tier-${t.pricingModel}`}>
                  {money(t.cost.amount, currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {e.warnings.length > 0 && (
        <ul class="warnings" aria-label="Warnings">
          {e.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Figure(props: { id: string; term: string; value: string }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd data-testid={props.id}>{props.value}</dd>
    </div>
  );
}

/** Utilization by hour of the week: a row per weekday, a cell per hour, each stating its figure. */
function Heatmap({ byHour }: { byHour: readonly (number | null)[] }) {
  return (
    <TableScroll label="GPU utilization by hour of the week">
      <table class="heatmap" data-testid="heatmap">
        <caption>Mean GPU utilization by hour of the week, %</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {Array.from({ length: 24 }, (_, h) => (
              <th key={h} scope="col">
                {String(h).padStart(2, '0')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((day, d) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {Array.from({ length: 24 }, (_, h) => {
                const pct = byHour[d * 24 + h] ?? null;
                return (
                  <td key={h} style={heatColour(pct)} data-hour={d * 24 + h} title={`${day} ${String(h).padStart(2, '0')}:00`}>
                    {pct === null ? '–' : Math.round(pct)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
