// Form state in the URL (after #/view?), so that a link reproduces what its sender saw. Each form
// declares its fields with defaults; only values that differ from the default are written, and
// reading takes what it knows from the URL and the default for the rest.
export type FieldValue = string | boolean | string[] | number[];
export type FormState = Record<string, FieldValue>;

export function toParams<S extends FormState>(state: S, defaults: S): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(defaults)) {
    const value = state[key];
    if (value === undefined || same(value, defaults[key])) continue;
    params.set(key, encode(value));
  }
  return params;
}

export function fromParams<S extends FormState>(params: URLSearchParams, defaults: S): S {
  const state: FormState = { ...defaults };
  for (const [key, fallback] of Object.entries(defaults)) {
    const raw = params.get(key);
    if (raw === null) continue;
    state[key] = decode(raw, fallback);
  }
  return state as S;
}

function encode(value: FieldValue): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return value.map((v) => escape(String(v), ',')).join(',');
  return value;
}

function decode(raw: string, fallback: FieldValue): FieldValue {
  if (typeof fallback === 'boolean') return raw === '1' || raw === 'true';
  if (Array.isArray(fallback)) {
    const items = raw === '' ? [] : raw.split(',').map(unescape);
    // number[] fields (the 24-hour profile) keep numbers; an empty default is a string list.
    return typeof fallback[0] === 'number' ? items.map(Number) : items;
  }
  return raw;
}

// An item or a part holding the separator keeps it as %2C or %3A ("%" itself as %25), so any text
// reads back as written; slugs and numbers, which hold neither, read as they are.
function escape(text: string, separator: ',' | ':'): string {
  return text.replaceAll('%', '%25').replaceAll(separator, separator === ',' ? '%2C' : '%3A');
}
function unescape(text: string): string {
  return text.replace(/%(25|2C|3A)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Rows of a small table in the form (discounts: provider and percent) as list items, their parts
 * joined with ":" ("aws:15"), and back; a part the item lacks reads as "".
 */
export function rowsToItems<K extends string>(rows: readonly Record<K, string>[], keys: readonly K[]): string[] {
  return rows.map((row) => keys.map((k) => escape(row[k], ':')).join(':'));
}
export function itemsToRows<K extends string>(items: readonly string[], keys: readonly K[]): Record<K, string>[] {
  return items.map((item) => {
    const parts = item.split(':').map(unescape);
    return Object.fromEntries(keys.map((k, i) => [k, parts[i] ?? ''])) as Record<K, string>;
  });
}

function same(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  return encode(a ?? '') === encode(b ?? '');
}

/** The view and its parameters from location.hash: "#/estimate?model=llama-3-8b" → ["estimate", params]. */
export function parseHash(hash: string): [string, URLSearchParams] {
  const body = hash.replace(/^#\/?/, '');
  const q = body.indexOf('?');
  return q < 0 ? [body, new URLSearchParams()] : [body.slice(0, q), new URLSearchParams(body.slice(q + 1))];
}

export function hashOf(view: string, params: URLSearchParams): string {
  const query = params.toString();
  return `#/${view}${query ? `?${query}` : ''}`;
}
