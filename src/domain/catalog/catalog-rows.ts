// The rows of a catalog file and their rules. Files keep every scalar as text (see
// catalog-files.ts), so a price is never read as a float: decimals are parsed from their digits.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import {
  CURRENCIES,
  ENERGY_FIGURE_KINDS,
  GRID_SOURCES,
  INTERRUPTION_RATES,
  PRICE_KINDS,
  PRICING_MODELS,
  PROVIDER_KINDS,
  REFERENCE_METRICS,
  SOURCE_KINDS,
} from './catalog.types.js';
import { PRICING_MODEL_TRAITS, pricingModelsWhere } from './pricing-model-traits.js';

/**
 * What the database stores exactly (prisma/schema.prisma): a price with more fraction digits or a
 * larger value than this is refused at validation, with its file and line, instead of being
 * rounded on write (a phantom change on every re-import) or failing late in the database.
 */
export const PRICE_LIMITS = { fractionDigits: 15, max: 1_000_000 } as const;
export const UPFRONT_LIMITS = { fractionDigits: 6, max: 1_000_000_000 } as const;

/** What a DISCOUNT_PERCENT figure may be about: every model but the list price it is measured from. */
const DISCOUNTED_MODELS = pricingModelsWhere((t) => !t.isDiscountBase);

const text = z.string().trim().min(1, 'must not be empty');
const optionalText = z
  .string()
  .trim()
  .optional()
  .nullable()
  .transform((v) => (v === undefined || v === null || v === '' ? null : v));
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a lower-case slug (a-z, 0-9, -)');
const country = z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in capitals (DE, US)');
const decimal = (rule: { min?: number; max?: number; positive?: boolean; fractionDigits?: number } = {}) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal number such as 3.90')
    .refine(
      (v) => rule.fractionDigits === undefined || (v.split('.')[1] ?? '').replace(/0+$/, '').length <= rule.fractionDigits,
      `must have at most ${rule.fractionDigits} digits after the decimal point (stored exactly)`,
    )
    .transform((v) => new Decimal(v))
    .refine((d) => !rule.positive || d.gt(0), 'must be greater than 0')
    .refine((d) => rule.max === undefined || d.lte(rule.max), `must be at most ${rule.max}`);
// Empty cells and explicit nulls mean "not given"; anything else must be a valid decimal, and
// its error names the rule (a union would only say "Invalid input").
const blankToNull = (v: unknown): unknown => (v === '' || v === undefined ? null : v);
const optionalDecimal = (rule?: Parameters<typeof decimal>[0]) =>
  z
    .preprocess(blankToNull, decimal(rule).nullable())
    .optional()
    .transform((v) => v ?? null);
const int = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);
const optionalInt = (min: number, max: number) =>
  z
    .preprocess(blankToNull, int(min, max).nullable())
    .optional()
    .transform((v) => v ?? null);
const bool = z.enum(['true', 'false', 'yes', 'no', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === 'yes' || v === '1');
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be an ISO date (YYYY-MM-DD)')
  // Date.parse rolls 2026-02-30 over to 2026-03-02: a real date reads back as itself.
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
  }, 'must be a real date');
const optionalIsoDate = z
  .preprocess(blankToNull, isoDate.nullable())
  .optional()
  .transform((v) => v ?? null);
/**
 * An absolute http:// or https:// URL. Sources are shown as links (the dashboard, and any client
 * may do the same): a javascript: or data: URL there would run or show what the row wrote.
 */
function isHttpUrl(value: string): boolean {
  // No whitespace or control characters: a browser drops tabs and newlines inside a URL.
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (!/^https?:\/\/[^\s\x00-\x1f\x7f]+$/i.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}
/** An http(s) URL, then optionally a note after a space: "https://… (what the page lists)". */
function startsWithHttpUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return !/[\x00-\x1f\x7f]/.test(value) && isHttpUrl(value.split(' ', 1)[0] ?? '');
}
const HTTP_URL_RULE = 'must be an http:// or https:// URL';
// Where a price was read: a page or a file, by its URL alone (the dashboard links it as it is).
const sourceUrl = z.string().trim().refine(isHttpUrl, HTTP_URL_RULE);
// Where a region list was read: its URL, and what it is after a space.
const sourceUrlWithNote = z.string().trim().refine(startsWithHttpUrl, `${HTTP_URL_RULE}, optionally followed by a note after a space`);
// A scheme, as a URL begins: "javascript:", "data:", "https:".
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// The label of a cited article (data/catalog/SOURCES.md): "A1: <title> (<date>): '<quote>'". It reads like a
// scheme, but a letter and digits names no scheme a browser acts on.
const CITATION_LABEL = /^[a-z]\d+$/i;
/**
 * A reference figure's source: an http(s) URL, or a document cited by title and date. A citation
 * that a browser would read as a URL of another scheme is refused, and so are control
 * characters, which a browser removes from a URL ("java\tscript:").
 */
const figureSource = z
  .string()
  .trim()
  .min(3, 'must name the source: a URL or a document')
  .refine((v) => {
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    if (/[\x00-\x1f\x7f]/.test(v)) return false;
    const scheme = SCHEME.exec(v)?.[1]?.toLowerCase();
    if (scheme === undefined) return true;
    return scheme === 'http' || scheme === 'https' ? startsWithHttpUrl(v) : CITATION_LABEL.test(scheme);
  }, `${HTTP_URL_RULE}, or a document cited by title (no other scheme such as javascript:, no control characters)`);
const list = z
  .union([z.array(z.string()), z.string()])
  .optional()
  .nullable()
  .transform((v) => (v == null ? [] : Array.isArray(v) ? v : v.split(/[;,]/)).map((s) => s.trim()).filter(Boolean));

export const catalogMetaSchema = z.strictObject({
  label: text.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be letters, digits, . _ : -'),
  source: text,
  notes: optionalText,
  fx: z.strictObject({
    base: z.enum(CURRENCIES),
    rates: z.partialRecord(
      z.enum(CURRENCIES),
      decimal({ positive: true }).transform((d) => d.toString()),
    ),
    date: isoDate,
    source: text,
  }),
});

export const providerRowSchema = z.strictObject({
  slug,
  name: text,
  kind: z.enum(PROVIDER_KINDS),
  headquartersCountry: country,
  slaPercent: optionalDecimal({ max: 100 }),
  certifications: list.transform((l) => [...new Set(l.map((c) => c.toUpperCase()))].sort()),
  egressUsdPerGb: optionalDecimal({ fractionDigits: 4, max: 1_000 }),
  website: optionalText,
  source: optionalText,
});

export const regionRowSchema = z.strictObject({
  code: z.string().regex(/^[a-z0-9-]+:[A-Za-z0-9._-]+$/, 'must be "<provider>:<region>", e.g. aws:eu-central-1'),
  provider: slug,
  name: text,
  city: optionalText,
  country,
});

export const gpuRowSchema = z.strictObject({
  slug,
  vendor: text,
  name: text,
  // The columns keep two places (numeric(8|10, 2)): more would be rounded silently on write.
  memoryGb: decimal({ positive: true, fractionDigits: 2, max: 999_999 }),
  memoryBandwidthGbps: decimal({ positive: true, fractionDigits: 2, max: 99_999_999 }),
  fp16Tflops: decimal({ positive: true, fractionDigits: 2, max: 99_999_999 }),
  int8Tops: decimal({ positive: true, fractionDigits: 2, max: 99_999_999 }),
  fp8Tflops: optionalDecimal({ positive: true, fractionDigits: 2, max: 99_999_999 }),
  fp8Support: bool,
  source: optionalText,
});

const price = () => optionalDecimal(PRICE_LIMITS);

export const offerRowSchema = z
  .strictObject({
    provider: slug,
    region: text,
    gpu: slug,
    gpuCount: int(1, 64),
    instanceType: text,
    pricingModel: z.enum(PRICING_MODELS),
    pricePerHour: price(),
    pricePerGpuHour: price(),
    /** MONTHLY only: the price of one server for a month, as the provider lists it. */
    pricePerMonth: optionalDecimal({ fractionDigits: 6, max: 10_000_000 }),
    currency: z.enum(CURRENCIES),
    upfront: optionalDecimal(UPFRONT_LIMITS),
    termMonths: optionalInt(1, 120),
    serverlessUnitPrice: optionalDecimal({ fractionDigits: 9, max: 1_000 }),
    serverlessUnit: z
      .union([z.enum(['GPU_SECOND', 'GPU_HOUR']), z.literal(''), z.null()])
      .optional()
      .transform((v) => (v ? v : null)),
    interruptionNoticeSeconds: optionalInt(0, 86_400),
    interruptionRate: z.enum(INTERRUPTION_RATES, { error: `must be one of ${INTERRUPTION_RATES.join(', ')}` }).optional(),
    /** Marketplace offers: the spread of the hosts' asking prices, in the unit of the row's price (per instance- or GPU-hour). */
    market: z
      .strictObject({
        p10: decimal({ ...PRICE_LIMITS, positive: true }),
        median: decimal({ ...PRICE_LIMITS, positive: true }),
        p90: decimal({ ...PRICE_LIMITS, positive: true }),
        sampleSize: int(1, 1_000_000),
        hostReliability: optionalDecimal({ fractionDigits: 6, max: 1 }),
        interruptionsPerHour: optionalDecimal({ fractionDigits: 9, max: 10 }),
        basis: text,
      })
      .optional(),
    priceKind: z.enum(PRICE_KINDS, { error: `must be one of ${PRICE_KINDS.join(', ')}` }),
    source: sourceUrl,
    sourceTitle: optionalText,
    observedAt: isoDate,
    derivation: optionalText,
    conversion: optionalText,
    sourceKind: z.enum(SOURCE_KINDS, { error: `must be one of ${SOURCE_KINDS.join(', ')}` }),
    /** Only LISTED_NOT_ORDERABLE may be written: CONFIRMED and UNCONFIRMED are derived at import from availability.yaml. */
    availability: z
      .literal('LISTED_NOT_ORDERABLE', { error: 'may only be LISTED_NOT_ORDERABLE (CONFIRMED and UNCONFIRMED are derived from availability.yaml)' })
      .nullish()
      .transform((v) => v ?? null),
    availabilityNote: optionalText,
    validFrom: optionalIsoDate,
    validUntil: optionalIsoDate,
  })
  .superRefine((row, ctx) => {
    // zod runs this even when a field failed (its value then is the raw input): the rules across
    // fields are checked once every field they read has parsed, the field errors say the rest.
    if (!fieldsParsed(row)) return;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (row.availability === 'LISTED_NOT_ORDERABLE' && !/https?:\/\/\S/.test(row.availabilityNote ?? '')) {
      issue('availabilityNote', "a LISTED_NOT_ORDERABLE offer needs the provider's words and their source (an http(s) address) in availabilityNote");
    }
    if (row.sourceKind === 'ANNOUNCEMENT' && row.priceKind === 'LIST') {
      issue(
        'sourceKind',
        'an ANNOUNCEMENT (blog post, press release, article) is never a LIST price: make it a reference figure (referenceFigures), or an ESTIMATE with its derivation',
      );
    }
    if (row.validFrom !== null && row.validUntil !== null && row.validUntil < row.validFrom)
      issue('validUntil', `must not be before validFrom ${row.validFrom}`);
    const traits = PRICING_MODEL_TRAITS[row.pricingModel];
    if (traits.term === 'MINIMUM') {
      if (row.pricePerMonth === null) issue('pricePerMonth', `${row.pricingModel} offers give pricePerMonth (the hourly price is derived: ÷ 730)`);
      if (row.pricePerHour !== null || row.pricePerGpuHour !== null)
        issue('pricePerHour', `${row.pricingModel} offers give pricePerMonth, not an hourly price`);
    } else if (row.pricePerMonth !== null) {
      issue('pricePerMonth', 'only MONTHLY offers have a monthly price');
    } else if ((row.pricePerHour === null) === (row.pricePerGpuHour === null)) {
      issue('pricePerHour', 'give exactly one of pricePerHour (per instance) and pricePerGpuHour');
    }
    if (row.pricePerGpuHour !== null && row.pricePerGpuHour.mul(row.gpuCount).decimalPlaces() > PRICE_LIMITS.fractionDigits) {
      issue('pricePerGpuHour', `times gpuCount must have at most ${PRICE_LIMITS.fractionDigits} digits after the decimal point`);
    }
    if (traits.term === 'FIXED' && row.termMonths !== traits.termMonths) {
      issue('termMonths', `must be ${traits.termMonths} for ${row.pricingModel}`);
    }
    if (traits.term === 'MINIMUM' && row.termMonths === null) issue('termMonths', `${row.pricingModel} offers state their minimum term in months`);
    const badUpfront = traits.upfront === 'NOT_ALLOWED' && row.upfront !== null;
    if (badUpfront || (traits.term === 'NONE' && row.termMonths !== null)) {
      issue(badUpfront ? 'upfront' : 'termMonths', 'only reserved and monthly offers have an upfront payment (setup fee) or a term');
    }
    const serverless = traits.billedByBusyTime;
    if (serverless !== (row.serverlessUnitPrice !== null && row.serverlessUnit !== null)) {
      issue(
        'serverlessUnitPrice',
        serverless ? 'serverless offers need serverlessUnitPrice and serverlessUnit' : 'only serverless offers have a serverless unit price',
      );
    }
    if (row.interruptionNoticeSeconds !== null && !traits.interruptible) {
      issue('interruptionNoticeSeconds', 'only spot offers have an interruption notice');
    }
    if (row.interruptionRate !== undefined && !traits.interruptible) issue('interruptionRate', 'only spot offers have an interruption rate');
    const m = row.market;
    if (m !== undefined) {
      if (m.p10.gt(m.median) || m.median.gt(m.p90)) issue('market', 'must hold p10 <= median <= p90');
      const price = row.pricePerHour ?? row.pricePerGpuHour;
      if (price === null || !price.eq(m.median)) {
        issue('market', "median must equal the row's price (pricePerHour or pricePerGpuHour, in the same unit): a marketplace offer ranks by its median");
      }
      if (m.interruptionsPerHour !== null && !traits.interruptible) issue('market', 'only interruptible (SPOT) offers have interruptionsPerHour');
    }
    if (row.priceKind === 'ESTIMATE' && row.derivation === null) issue('derivation', 'an ESTIMATE must name its rule and inputs');
    if (row.priceKind === 'LIST' && row.derivation !== null) {
      issue('derivation', 'only an ESTIMATE has a derivation; a unit conversion of a list price goes in conversion');
    }
    if (row.priceKind === 'ESTIMATE' && row.conversion !== null) issue('conversion', 'only a LIST price has a conversion; say it in derivation');
  });

/** Whether the fields an offer row's cross-field rules read hold their parsed types. */
function fieldsParsed(row: {
  pricePerHour: unknown;
  pricePerGpuHour: unknown;
  pricePerMonth: unknown;
  serverlessUnitPrice: unknown;
  upfront: unknown;
  pricingModel: unknown;
  gpuCount: unknown;
  market?: unknown;
}): boolean {
  const decimalOrNull = (v: unknown) => v === null || v instanceof Decimal;
  return (
    decimalOrNull(row.pricePerHour) &&
    decimalOrNull(row.pricePerGpuHour) &&
    decimalOrNull(row.pricePerMonth) &&
    decimalOrNull(row.serverlessUnitPrice) &&
    decimalOrNull(row.upfront) &&
    typeof row.gpuCount === 'number' &&
    marketParsed(row.market) &&
    (PRICING_MODELS as readonly unknown[]).includes(row.pricingModel)
  );
}

/** A market block is absent, or its percentiles parsed as Decimals. */
function marketParsed(market: unknown): boolean {
  if (market === undefined) return true;
  if (typeof market !== 'object' || market === null) return false;
  const m = market as Record<string, unknown>;
  return m.p10 instanceof Decimal && m.median instanceof Decimal && m.p90 instanceof Decimal;
}

export const referenceFigureRowSchema = z
  .strictObject({
    key: slug,
    claim: text,
    metric: z.enum(REFERENCE_METRICS, { error: `must be one of ${REFERENCE_METRICS.join(', ')}` }),
    value: decimal({ max: 1_000_000 }),
    valueHigh: optionalDecimal({ max: 1_000_000 }),
    currency: z
      .preprocess(blankToNull, z.enum(CURRENCIES).nullable())
      .optional()
      .transform((v) => v ?? null),
    provider: z
      .preprocess(blankToNull, slug.nullable())
      .optional()
      .transform((v) => v ?? null),
    gpus: list,
    pricingModel: z
      .preprocess(blankToNull, z.enum(PRICING_MODELS).nullable())
      .optional()
      .transform((v) => v ?? null),
    source: figureSource,
    publishedOn: isoDate,
    note: optionalText,
  })
  .superRefine((row, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    // As above: a field that failed holds its raw input here.
    const parsed = (v: unknown) => v === null || v instanceof Decimal;
    if (row.valueHigh !== null && parsed(row.valueHigh) && parsed(row.value) && row.valueHigh.lt(row.value)) issue('valueHigh', 'must not be below value');
    const money = row.metric === 'PRICE_PER_GPU_HOUR' || row.metric === 'EGRESS_PER_GB';
    if (money && row.currency === null) issue('currency', `is required for ${row.metric}`);
    if (!money && row.currency !== null) issue('currency', `a ${row.metric} figure has no currency`);
    if (row.metric === 'PRICE_PER_GPU_HOUR' && row.pricingModel === null) issue('pricingModel', 'is required for PRICE_PER_GPU_HOUR');
    if (row.metric === 'DISCOUNT_PERCENT' && (row.pricingModel === null || PRICING_MODEL_TRAITS[row.pricingModel]?.isDiscountBase !== false)) {
      issue('pricingModel', `must name the discounted model (${DISCOUNTED_MODELS.join(', ')}) for DISCOUNT_PERCENT`);
    }
    if (row.metric === 'EGRESS_PER_GB' && row.provider === null) issue('provider', 'is required for EGRESS_PER_GB');
  });

export const availabilityRowSchema = z.strictObject({
  provider: slug,
  instanceType: text,
  regions: list.refine((l) => l.length > 0, 'must list at least one region'),
  listsEveryRegion: bool,
  pricingModels: z
    .preprocess(blankToNull, z.union([z.array(z.enum(PRICING_MODELS, { error: `must be one of ${PRICING_MODELS.join(', ')}` })), z.null()]))
    .optional()
    .transform((v) => (v == null || v.length === 0 ? null : [...new Set(v)])),
  source: sourceUrlWithNote,
  observedAt: isoDate,
  note: optionalText,
});

/**
 * A row of the energy section: every figure names its source (an http(s) URL) and the year it is
 * for, a grid intensity its method (gridSource); a row without them is refused at its line
 * (docs/carbon.md).
 */
export const energyFigureRowSchema = z
  .strictObject({
    kind: z.enum(ENERGY_FIGURE_KINDS, { error: `must be one of ${ENERGY_FIGURE_KINDS.join(', ')}` }),
    subject: text,
    value: decimal({ fractionDigits: 6, max: 100_000 }),
    year: int(1990, 2100),
    source: sourceUrl,
    note: optionalText,
    gridSource: z.enum(GRID_SOURCES, { error: `must be one of ${GRID_SOURCES.join(', ')}` }).optional(),
  })
  .superRefine((row, ctx) => {
    const issue = (path: string, message: string): void => void ctx.addIssue({ code: 'custom', path: [path], message });
    if (row.kind === 'GRID_INTENSITY' && row.gridSource === undefined) {
      issue('gridSource', `a grid intensity names its method: ${GRID_SOURCES.join(' or ')}`);
    }
    if (row.kind !== 'GRID_INTENSITY' && row.gridSource !== undefined) issue('gridSource', 'only a grid intensity has a gridSource');
    if (row.kind === 'PUE' && row.value.lt(1)) issue('value', 'a PUE is at least 1');
    if (row.kind === 'IDLE_POWER_SHARE' && row.value.gte(1)) issue('value', 'an idle share is below 1');
    if (row.kind === 'GPU_POWER' && row.value.lte(0)) issue('value', 'must be greater than 0');
  });

export type CatalogMetaRow = z.infer<typeof catalogMetaSchema>;
export type RegionRow = z.infer<typeof regionRowSchema>;
export type OfferRow = z.infer<typeof offerRowSchema>;
export type AvailabilityRow = z.infer<typeof availabilityRowSchema>;
export type EnergyFigureRow = z.infer<typeof energyFigureRowSchema>;
