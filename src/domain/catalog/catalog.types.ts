// The catalog as plain data: what one catalog version contains. Everything in src/domain works on
// these types and imports nothing from Nest, Prisma or HTTP.
import type { Decimal } from 'decimal.js';

export const PRICING_MODELS = ['ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

export const PROVIDER_KINDS = ['HYPERSCALER', 'NEOCLOUD', 'MARKETPLACE', 'REGIONAL'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const CURRENCIES = ['USD', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface Provider {
  slug: string; // 'aws'
  name: string;
  kind: ProviderKind;
  /** ISO 3166-1 alpha-2 country of the operator's headquarters, e.g. 'US', 'FR'. */
  headquartersCountry: string;
  /** Published availability SLA in percent (99.9), if any. */
  slaPercent: Decimal | null;
  /** Certification codes, e.g. ['ISO27001', 'SOC2', 'BSI_C5']. */
  certifications: string[];
  egressUsdPerGb: Decimal | null;
  website: string | null;
  source: string | null;
}

export interface Region {
  /** Globally unique: '<provider>:<provider's region code>', e.g. 'aws:eu-central-1'. */
  code: string;
  providerSlug: string;
  name: string;
  city: string | null;
  /** ISO 3166-1 alpha-2; jurisdiction (EU, EEA, adequacy) is derived from it. */
  country: string;
}

export interface GpuModel {
  slug: string; // 'h100-sxm-80gb'
  vendor: string;
  name: string;
  memoryGb: Decimal;
  memoryBandwidthGbps: Decimal;
  /** Dense (no sparsity) peak. */
  fp16Tflops: Decimal;
  int8Tops: Decimal;
  fp8Tflops: Decimal | null;
  fp8Support: boolean;
  source: string | null;
}

export interface Offer {
  /** md5 of the natural key; stable across versions. */
  keyHash: string;
  providerSlug: string;
  regionCode: string;
  gpuSlug: string;
  /** GPUs in one instance (the unit the provider bills). */
  gpuCount: number;
  instanceType: string;
  pricingModel: PricingModel;
  /** Price of one instance-hour; for SERVERLESS, one instance busy for one full hour. */
  pricePerHour: Decimal;
  currency: Currency;
  /** Reserved: paid once for the term, in `currency`. */
  upfront: Decimal | null;
  termMonths: number | null;
  /** Serverless: the price as the provider quotes it, e.g. 0.000305 per 'GPU_SECOND'. */
  serverlessUnitPrice: Decimal | null;
  serverlessUnit: string | null;
  /** Spot: seconds of warning before an interruption (AWS: 120). */
  interruptionNoticeSeconds: number | null;
  sourceUrl: string;
  sourceTitle: string | null;
  /** ISO date (YYYY-MM-DD) the price was read from the source. */
  observedAt: string;
  /** True when the figure was computed from a rule rather than read; `derivation` says how. */
  derived: boolean;
  derivation: string | null;
}

/** FX rates of a version: 1 unit of `base` buys `rates[c]` units of currency c. */
export interface FxRates {
  base: Currency;
  rates: Partial<Record<Currency, string>>;
  /** ISO date of the rates. */
  date: string;
  source: string;
}

export interface CatalogVersionInfo {
  id: string;
  seq: number;
  label: string;
  source: string;
  notes: string | null;
  checksum: string;
  createdAt: Date;
  /** First time the version was made current; null for a draft never published. */
  publishedAt: Date | null;
  current: boolean;
  offerCount: number;
  rowsWritten: number;
  fxRates: FxRates;
}

/** Everything one version holds. Versions are immutable, so a loaded content never goes stale. */
export interface CatalogContent {
  providers: Provider[];
  regions: Region[];
  gpus: GpuModel[];
  offers: Offer[];
  fxRates: FxRates;
}
