// Turns catalog files (YAML, JSON or CSV) into catalog content, collecting every error with its
// file and line. Nothing here touches a database: the import service decides what to write.
import { parse as parseCsv } from 'csv-parse/sync';
import type { Decimal } from 'decimal.js';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { ZodType } from 'zod';
import { offerKeyHash, offerNaturalKey } from './catalog-hash.js';
import { availabilityKey, checkAvailability, indexAvailability, type AvailabilityIndex } from './availability.js';
import {
  availabilityRowSchema,
  catalogMetaSchema,
  energyFigureRowSchema,
  gpuRowSchema,
  offerRowSchema,
  PRICE_LIMITS,
  providerRowSchema,
  referenceFigureRowSchema,
  regionRowSchema,
  type AvailabilityRow,
  type CatalogMetaRow,
  type EnergyFigureRow,
  type OfferRow,
  type RegionRow,
} from './catalog-rows.js';
import {
  energyFigureKey,
  HOURS_PER_MONTH,
  type AvailabilityRecord,
  type CatalogContent,
  type EnergyFigure,
  type FxRates,
  type GpuModel,
  type MarketPrices,
  type Offer,
  type PricingModel,
  type Provider,
  type ReferenceFigure,
  type Region,
} from './catalog.types.js';
import { at, last } from '../checked.js';
import { unknownIdentifierMessage } from '../closest-names.js';

export interface CatalogFile {
  /** Shown in errors; relative paths read best. */
  path: string;
  text: string;
}

export interface RowError {
  file: string;
  line: number;
  field: string;
  message: string;
}

export const SECTIONS = ['catalog', 'providers', 'regions', 'gpus', 'offers', 'referenceFigures', 'availability', 'energy'] as const;
type Section = (typeof SECTIONS)[number];

interface RawRow {
  file: string;
  line: number;
  value: unknown;
  /** YAML/JSON: the line of each field, so an error points at the field, not the record. */
  fieldLines?: Record<string, number>;
}

export interface Located<T> {
  item: T;
  file: string;
  line: number;
  /** YAML/JSON: the line of each field of the row. */
  fieldLines?: Record<string, number>;
}

/** Where a row's field is: its own line when the file tells, else the row's. */
export function lineOf(row: Pick<Located<unknown>, 'line' | 'fieldLines'>, field: string): number {
  return row.fieldLines && Object.hasOwn(row.fieldLines, field) ? (row.fieldLines[field] ?? row.line) : row.line;
}

export interface ParsedCatalog {
  meta: CatalogMetaRow | null;
  /** null: the files had no such section (the import may inherit it from the current version). */
  providers: Provider[] | null;
  regions: Located<Region>[] | null;
  gpus: GpuModel[] | null;
  offers: Located<Offer>[];
  referenceFigures: ReferenceFigure[] | null;
  availability: Located<AvailabilityRecord>[] | null;
  energy: Located<EnergyFigure>[] | null;
  /** The paths read, in order: where an error about the files as a whole is reported. */
  files: string[];
  errors: RowError[];
}

/** Converts scalar nodes to plain strings so that no number is ever read as a float. */
function toText(node: unknown): unknown {
  if (isScalar(node)) {
    const v = node.value;
    // Failsafe reads a plain `null` or `~` as text; only quoted "null" is the word.
    if (v === null || (node.type === 'PLAIN' && /^(null|Null|NULL|~)?$/.test(String(v)))) return null;
    return String(v);
  }
  if (isSeq(node)) return node.items.map(toText);
  if (isMap(node)) {
    return Object.fromEntries(node.items.map((pair) => [String(isScalar(pair.key) ? pair.key.value : pair.key), toText(pair.value)]));
  }
  return node ?? null;
}

function readStructured(file: CatalogFile, rows: Record<Section, RawRow[]>, errors: RowError[]): void {
  const lineCounter = new LineCounter();
  // The failsafe schema keeps every scalar a string: "3.90" stays "3.90", never 3.9.
  const doc = parseDocument(file.text, { lineCounter, schema: 'failsafe', prettyErrors: false });
  const lineOf = (node: Node | null | undefined): number => (node?.range ? lineCounter.linePos(node.range[0]).line : 1);
  if (doc.errors.length) {
    for (const e of doc.errors) errors.push({ file: file.path, line: e.linePos?.[0]?.line ?? 1, field: '', message: at(e.message.split('\n'), 0) });
    return;
  }
  if (!isMap(doc.contents)) {
    errors.push({ file: file.path, line: 1, field: '', message: `expected a mapping with any of: ${SECTIONS.join(', ')}` });
    return;
  }
  for (const pair of doc.contents.items) {
    const key = String(isScalar(pair.key) ? pair.key.value : pair.key) as Section;
    const keyLine = lineOf(pair.key);
    if (!SECTIONS.includes(key)) {
      errors.push({ file: file.path, line: keyLine, field: key, message: `unknown section; expected one of ${SECTIONS.join(', ')}` });
      continue;
    }
    if (key === 'catalog') {
      rows.catalog.push({ file: file.path, line: keyLine, value: toText(pair.value) });
      continue;
    }
    if (!isSeq(pair.value)) {
      errors.push({ file: file.path, line: keyLine, field: key, message: 'must be a list' });
      continue;
    }
    for (const item of pair.value.items) {
      const fieldLines = isMap(item)
        ? Object.fromEntries(item.items.map((p) => [String(isScalar(p.key) ? p.key.value : p.key), lineOf(p.key as Node)]))
        : undefined;
      rows[key].push({ file: file.path, line: lineOf(item), value: toText(item), fieldLines });
    }
  }
}

/** CSV: one section per file, named by the file (providers.csv, regions.csv, gpus.csv; else offers). */
function readCsv(file: CatalogFile, rows: Record<Section, RawRow[]>, errors: RowError[]): void {
  const base = last(file.path.split('/')).toLowerCase();
  const section: Section = (['providers', 'regions', 'gpus'] as const).find((s) => base.startsWith(s)) ?? 'offers';
  try {
    // With `info`, each record comes with where it was read.
    const records = parseCsv<{ record: Record<string, string>; info: { lines: number } }>(file.text, { columns: true, skip_empty_lines: true, info: true });
    for (const { record, info } of records) {
      const value = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ''));
      rows[section].push({ file: file.path, line: info.lines, value });
    }
  } catch (error) {
    const e = error as { message: string; lines?: number };
    errors.push({ file: file.path, line: e.lines ?? 1, field: '', message: e.message });
  }
}

function validate<T>(schema: ZodType<T>, raw: RawRow, errors: RowError[]): T | null {
  if (raw.value === null || typeof raw.value !== 'object' || Array.isArray(raw.value)) {
    errors.push({ file: raw.file, line: raw.line, field: '', message: 'must be a mapping of field names to values' });
    return null;
  }
  const result = schema.safeParse(raw.value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const message = issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message;
    const top = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path[0];
    const line = (top !== undefined && raw.fieldLines && Object.hasOwn(raw.fieldLines, String(top)) ? raw.fieldLines[String(top)] : undefined) ?? raw.line;
    errors.push({ file: raw.file, line, field: issue.path.join('.'), message });
  }
  return null;
}

export function parseCatalogFiles(files: CatalogFile[]): ParsedCatalog {
  const errors: RowError[] = [];
  const rows = readFiles(files, errors);
  const meta = validateMeta(rows.catalog, errors);
  const providers = validateSection(rows.providers, providerRowSchema, errors, { what: 'slug', toItem: (r) => r, keyOf: (r) => r.slug });
  const regions = validateSection(rows.regions, regionRowSchema, errors, {
    what: 'code',
    toItem: (r, raw) => regionFromRow(r, raw, errors),
    keyOf: (r) => r.code,
  });
  const gpus = validateSection(rows.gpus, gpuRowSchema, errors, { what: 'slug', toItem: (r) => r, keyOf: (r) => r.slug });
  const offers = validateSection(rows.offers, offerRowSchema, errors, { what: 'offer', toItem: offerFromRow, keyOf: offerNaturalKey });
  const referenceFigures = validateSection(rows.referenceFigures, referenceFigureRowSchema, errors, { what: 'key', toItem: (r) => r, keyOf: (r) => r.key });
  const availability = validateSection(rows.availability, availabilityRowSchema, errors, {
    what: 'instanceType',
    toItem: availabilityFromRow,
    keyOf: (r) => availabilityKey(r.provider, r.instanceType),
  });
  const energy = validateSection(rows.energy, energyFigureRowSchema, errors, { what: 'subject', toItem: energyFigureFromRow, keyOf: energyFigureKey });
  const items = <T>(validated: Validated<T>[]): T[] => validated.map(({ item }) => item);
  return {
    meta,
    providers: rows.providers.length ? items(providers) : null,
    regions: rows.regions.length ? locate(regions) : null,
    gpus: rows.gpus.length ? items(gpus) : null,
    offers: locate(offers),
    referenceFigures: rows.referenceFigures.length ? items(referenceFigures) : null,
    availability: rows.availability.length ? locate(availability) : null,
    energy: rows.energy.length ? locate(energy) : null,
    files: files.map((f) => f.path),
    errors,
  };
}

/** Reads every file into raw rows by section: CSV by its file name, YAML and JSON by their keys. */
function readFiles(files: readonly CatalogFile[], errors: RowError[]): Record<Section, RawRow[]> {
  const rows: Record<Section, RawRow[]> = { catalog: [], providers: [], regions: [], gpus: [], offers: [], referenceFigures: [], availability: [], energy: [] };
  for (const file of files) {
    if (/\.csv$/i.test(file.path)) readCsv(file, rows, errors);
    else readStructured(file, rows, errors);
  }
  return rows;
}

/** The catalog section (metadata and FX): at most one in all the files. */
function validateMeta(raws: readonly RawRow[], errors: RowError[]): CatalogMetaRow | null {
  if (raws.length > 1) {
    const second = at(raws, 1);
    errors.push({ file: second.file, line: second.line, field: 'catalog', message: 'only one catalog section is allowed' });
  }
  return raws[0] ? validate(catalogMetaSchema, raws[0], errors) : null;
}

interface Validated<T> {
  raw: RawRow;
  item: T;
}

/**
 * Validates a section's rows into items. `toItem` may refuse a valid row (it reports why); a row
 * whose key (the `what` errors name) an earlier row already has is an error that points at the first.
 */
function validateSection<R, T>(
  raws: readonly RawRow[],
  schema: ZodType<R>,
  errors: RowError[],
  { what, toItem, keyOf }: { what: string; toItem: (row: R, raw: RawRow) => T | null; keyOf: (item: T) => string },
): Validated<T>[] {
  const seen = new Map<string, RawRow>();
  return raws.flatMap((raw) => {
    const r = validate(schema, raw, errors);
    const item = r === null ? null : toItem(r, raw);
    if (item === null) return [];
    const key = keyOf(item);
    const first = seen.get(key);
    if (first) {
      errors.push({ file: raw.file, line: raw.line, field: what, message: `duplicate ${what} ${key} (first at ${first.file}:${first.line})` });
      return [];
    }
    seen.set(key, raw);
    return [{ raw, item }];
  });
}

function regionFromRow(r: RegionRow, raw: RawRow, errors: RowError[]): Region | null {
  if (!r.code.startsWith(`${r.provider}:`)) {
    errors.push({ file: raw.file, line: raw.line, field: 'code', message: `must start with the provider slug "${r.provider}:"` });
    return null;
  }
  return { code: r.code, providerSlug: r.provider, name: r.name, city: r.city, country: r.country };
}

function offerFromRow(r: OfferRow): Offer {
  // A region may be written with or without its provider prefix.
  const regionCode = r.region.includes(':') ? r.region : `${r.provider}:${r.region}`;
  // A monthly price becomes an hourly one over the month's 730 hours (docs/cost-model.md#monthly-servers),
  // kept to the price column's 15 places, so 730 × the hourly price gives the monthly price back.
  const monthly = r.pricePerMonth;
  const pricePerHour =
    monthly !== null
      ? monthly.div(HOURS_PER_MONTH).toDecimalPlaces(PRICE_LIMITS.fractionDigits)
      : (r.pricePerHour ?? (r.pricePerGpuHour as Decimal).mul(r.gpuCount));
  const offer: Offer = {
    keyHash: '',
    providerSlug: r.provider,
    regionCode,
    gpuSlug: r.gpu,
    gpuCount: r.gpuCount,
    instanceType: r.instanceType,
    pricingModel: r.pricingModel,
    pricePerHour,
    currency: r.currency,
    upfront: r.upfront,
    termMonths: r.termMonths,
    serverlessUnitPrice: r.serverlessUnitPrice,
    serverlessUnit: r.serverlessUnit,
    interruptionNoticeSeconds: r.interruptionNoticeSeconds,
    ...(r.interruptionRate === undefined ? {} : { interruptionRate: r.interruptionRate }),
    ...(r.market === undefined ? {} : { market: marketFromRow(r.market, r.pricePerGpuHour === null ? 1 : r.gpuCount) }),
    sourceUrl: r.source,
    sourceTitle: r.sourceTitle,
    observedAt: r.observedAt,
    priceKind: r.priceKind,
    derivation: r.derivation,
    conversion: r.conversion ?? (monthly === null ? null : `${monthly.toFixed()} ${r.currency} per month / ${HOURS_PER_MONTH} h`),
    sourceKind: r.sourceKind,
    // Derived by assembleCatalog from the provider's availability data, unless the row says the
    // provider's own catalogue lists it as not orderable; until then the row's own note.
    availability: r.availability ?? 'UNCONFIRMED',
    availabilityNote: r.availabilityNote,
    validFrom: r.validFrom,
    validUntil: r.validUntil,
  };
  offer.keyHash = offerKeyHash(offer);
  return offer;
}

/** A row's market figures per instance-hour: a row priced per GPU-hour gives them per GPU-hour too. */
function marketFromRow(m: NonNullable<OfferRow['market']>, perInstance: number): MarketPrices {
  return {
    p10: m.p10.mul(perInstance),
    median: m.median.mul(perInstance),
    p90: m.p90.mul(perInstance),
    sampleSize: m.sampleSize,
    hostReliability: m.hostReliability,
    interruptionsPerHour: m.interruptionsPerHour,
    basis: m.basis,
  };
}

function energyFigureFromRow(r: EnergyFigureRow): EnergyFigure {
  const figure: EnergyFigure = { kind: r.kind, subject: r.subject, value: r.value, year: r.year, source: r.source, note: r.note };
  // Absent rather than null on other kinds, so their content hash is what it was before gridSource existed.
  if (r.gridSource !== undefined) figure.gridSource = r.gridSource;
  return figure;
}

function availabilityFromRow(r: AvailabilityRow): AvailabilityRecord {
  return {
    provider: r.provider,
    instanceType: r.instanceType,
    // A region may be written with or without its provider prefix, as in offers.
    regions: [...new Set(r.regions.map((code) => (code.includes(':') ? code : `${r.provider}:${code}`)))].sort(),
    listsEveryRegion: r.listsEveryRegion,
    pricingModels: r.pricingModels,
    source: r.source,
    observedAt: r.observedAt,
    note: r.note,
  };
}

function locate<T>(items: Validated<T>[]): Located<T>[] {
  return items.map(({ raw, item }) => ({ item, file: raw.file, line: raw.line, fieldLines: raw.fieldLines }));
}

export interface AssembledCatalog {
  content: CatalogContent | null;
  errors: RowError[];
  /** The providers whose offers the files replace; null for a full replacement. */
  scope: string[] | null;
  /** Per provider, the only pricing models the files replace (absent: all of that provider's offers). */
  pricingModels: Readonly<Record<string, readonly PricingModel[]>>;
}

/**
 * FULL: the files are the whole catalog's offers. PROVIDERS (the default): the files replace the
 * offers of `providers` (default: the providers the files list offers for) and every other
 * provider keeps the offers it has in the inherited version. MERGE: the files add or update
 * offers and remove none (a price update that lists only what changed).
 * `pricingModels` narrows PROVIDERS for a feed that only knows some of a provider's pricing models
 * (a spot-and-on-demand feed must not delete that provider's reserved offers): for a provider named
 * there, the files replace only its offers of those models and may only bring offers of those models.
 */
export type ImportScope =
  | { mode: 'FULL' }
  | { mode: 'PROVIDERS'; providers?: readonly string[]; pricingModels?: Readonly<Record<string, readonly PricingModel[]>> }
  | { mode: 'MERGE' };

/** Whether an offer of the inherited version falls inside an import's scope (and is replaced by it). */
export function offerInScope(
  offer: Pick<Offer, 'providerSlug' | 'pricingModel'>,
  scope: string[] | null,
  pricingModels: Readonly<Record<string, readonly PricingModel[]>> = {},
): boolean {
  if (scope !== null && !scope.includes(offer.providerSlug)) return false;
  const models = pricingModels[offer.providerSlug];
  return models === undefined || models.includes(offer.pricingModel);
}

/**
 * Completes parsed files into a whole catalog: sections the files do not have (catalog metadata
 * and FX, providers, regions, GPUs, reference figures) come from `inherited` (the current
 * version); offers too, for providers outside the import's scope. Checks that every offer names a
 * known provider, region (of that provider) and GPU.
 */
export function assembleCatalog({
  parsed,
  inherited,
  scope = { mode: 'PROVIDERS' },
}: {
  parsed: ParsedCatalog;
  inherited: CatalogContent | null;
  scope?: ImportScope;
}): AssembledCatalog {
  const errors = [...parsed.errors];
  const first = parsed.offers[0] ?? { file: parsed.files[0] ?? '<input>', line: 1 };
  const { providers, regions, gpus, referenceFigures, availabilityRows, energyRows, fxRates } = inheritSections(parsed, inherited);
  if (!fxRates)
    errors.push({
      file: first.file,
      line: 1,
      field: 'catalog.fx',
      message: 'FX rates are required (a catalog section with fx) when there is no current version to inherit them from',
    });
  const listed = [...new Set(parsed.offers.map((o) => o.item.providerSlug))].sort();
  const scoped = scope.mode === 'FULL' ? null : scope.mode === 'MERGE' ? listed : [...new Set(scope.providers ?? listed)].sort();
  // An import without offers is a mistake unless it names the providers to empty or brings a new catalog section (new FX) or availability data.
  const bringsData = parsed.meta !== null || parsed.availability !== null || parsed.energy !== null;
  if (parsed.offers.length === 0 && parsed.errors.length === 0 && !bringsData && !(scope.mode === 'PROVIDERS' && scope.providers?.length)) {
    errors.push({ file: first.file, line: 1, field: 'offers', message: 'the import has no offers' });
  }

  const known: Known = {
    providerSlugs: new Set(providers.map((p) => p.slug)),
    regionProvider: new Map(regions.map((r) => [r.code, r.providerSlug])),
    gpuSlugs: new Set(gpus.map((g) => g.slug)),
  };
  for (const slug of scope.mode === 'PROVIDERS' ? (scope.providers ?? []) : []) {
    if (!known.providerSlugs.has(slug)) errors.push({ file: first.file, line: 1, field: 'scope', message: `unknown provider ${slug} in the scope` });
  }
  checkRegionsAndAvailability({ regions: parsed.regions ?? [], availabilityRows, known, errors });
  checkEnergySubjects({ rows: parsed.energy ?? [], known, errors });
  const availability = indexAvailability(availabilityRows.map((r) => r.item));
  const pricingModels = scope.mode === 'PROVIDERS' ? (scope.pricingModels ?? {}) : {};
  for (const [slug, models] of Object.entries(pricingModels)) {
    if (scoped !== null && !scoped.includes(slug))
      errors.push({ file: first.file, line: 1, field: 'scope', message: `pricing models are scoped for ${slug}, which is outside the import scope` });
    if (models.length === 0) errors.push({ file: first.file, line: 1, field: 'scope', message: `the pricing-model scope of ${slug} is empty` });
  }
  const replaced = new Set(parsed.offers.map((o) => o.item.keyHash));
  const kept = (inherited?.offers ?? []).filter((o) => (scope.mode === 'MERGE' ? !replaced.has(o.keyHash) : !offerInScope(o, scoped, pricingModels)));
  const checked: Located<Offer>[] = [...parsed.offers, ...kept.map((item) => ({ item, file: '(inherited)', line: 0 }))];
  const derived = deriveOffers({ checked, availability, checks: { known, fxRates, scoped, pricingModels }, errors });
  errors.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  if (errors.length || !fxRates) return { content: null, errors, scope: scoped, pricingModels };
  // Inherited offers first, then the files' (the order the version had them in before).
  const offers = [...derived.slice(parsed.offers.length), ...derived.slice(0, parsed.offers.length)];
  const records = availabilityRows.map((r) => r.item);
  const energy = energyRows.map((r) => r.item);
  return {
    content: { providers, regions, gpus, offers, referenceFigures, availability: records, ...(energy.length ? { energy } : {}), fxRates },
    errors,
    scope: scoped,
    pricingModels,
  };
}

/** The sections of the catalog: the files' where they have them, else the inherited version's. */
function inheritSections(
  parsed: ParsedCatalog,
  inherited: CatalogContent | null,
): Omit<CatalogContent, 'offers' | 'availability' | 'energy' | 'fxRates'> & {
  availabilityRows: Located<AvailabilityRecord>[];
  energyRows: Located<EnergyFigure>[];
  fxRates: FxRates | null;
} {
  return {
    providers: parsed.providers ?? inherited?.providers ?? [],
    regions: parsed.regions?.map((r) => r.item) ?? inherited?.regions ?? [],
    gpus: parsed.gpus ?? inherited?.gpus ?? [],
    referenceFigures: parsed.referenceFigures ?? inherited?.referenceFigures ?? [],
    availabilityRows: parsed.availability ?? (inherited?.availability ?? []).map((item) => ({ item, file: '(inherited)', line: 0 })),
    energyRows: parsed.energy ?? (inherited?.energy ?? []).map((item) => ({ item, file: '(inherited)', line: 0 })),
    fxRates: parsed.meta?.fx ?? inherited?.fxRates ?? null,
  };
}

/** What the assembled catalog holds, for checking the references of the rows that name it. */
interface Known {
  providerSlugs: ReadonlySet<string>;
  /** Region code → the provider it belongs to. */
  regionProvider: ReadonlyMap<string, string>;
  gpuSlugs: ReadonlySet<string>;
}

/** Every region of the files names a known provider; every availability record a known provider and regions of its own. */
function checkRegionsAndAvailability({
  regions,
  availabilityRows,
  known,
  errors,
}: {
  regions: readonly Located<Region>[];
  availabilityRows: readonly Located<AvailabilityRecord>[];
  known: Known;
  errors: RowError[];
}): void {
  for (const { item: region, file, line } of regions) {
    if (!known.providerSlugs.has(region.providerSlug)) errors.push({ file, line, field: 'provider', message: `unknown provider ${region.providerSlug}` });
  }
  for (const row of availabilityRows) {
    const { item: record, file } = row;
    if (!known.providerSlugs.has(record.provider))
      errors.push({ file, line: lineOf(row, 'provider'), field: 'provider', message: `unknown provider ${record.provider}` });
    for (const code of record.regions) {
      const owner = known.regionProvider.get(code);
      if (owner !== record.provider) {
        errors.push({
          file,
          line: lineOf(row, 'regions'),
          field: 'regions',
          message: owner === undefined ? `unknown region ${code}` : `region ${code} belongs to ${owner}, not ${record.provider}`,
        });
      }
    }
  }
}

/**
 * Every energy figure names what it is for: a grid intensity a known region or an ISO country (the
 * fallback for that country's regions), a PUE a known region (the provider's figure for that site),
 * a known provider (its fleet) or "default", a GPU power a known GPU, the idle share "default".
 */
function checkEnergySubjects({ rows, known, errors }: { rows: readonly Located<EnergyFigure>[]; known: Known; errors: RowError[] }): void {
  for (const row of rows) {
    const { kind, subject } = row.item;
    const problem =
      kind === 'GRID_INTENSITY'
        ? known.regionProvider.has(subject) || /^[A-Z]{2}$/.test(subject)
          ? null
          : `unknown region ${subject} (a grid intensity names a region code or an ISO country such as SE)`
        : kind === 'PUE'
          ? subject === 'default' || known.providerSlugs.has(subject) || known.regionProvider.has(subject)
            ? null
            : `unknown provider or region ${subject} (a PUE names a region code, a provider or "default")`
          : kind === 'GPU_POWER'
            ? known.gpuSlugs.has(subject)
              ? null
              : `unknown GPU ${subject}`
            : subject === 'default'
              ? null
              : 'the idle power share applies to every GPU: its subject is "default"';
    if (problem) errors.push({ file: row.file, line: lineOf(row, 'subject'), field: 'subject', message: problem });
  }
}

interface OfferChecks {
  known: Known;
  fxRates: FxRates | null;
  /** The providers the import replaces; null for a full replacement. */
  scoped: string[] | null;
  pricingModels: Readonly<Record<string, readonly PricingModel[]>>;
}

/**
 * Checks every offer, the files' and the inherited ones kept, and derives its availability from
 * the providers' availability data; an offer its provider does not sell there is an error and left out.
 */
function deriveOffers({
  checked,
  availability,
  checks,
  errors,
}: {
  checked: readonly Located<Offer>[];
  availability: AvailabilityIndex;
  checks: OfferChecks;
  errors: RowError[];
}): Offer[] {
  const derived: Offer[] = [];
  for (const row of checked) {
    const { item: offer, file, line } = row;
    const where = line > 0 ? '' : ` (inherited offer ${offer.instanceType} ${offer.regionCode}; import its provider's offers too, or use --full)`;
    checkOffer({ row, where, checks, errors });
    // An inherited offer keeps the note its row gave only while it stays unconfirmed.
    const ownNote = line > 0 || offer.availability === 'UNCONFIRMED' ? offer.availabilityNote : null;
    const verdict = checkAvailability({ offer, index: availability, ownNote });
    if (verdict.kind === 'NOT_SOLD') {
      errors.push({ file, line: line > 0 ? lineOf(row, verdict.field) : line, field: verdict.field, message: `${verdict.reason}${where}` });
      continue;
    }
    // The provider's own word that it cannot be ordered outranks data saying where it is sold.
    if (offer.availability === 'LISTED_NOT_ORDERABLE') {
      derived.push(offer);
      continue;
    }
    const same = offer.availability === verdict.availability && offer.availabilityNote === verdict.note;
    derived.push(same ? offer : { ...offer, availability: verdict.availability, availabilityNote: verdict.note });
  }
  return derived;
}

/**
 * One offer: inside the import's scope (the files' offers only), and naming a known provider, a
 * region of that provider, a known GPU and a currency the catalog has a rate for.
 */
function checkOffer({ row, where, checks, errors }: { row: Located<Offer>; where: string; checks: OfferChecks; errors: RowError[] }): void {
  const { item: offer, file, line } = row;
  const { known, fxRates, scoped, pricingModels } = checks;
  if (line > 0 && scoped !== null && !scoped.includes(offer.providerSlug)) {
    errors.push({ file, line, field: 'provider', message: `provider ${offer.providerSlug} is outside the import scope ${scoped.join(', ')}` });
  }
  const models = pricingModels[offer.providerSlug];
  if (line > 0 && models !== undefined && !models.includes(offer.pricingModel)) {
    errors.push({
      file,
      line,
      field: 'pricingModel',
      message: `${offer.pricingModel} is outside the import scope of ${offer.providerSlug} (${models.join(', ')})`,
    });
  }
  // Each error at the line of the field it is about, with the names the catalog knows that are closest.
  const at = (field: string) => ({ file, line: line > 0 ? lineOf(row, field) : line, field });
  if (!known.providerSlugs.has(offer.providerSlug)) {
    errors.push({ ...at('provider'), message: `${unknownIdentifierMessage('provider', offer.providerSlug, known.providerSlugs)}${where}` });
  }
  const owner = known.regionProvider.get(offer.regionCode);
  if (owner === undefined) {
    const ofProvider = [...known.regionProvider].filter(([, p]) => p === offer.providerSlug).map(([code]) => code);
    const candidates = ofProvider.length ? ofProvider : known.regionProvider.keys();
    errors.push({ ...at('region'), message: `${unknownIdentifierMessage('region', offer.regionCode, candidates)}${where}` });
  } else if (owner !== offer.providerSlug) {
    errors.push({ ...at('region'), message: `region ${offer.regionCode} belongs to ${owner}, not ${offer.providerSlug}` });
  }
  if (!known.gpuSlugs.has(offer.gpuSlug)) errors.push({ ...at('gpu'), message: `${unknownIdentifierMessage('GPU', offer.gpuSlug, known.gpuSlugs)}${where}` });
  if (fxRates && offer.currency !== fxRates.base && fxRates.rates[offer.currency] === undefined) {
    errors.push({ ...at('currency'), message: `no FX rate for ${offer.currency} in this catalog${where}` });
  }
}
