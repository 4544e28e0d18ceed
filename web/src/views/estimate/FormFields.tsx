// The estimate form's fieldsets: the model and workload, the policy and the catalog to price from,
// the candidates (precisions, GPU shortlist, discounts), measured throughput, and rent or buy.
import type { Choices } from '../../catalog-data';
import { type EstimateForm, measuredItems, measuredRows } from '../../forms';
import { Checks, described, DiscountsEditor, Field, MODEL_PRESETS, PRESETS, RowsEditor } from '../../ui';
import type { Precision } from '../Estimate';

const PRECISIONS: Precision[] = ['BF16', 'FP16', 'FP8', 'INT8', 'INT4', 'FP32'];

export type SetField = <K extends keyof EstimateForm>(key: K, value: EstimateForm[K]) => void;
type Err = (...names: string[]) => string | undefined;
interface FieldsProps {
  form: EstimateForm;
  set: SetField;
  err: Err;
  choices: Choices | undefined;
}

/** The model (a preset or a parameter count) and the shape of a request. */
export function WorkloadFields({ form, set, err }: FieldsProps) {
  return (
    <>
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
    </>
  );
}

/** Interruption tolerance and preset, the currency, a hosted API to compare with, the catalog version. */
export function PolicyFields({ form, set, err, choices }: FieldsProps) {
  return (
    <>
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
      <Field id="est-optimize" label="Optimize for" error={err('optimizeFor')}>
        <select {...described('est-optimize', err('optimizeFor'))} value={form.optimizeFor} onChange={(ev) => set('optimizeFor', ev.currentTarget.value)}>
          <option value="COST">Cost</option>
          <option value="CARBON">Carbon (g CO2e)</option>
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
          {form.version && !choices?.catalogVersions.some((v) => v.label === form.version) && <option value={form.version}>{form.version}</option>}
          {(choices?.catalogVersions ?? []).map((v) => (
            <option key={v.id} value={v.label}>
              {v.label}
              {v.current ? ' (current)' : ''}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

/** What the plan may be built from: precisions, a GPU shortlist, negotiated discounts. */
export function CandidateFields({ form, set, err, choices }: FieldsProps) {
  return (
    <>
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
        options={(choices?.gpus ?? []).map((g) => ({ value: g.slug, label: g.name }))}
        value={form.gpus}
        onChange={(v) => set('gpus', v)}
        error={err('gpus')}
      />
      <DiscountsEditor id="est-discounts" providers={choices?.providers ?? []} items={form.discounts} onChange={(items) => set('discounts', items)} err={err} />
    </>
  );
}

/** Throughput measured on a replica, per GPU and precision, in place of the estimate from specs. */
export function MeasuredThroughputEditor({ form, set, err, choices }: FieldsProps) {
  return (
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
          options: [{ value: '', label: 'every GPU' }, ...(choices?.gpus ?? []).map((g) => ({ value: g.slug, label: g.name }))],
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
  );
}

const OWNED_FIELDS = [
  { key: 'site', field: 'site', id: 'est-site', label: 'Site (DE, or US-VA)', mode: 'text' },
  { key: 'serverPrice', field: 'serverPriceUsd', id: 'est-server-price', label: 'Server price (USD)', mode: 'decimal' },
  { key: 'gpusPerServer', field: 'gpusPerServer', id: 'est-server-gpus', label: 'GPUs per server', mode: 'numeric' },
  { key: 'electricity', field: 'electricityUsdPerKwh', id: 'est-electricity', label: 'Electricity (USD/kWh)', mode: 'decimal' },
  { key: 'colocation', field: 'colocationUsdPerKwMonth', id: 'est-colocation', label: 'Colocation (USD per kW-month)', mode: 'decimal' },
  { key: 'depreciationYears', field: 'depreciationYears', id: 'est-depreciation', label: 'Depreciation years', mode: 'decimal' },
  { key: 'costOfCapital', field: 'costOfCapitalPercent', id: 'est-capital', label: 'Cost of capital (%)', mode: 'decimal' },
  { key: 'operationsShare', field: 'operationsSharePercent', id: 'est-operations', label: 'Operations (% of price a year)', mode: 'decimal' },
] as const;

/** Owning the base load in servers against renting it (OwnedInput): priced once a site or an electricity price is given. */
export function OwnedFields({ form, set, err }: FieldsProps) {
  return (
    <fieldset class="field wide rows" id="est-owned" aria-describedby="est-owned-hint">
      <legend>Rent or buy (optional)</legend>
      <small id="est-owned-hint" class="hint">
        Priced when a site or an electricity price is given; empty fields take the API's sourced defaults.
      </small>
      <div class="row">
        {OWNED_FIELDS.map(({ key, field, id, label, mode }) => {
          const error = err(`owned.${field}`);
          return (
            <Field key={key} id={id} label={label} error={error}>
              <input {...described(id, error)} inputMode={mode} value={form[key]} onInput={(ev) => set(key, ev.currentTarget.value)} />
            </Field>
          );
        })}
      </div>
    </fieldset>
  );
}
