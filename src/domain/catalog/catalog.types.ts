// The catalog as plain data: what one catalog version contains. Everything in src/domain works on
// these types and imports nothing from Nest, Prisma or HTTP.
import type { Decimal } from 'decimal.js';

/** The AWS Spot Instance Advisor's interruption-frequency bands (its `ranges[].label`), lowest first. */
export const INTERRUPTION_RATES = ['<5%', '5-10%', '10-15%', '15-20%', '>20%'] as const;
export type InterruptionRate = (typeof INTERRUPTION_RATES)[number];

/**
 * MONTHLY: a dedicated server rented by the month (Hetzner's GEX line): a monthly price, a one-time
 * setup fee (`upfront`) and a minimum term (`termMonths`). Last, so that the enum's order in the
 * database (values are only ever appended) and here agree.
 */
export const PRICING_MODELS = ['ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS', 'MONTHLY'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

/** Hours in a billing month, as everywhere in the API (docs/cost-model.md#units-and-conventions). */
export const HOURS_PER_MONTH = 730;

export const PROVIDER_KINDS = ['HYPERSCALER', 'NEOCLOUD', 'MARKETPLACE', 'REGIONAL'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const CURRENCIES = ['USD', 'EUR'] as const;

/**
 * LIST: read from the provider's own price list, API or pricing page (a pure unit conversion such
 * as monthly / 730 h stays LIST and says so in `conversion`). ESTIMATE: computed by a named rule
 * from named inputs (`derivation`); ranked only when a caller opts in with includeEstimates.
 */
export const PRICE_KINDS = ['LIST', 'ESTIMATE'] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];
export type Currency = (typeof CURRENCIES)[number];

/**
 * Where a price was read, best first: the provider's own price API or feed; its own pricing page or
 * rate card (dated); a third party's copy of the provider's price data as the provider published it
 * (a dump of its API, a byte-for-byte page capture, a catalog built by a program from its feed); a
 * third party's transcription (prices retyped or re-tabulated by a person or a page scraper into
 * their own document, so the provider's own words are not kept); an announcement (blog post, press
 * release, article), which is never a LIST price. `minSourceKind` in a policy ranks only offers at
 * least this good.
 */
export const SOURCE_KINDS = ['PROVIDER_API', 'PROVIDER_PAGE', 'MIRROR', 'TRANSCRIPTION', 'ANNOUNCEMENT'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** How good a source kind is: higher is better; a kind not recorded (null) ranks below every kind. */
export function sourceKindRank(kind: SourceKind | null): number {
  return kind === null ? -1 : SOURCE_KINDS.length - 1 - SOURCE_KINDS.indexOf(kind);
}

/**
 * CONFIRMED: the provider's own availability data (machine-type zones, instance-type offerings,
 * SKU availability) says the instance type is sold in the region under the pricing model.
 * UNCONFIRMED: the provider publishes no such data for it (or the catalog holds none); the price
 * may be real while the capacity cannot be ordered there.
 * LISTED_NOT_ORDERABLE: the provider's own catalogue prices it but says it cannot be ordered
 * (coming soon, fully allocated, unavailable); the offer row says so with the source in its
 * availabilityNote. Such an offer never ranks (docs/api.md#orderability).
 */
export const AVAILABILITIES = ['CONFIRMED', 'UNCONFIRMED', 'LISTED_NOT_ORDERABLE'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

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

/** A marketplace's asking prices for one GPU type and region on one day, per instance-hour in the offer's currency. */
export interface MarketPrices {
  /** Percentiles of the hosts' asking prices (nearest rank, as the source computes them). */
  p10: Decimal;
  median: Decimal;
  p90: Decimal;
  /** How many host offers the percentiles summarize. */
  sampleSize: number;
  /** The hosts' reliability score as the marketplace publishes it (0 to 1; median of the sample); null: not published. */
  hostReliability: Decimal | null;
  /** Interruptible capacity: interruptions per instance-hour the estimate assumes (derivation in `basis`); null otherwise. */
  interruptionsPerHour: Decimal | null;
  /** Which hosts the sample holds (verified, datacentre) and how any figure above was derived. */
  basis: string;
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
  /** Reserved: paid once for the term; MONTHLY: the one-time setup fee; in `currency`. */
  upfront: Decimal | null;
  /** Reserved: the term; MONTHLY: the minimum term. */
  termMonths: number | null;
  /** Serverless: the price as the provider quotes it, e.g. 0.000305 per 'GPU_SECOND'. */
  serverlessUnitPrice: Decimal | null;
  serverlessUnit: string | null;
  /** Spot: seconds of warning before an interruption (AWS: 120). */
  interruptionNoticeSeconds: number | null;
  /**
   * Spot: the provider's band of how often such instances were interrupted over the last month
   * (AWS Spot Instance Advisor). Absent, not null, when unknown, so offers without it keep their content hash.
   */
  interruptionRate?: InterruptionRate;
  /**
   * Marketplace offers (Vast.ai): the spread of the hosts' asking prices on observedAt, of which
   * pricePerHour is the median. Absent, not null, on other offers, so their content hash stays.
   */
  market?: MarketPrices;
  sourceUrl: string;
  sourceTitle: string | null;
  /** ISO date (YYYY-MM-DD) the price was read from the source. */
  observedAt: string;
  priceKind: PriceKind;
  /** ESTIMATE only: the rule and its inputs. */
  derivation: string | null;
  /** LIST only, optional: the unit conversion applied to the figure as read (e.g. monthly / 730 h). */
  conversion: string | null;
  /** What kind of source the price was read from; null for offers imported before this was recorded. */
  sourceKind: SourceKind | null;
  /**
   * Whether the provider's own availability data confirms the offer can be ordered there (derived
   * at import), or its own catalogue says it cannot be (LISTED_NOT_ORDERABLE, stated by the row).
   */
  availability: Availability;
  /** Why: the availability record that confirms it, why it could not be confirmed, or the provider's words and source. */
  availabilityNote: string | null;
  /** ISO dates, inclusive: the days the price holds (a promotion, an announced change); null: open. */
  validFrom: string | null;
  validUntil: string | null;
}

/**
 * Where a provider sells an instance type, from its own availability data (GCP's machine-type and
 * accelerator zones, AWS's instance-type offerings per region, Azure's SKU availability). For a
 * provider with records, an offer of a listed instance type in a region (or under a pricing model)
 * the record does not name is refused at import; an instance type without a record stays
 * UNCONFIRMED.
 */
export interface AvailabilityRecord {
  provider: string;
  /** The provider's instance type; offers named "<type> (<purchase option>)" match it too. */
  instanceType: string;
  /** Full region codes ('gcp:europe-west4') where the type is sold. */
  regions: string[];
  /**
   * True when the source lists every region the provider sells the type in (GCP's zone list of a
   * machine type): an offer in another region is refused. False for a partial list (one account's
   * SKU list): another region stays UNCONFIRMED.
   */
  listsEveryRegion: boolean;
  /** The only pricing models it is sold under (A3 High 1g: SPOT); null: every model. */
  pricingModels: PricingModel[] | null;
  source: string;
  /** ISO date the source read the availability from the provider. */
  observedAt: string;
  note: string | null;
}

/** What a reference figure is compared with among a version's list prices. */
export const REFERENCE_METRICS = ['PRICE_PER_GPU_HOUR', 'DISCOUNT_PERCENT', 'EGRESS_PER_GB', 'NONE'] as const;
export type ReferenceMetric = (typeof REFERENCE_METRICS)[number];

/**
 * A figure quoted by an article or analyst: never an offer, but kept (with its source and date)
 * to show how far the claim is from the list prices of the same version.
 */
export interface ReferenceFigure {
  /** Unique within a version, a slug: 'article-2026-03-aws-h100-on-demand'. */
  key: string;
  /** What the source claims, in words. */
  claim: string;
  metric: ReferenceMetric;
  /** The figure; a range has `valueHigh` too. */
  value: Decimal;
  valueHigh: Decimal | null;
  /** Prices: the currency of the figure; null for percentages. */
  currency: Currency | null;
  /** Compared with list offers of this provider (null: any provider). */
  provider: string | null;
  /** ... of these GPU models (empty: any). */
  gpus: string[];
  /** PRICE: the pricing model; DISCOUNT: the model whose discount against ON_DEMAND is claimed. */
  pricingModel: PricingModel | null;
  source: string;
  /** ISO date of the source. */
  publishedOn: string;
  note: string | null;
}

/** What an energy figure gives (docs/carbon.md): the row kinds of the catalog's energy section. */
export const ENERGY_FIGURE_KINDS = ['GRID_INTENSITY', 'PUE', 'GPU_POWER', 'IDLE_POWER_SHARE'] as const;
export type EnergyFigureKind = (typeof ENERGY_FIGURE_KINDS)[number];

/**
 * How a grid intensity was made (docs/carbon.md): PROVIDER, the cloud provider's own figure for its
 * region (Google's region-carbon-info); ELECTRICITY_MAPS, Electricity Maps' yearly average of the
 * grid zone or country the region lies in. Answers name it, so figures of two methods are never
 * compared unlabelled.
 */
export const GRID_SOURCES = ['PROVIDER', 'ELECTRICITY_MAPS'] as const;
export type GridSource = (typeof GRID_SOURCES)[number];

/**
 * One sourced energy figure of a version (data/catalog/energy.yaml), imported and diffed like
 * prices. GRID_INTENSITY: g CO2e per kWh, location-based, for a region code ("gcp:europe-west1")
 * or, as the fallback for the regions of a country, an ISO country ("SE"), with its gridSource; PUE:
 * a region code (a figure the provider publishes for that site), a provider slug (its fleet) or
 * "default"; GPU_POWER: board power (TDP) in watts of a GPU slug; IDLE_POWER_SHARE: the share of
 * the board power drawn at 0% utilization, subject "default".
 */
export interface EnergyFigure {
  kind: EnergyFigureKind;
  subject: string;
  value: Decimal;
  /** The year the figure is for (a grid's annual average, a PUE's reporting year, a datasheet's). */
  year: number;
  /** An http(s) URL: where the figure was read. */
  source: string;
  /** How it was derived or what it stands for; null when read as is. */
  note: string | null;
  /** GRID_INTENSITY only: the method; absent on other kinds (and on versions written before it existed). */
  gridSource?: GridSource;
}

/** An energy figure's identity across versions: "GRID_INTENSITY|gcp:europe-west1". */
export function energyFigureKey(f: Pick<EnergyFigure, 'kind' | 'subject'>): string {
  return `${f.kind}|${f.subject}`;
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
  /** How fresh each provider's prices are; null for versions written before this was recorded. */
  providerObservations: ProviderObservations[] | null;
}

export interface ProviderObservations {
  provider: string;
  offers: number;
  /** ISO dates: the oldest and newest observedAt of the provider's offers in the version. */
  oldest: string;
  newest: string;
}

/** Per provider, the range of observation dates of its offers (sorted by provider). */
export function providerObservations(offers: readonly Offer[]): ProviderObservations[] {
  const by = new Map<string, ProviderObservations>();
  for (const o of offers) {
    const p = by.get(o.providerSlug);
    if (!p) by.set(o.providerSlug, { provider: o.providerSlug, offers: 1, oldest: o.observedAt, newest: o.observedAt });
    else {
      p.offers += 1;
      if (o.observedAt < p.oldest) p.oldest = o.observedAt;
      if (o.observedAt > p.newest) p.newest = o.observedAt;
    }
  }
  return [...by.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1));
}

/** Everything one version holds. Versions are immutable, so a loaded content never goes stale. */
export interface CatalogContent {
  providers: Provider[];
  regions: Region[];
  gpus: GpuModel[];
  offers: Offer[];
  referenceFigures: ReferenceFigure[];
  availability: AvailabilityRecord[];
  /** Energy figures (docs/carbon.md); absent in versions written before the section existed. */
  energy?: EnergyFigure[];
  fxRates: FxRates;
}
