// Shared pieces of the views: labelled fields that show the API's message for them, the loading
// state, a request hook, a Chart.js canvas, formatting.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js';
import { discountItems, discountRows, rowField } from './forms';
import { ApiError } from './graphql';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, ScatterController, Legend, Tooltip);
Chart.defaults.font.family = 'system-ui, sans-serif';
Chart.defaults.color = '#1f2328';

/** A control with its label and, below it, the API's message for it (linked with aria-describedby). */
export function Field(props: { id: string; label: string; error?: string; hint?: string; children: ComponentChildren; wide?: boolean }) {
  return (
    <div class={`field${props.wide ? ' wide' : ''}${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small id={`${props.id}-error`} class="error" role="alert" data-field-error={props.id}>
          {props.error}
        </small>
      )}
    </div>
  );
}

/** aria-describedby and aria-invalid for a control inside Field. */
export function described(id: string, error: string | undefined, hint = false): Record<string, string | boolean> {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, ...(ids ? { 'aria-describedby': ids } : {}), ...(error ? { 'aria-invalid': true } : {}) };
}

/** A fieldset of checkboxes: a multi-select that works with the keyboard and on a phone. */
export function Checks<T extends string>(props: {
  id: string;
  legend: string;
  options: readonly { value: T; label: string }[];
  value: readonly string[];
  onChange: (value: T[]) => void;
  error?: string;
}) {
  return (
    <fieldset class={`field checks${props.error ? ' invalid' : ''}`} id={props.id} aria-describedby={props.error ? `${props.id}-error` : undefined}>
      <legend>{props.legend}</legend>
      <div class="check-list">
        {props.options.map((o) => (
          <label key={o.value}>
            <input
              type="checkbox"
              name={props.id}
              value={o.value}
              checked={props.value.includes(o.value)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                props.onChange(props.options.map((x) => x.value).filter((v) => (v === o.value ? on : props.value.includes(v))));
              }}
            />{' '}
            {o.label}
          </label>
        ))}
      </div>
      {props.error && (
        <small id={`${props.id}-error`} class="error" role="alert" data-field-error={props.id}>
          {props.error}
        </small>
      )}
    </fieldset>
  );
}

export function Loading(props: { active: boolean; what: string }) {
  return (
    <p class="loading" role="status" aria-live="polite" data-loading={props.active ? 'true' : 'false'}>
      {props.active ? `Loading ${props.what}…` : ''}
    </p>
  );
}

export function ErrorBox(props: { error: unknown; shownAtFields?: boolean }) {
  if (!props.error) return null;
  const message = props.error instanceof Error ? props.error.message : String(props.error);
  return (
    <div class="error-box" role="alert" data-testid="request-error">
      {props.shownAtFields ? 'The request was refused; see the marked fields. ' : ''}
      {message}
    </div>
  );
}

export interface RequestState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
}

/** Runs `run` whenever `key` changes (null: not yet); a newer request aborts the one before. */
export function useRequest<T>(key: string | null, run: (signal: AbortSignal) => Promise<T>): RequestState<T> {
  const [state, setState] = useState<RequestState<T>>({ data: undefined, error: undefined, loading: key !== null });
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    run(controller.signal).then(
      (data) => setState({ data, error: undefined, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ data: undefined, error: error instanceof ApiError ? error : new ApiError(String(error), 'CLIENT', []), loading: false });
      },
    );
    return () => controller.abort();
  }, [key]);
  return state;
}

/** A Chart.js chart; the canvas is an image to assistive technology, with the same figures in a table next to it. */
export function ChartCanvas(props: { config: ChartConfiguration; label: string; id: string; height?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, props.config);
    return () => chart.destroy();
  }, [props.config]);
  return (
    <div class="chart" style={{ height: `${props.height ?? 320}px` }}>
      <canvas ref={canvas} id={props.id} role="img" aria-label={props.label} />
    </div>
  );
}

/** A table that scrolls sideways on a phone, reachable with the keyboard. */
export function TableScroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}

export function money(amount: string | undefined | null, currency?: string): string {
  if (amount === undefined || amount === null) return '–';
  return `${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}${currency ? ` ${currency}` : ''}`;
}

/** Where a price was read, in words (as Offer.sourceKind). */
export function sourceKindLabel(kind: string | null): string {
  switch (kind) {
    case 'PROVIDER_API':
      return "provider's API";
    case 'PROVIDER_PAGE':
      return "provider's page";
    case 'MIRROR':
      return 'mirror of the provider';
    case 'TRANSCRIPTION':
      return "third party's transcription";
    case 'ANNOUNCEMENT':
      return 'announcement';
    default:
      return 'not recorded';
  }
}

/** Whether the provider's own data confirms the offer can be ordered in its region, or its catalogue says it cannot be (as Offer.availability). */
export function availabilityLabel(availability: string): string {
  switch (availability) {
    case 'CONFIRMED':
      return 'confirmed';
    case 'LISTED_NOT_ORDERABLE':
      return 'listed, not orderable';
    default:
      return 'unconfirmed';
  }
}

/** The flag emoji of an ISO 3166-1 alpha-2 code (regional indicator letters). */
export function flag(country: string): string {
  return /^[A-Z]{2}$/.test(country) ? String.fromCodePoint(...[...country].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65)) : '';
}

export const MODEL_PRESETS = ['llama-3-8b', 'llama-3-70b', 'llama-2-7b', 'llama-2-13b', 'llama-2-70b', 'mistral-7b', 'mixtral-8x7b', 'gpt-j-6b'] as const;
export const PRICING_MODELS = ['ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS', 'MONTHLY'] as const;
export const PRESETS = [
  { value: 'GDPR_PERSONAL_DATA', label: 'GDPR personal data' },
  { value: 'EU_SOVEREIGN', label: 'EU sovereign' },
  { value: 'DE_BSI_C5', label: 'BSI C5 (Germany)' },
] as const;
export const label = (s: string): string => s.replaceAll('_', ' ').toLowerCase();

/** Comma- or space-separated list as typed → values. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** One part of a row of a RowsEditor: its key in the row, its label, the API's name for it. */
export interface RowColumn<K extends string> {
  key: K;
  label: string;
  field: string;
  type?: 'text' | 'number';
  /** A select of these (the first is "every …"), or a text input suggesting `suggest` (a datalist). */
  options?: readonly { value: string; label: string }[];
  suggest?: readonly { value: string; label: string }[];
}

/**
 * A small table inside a form (discounts, measured throughput): a row per entry, each part a
 * labelled control with the API's message for it under it, buttons to add and remove rows.
 * `items` are the rows as url-state list items; `toRows`/`toItems` convert.
 */
export function RowsEditor<K extends string>(props: {
  id: string;
  legend: string;
  what: string;
  list: string;
  columns: readonly RowColumn<K>[];
  rows: readonly Record<K, string>[];
  onChange: (rows: Record<K, string>[]) => void;
  err: (...names: string[]) => string | undefined;
  hint?: string;
}) {
  const { id, rows } = props;
  const listError = props.err(props.list);
  const empty = Object.fromEntries(props.columns.map((c) => [c.key, ''])) as Record<K, string>;
  const update = (i: number, key: K, value: string) => props.onChange(rows.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  return (
    <fieldset class={`field wide rows${listError ? ' invalid' : ''}`} id={id} aria-describedby={listError ? `${id}-error` : undefined}>
      <legend>{props.legend}</legend>
      {props.hint && <small class="hint">{props.hint}</small>}
      {props.columns.map(
        (c) =>
          c.suggest && (
            <datalist key={c.key} id={`${id}-${c.key}-list`}>
              {c.suggest.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </datalist>
          ),
      )}
      {rows.map((row, i) => (
        <div class="row" key={i} data-row={i}>
          {props.columns.map((c) => {
            const control = `${id}-${i}-${c.key}`;
            const error = props.err(...rowField(props.list, i, c.field));
            return (
              <Field key={c.key} id={control} label={`${c.label} (${props.what} ${i + 1})`} error={error}>
                {c.options ? (
                  <select {...described(control, error)} value={row[c.key]} onChange={(e) => update(i, c.key, e.currentTarget.value)}>
                    {c.options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    {...described(control, error)}
                    type={c.type ?? 'text'}
                    step={c.type === 'number' ? 'any' : undefined}
                    inputMode={c.type === 'number' ? 'decimal' : undefined}
                    list={c.suggest ? `${id}-${c.key}-list` : undefined}
                    autoComplete="off"
                    value={row[c.key]}
                    onInput={(e) => update(i, c.key, e.currentTarget.value)}
                  />
                )}
              </Field>
            );
          })}
          <button type="button" class="remove" onClick={() => props.onChange(rows.filter((_, j) => j !== i))}>
            Remove<span class="sr-only"> {`${props.what} ${i + 1}`}</span>
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={() => props.onChange([...rows, empty])}>
          Add a {props.what}
        </button>
      </div>
      {listError && (
        <small id={`${id}-error`} class="error" role="alert" data-field-error={id}>
          {listError}
        </small>
      )}
    </fieldset>
  );
}

/** Negotiated discounts (provider + percent off list), the same editor on the offers and estimate forms. */
export function DiscountsEditor(props: {
  id: string;
  providers: readonly { slug: string; name: string }[];
  items: readonly string[];
  onChange: (items: string[]) => void;
  err: (...names: string[]) => string | undefined;
}) {
  return (
    <RowsEditor
      id={props.id}
      legend="Negotiated discounts (percent off list prices)"
      what="discount"
      list="discounts"
      columns={[
        { key: 'provider', label: 'Provider', field: 'provider', suggest: props.providers.map((p) => ({ value: p.slug, label: p.name })) },
        { key: 'percent', label: 'Percent off', field: 'percent', type: 'number' },
      ]}
      rows={discountRows(props.items)}
      onChange={(rows) => props.onChange(discountItems(rows))}
      err={props.err}
    />
  );
}
