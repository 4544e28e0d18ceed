// The rows of a catalog file and their rules. Files keep every scalar as text (see
// catalog-files.ts), so a price is never read as a float: decimals are parsed from their digits.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { CURRENCIES, PRICING_MODELS, PROVIDER_KINDS } from './catalog.types.js';

const text = z.string().trim().min(1, 'must not be empty');
const optionalText = z
  .string()
  .trim()
  .optional()
  .nullable()
  .transform((v) => (v === undefined || v === null || v === '' ? null : v));
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a lower-case slug (a-z, 0-9, -)');
const country = z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in capitals (DE, US)');
const decimal = (rule: { min?: number; max?: number; positive?: boolean } = {}) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal number such as 3.90')
    .transform((v) => new Decimal(v))
    .refine((d) => !rule.positive || d.gt(0), 'must be greater than 0')
    .refine((d) => rule.max === undefined || d.lte(rule.max), `must be at most ${rule.max}`);
// Empty cells and explicit nulls mean "not given"; anything else must be a valid decimal, and
// its error names the rule (a union would only say "Invalid input").
const blankToNull = (v: unknown): unknown => (v === '' || v === undefined ? null : v);
const optionalDecimal = (rule?: Parameters<typeof decimal>[0]) =>
  z.preprocess(blankToNull, decimal(rule).nullable()).optional().transform((v) => v ?? null);
const int = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);
const optionalInt = (min: number, max: number) =>
  z.preprocess(blankToNull, int(min, max).nullable()).optional().transform((v) => v ?? null);
const bool = z
  .enum(['true', 'false', 'yes', 'no', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === 'yes' || v === '1');
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be an ISO date (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a real date');
// A public price page (URL) or a document cited by title and date.
const sourceRef = z.string().trim().min(3, 'must name the source: a URL or a document');
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
    rates: z.partialRecord(z.enum(CURRENCIES), decimal({ positive: true }).transform((d) => d.toString())),
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
  egressUsdPerGb: optionalDecimal(),
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
  memoryGb: decimal({ positive: true }),
  memoryBandwidthGbps: decimal({ positive: true }),
  fp16Tflops: decimal({ positive: true }),
  int8Tops: decimal({ positive: true }),
  fp8Tflops: optionalDecimal({ positive: true }),
  fp8Support: bool,
  source: optionalText,
});

export const offerRowSchema = z
  .strictObject({
    provider: slug,
    region: text,
    gpu: slug,
    gpuCount: int(1, 64),
    instanceType: text,
    pricingModel: z.enum(PRICING_MODELS),
    pricePerHour: optionalDecimal(),
    pricePerGpuHour: optionalDecimal(),
    currency: z.enum(CURRENCIES),
    upfront: optionalDecimal(),
    termMonths: optionalInt(1, 120),
    serverlessUnitPrice: optionalDecimal(),
    serverlessUnit: z
      .union([z.enum(['GPU_SECOND', 'GPU_HOUR']), z.literal(''), z.null()])
      .optional()
      .transform((v) => (v ? v : null)),
    interruptionNoticeSeconds: optionalInt(0, 86_400),
    source: sourceRef,
    sourceTitle: optionalText,
    observedAt: isoDate,
    derived: z.union([bool, z.literal(''), z.null()]).optional().transform((v) => v === true),
    derivation: optionalText,
  })
  .superRefine((row, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if ((row.pricePerHour === null) === (row.pricePerGpuHour === null)) {
      issue('pricePerHour', 'give exactly one of pricePerHour (per instance) and pricePerGpuHour');
    }
    const reserved = row.pricingModel === 'RESERVED_1Y' || row.pricingModel === 'RESERVED_3Y';
    if (reserved && row.termMonths !== (row.pricingModel === 'RESERVED_1Y' ? 12 : 36)) {
      issue('termMonths', `must be ${row.pricingModel === 'RESERVED_1Y' ? 12 : 36} for ${row.pricingModel}`);
    }
    if (!reserved && (row.termMonths !== null || row.upfront !== null)) {
      issue(row.upfront !== null ? 'upfront' : 'termMonths', 'only reserved offers have an upfront payment or a term');
    }
    const serverless = row.pricingModel === 'SERVERLESS';
    if (serverless !== (row.serverlessUnitPrice !== null && row.serverlessUnit !== null)) {
      issue('serverlessUnitPrice', serverless ? 'serverless offers need serverlessUnitPrice and serverlessUnit' : 'only serverless offers have a serverless unit price');
    }
    if (row.interruptionNoticeSeconds !== null && row.pricingModel !== 'SPOT') {
      issue('interruptionNoticeSeconds', 'only spot offers have an interruption notice');
    }
    if (row.derived && row.derivation === null) issue('derivation', 'a derived figure must say how it was derived');
    if (!row.derived && row.derivation !== null) issue('derived', 'must be true when a derivation is given');
  });

export type CatalogMetaRow = z.infer<typeof catalogMetaSchema>;
export type ProviderRow = z.infer<typeof providerRowSchema>;
export type RegionRow = z.infer<typeof regionRowSchema>;
export type GpuRow = z.infer<typeof gpuRowSchema>;
export type OfferRow = z.infer<typeof offerRowSchema>;
