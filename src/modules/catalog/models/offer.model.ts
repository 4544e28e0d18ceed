import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import {
  INTERRUPTION_RATES,
  type Availability,
  type Currency,
  type GridSource,
  type MarketPrices,
  type InterruptionRate,
  type PriceKind,
  type PricingModel,
  type SourceKind,
} from '../../../domain/catalog/catalog.types.js';
import { monthlyPriceOf, type OfferQuote } from '../../../domain/compliance/index.js';
import { AvailabilityEnum, GridSourceEnum, PriceKindEnum, PricingModelEnum, SourceKindEnum } from '../../../common/models/enums.js';
import { EnergyFigureAppliedModel } from '../../../common/models/energy-figure.model.js';
import type { OfferEnergy } from '../../../domain/energy/index.js';
import { LRUCache } from 'lru-cache';
import { MoneyModel } from '../../../common/models/money.model.js';
import { writeJsonWith } from '../../../common/http/answer-json.js';

/**
 * The fields whose values come from the catalog (the offer, its region and GPU, its prices in the
 * answer's currency), in the order `of` writes them, and the fields one request decides. Together
 * they are every field; answer-json.spec.ts checks both against the model.
 */
export const OFFER_CATALOG_FIELDS = [
  'id',
  'provider',
  'region',
  'country',
  'gpu',
  'gpuMemoryGb',
  'gpuCount',
  'instanceType',
  'pricingModel',
  'pricePerHour',
  'pricePerGpuHour',
  'listPricePerHour',
  'upfront',
  'termMonths',
  'monthlyPrice',
  'serverlessUnitPrice',
  'serverlessUnit',
  'interruptionNoticeSeconds',
  'interruptionRate',
  'market',
  'source',
  'sourceTitle',
  'observedAt',
  'priceKind',
  'derivation',
  'conversion',
  'sourceKind',
  'availability',
  'availabilityNote',
  'validFrom',
  'validUntil',
  'energy',
  'carbon',
  'gridIntensity',
  'gridSource',
  'energyFigures',
  'carbonUnknownReason',
] as const satisfies readonly (keyof OfferModel)[];
export const OFFER_REQUEST_FIELDS = ['discountPercent', 'instances', 'totalPricePerHour', 'complies'] as const satisfies readonly (keyof OfferModel)[];

/** The text of an offer's catalog fields, `{"id":…,"conversion":…` without the closing brace, and the values it was written from. */
interface CatalogText {
  values: unknown[];
  text: string;
}

/**
 * By offer id: the texts written lately, one per answer currency (or discount, which changes the
 * prices). Bounded: every offer of the bundled catalog in two currencies fits, and a large catalog
 * keeps the offers asked for most (some 2.5 MB at most).
 */
const catalogTexts = new LRUCache<string, CatalogText[]>({ max: 2048 });

/** Is `value` what `kept` was: the same primitive, or a MoneyModel of the same amount and currency. */
function same(value: unknown, kept: unknown): boolean {
  if (value === kept) return true;
  return value instanceof MoneyModel && kept instanceof MoneyModel && value.amount === kept.amount && value.currency === kept.currency;
}

const ENERGY_TEXT =
  'kWh per GPU-hour at full load, PUE included: board power (TDP) / 1000 × PUE (docs/carbon.md); null when the GPU has no sourced board power';
const CARBON_TEXT =
  'g CO2e per GPU-hour at full load, location-based: energy × the grid intensity of the region (docs/carbon.md); null when a figure is missing';
const GRID_TEXT = "g CO2e per kWh of the region's grid (its own figure, else its country's; annual average); null when the offer's energy cannot be computed";
const GRID_SOURCE_TEXT =
  "How gridIntensity was made: PROVIDER (the provider's own figure for the region) or ELECTRICITY_MAPS (the yearly average of the region's grid zone or country); null with gridIntensity";
const FIGURES_TEXT = 'The figures energy and carbon were computed from, each with its basis, source and year (docs/carbon.md); null when one is missing';
const REASON_TEXT = 'Why energy and carbon are null (the board power, PUE or grid intensity missing); null when they are given';

@ObjectType('OfferEnergyFigures', { description: 'The energy figures applied to an offer (docs/carbon.md)' })
export class OfferEnergyFiguresModel {
  @ApiProperty({ type: EnergyFigureAppliedModel, description: 'Board power (TDP), W' })
  @Field(() => EnergyFigureAppliedModel, { description: 'Board power (TDP), W' })
  tdpWatts: EnergyFigureAppliedModel;
  @ApiProperty({ type: EnergyFigureAppliedModel, description: 'PUE: the region’s, else the provider’s fleet figure, else the default (basis DEFAULT)' })
  @Field(() => EnergyFigureAppliedModel, { description: 'PUE: the region’s, else the provider’s fleet figure, else the default (basis DEFAULT)' })
  pue: EnergyFigureAppliedModel;
  @ApiProperty({ type: EnergyFigureAppliedModel, description: 'g CO2e per kWh, with its gridSource' })
  @Field(() => EnergyFigureAppliedModel, { description: 'g CO2e per kWh, with its gridSource' })
  gridIntensity: EnergyFigureAppliedModel;

  /** One per offer energy (the catalog index keeps one per offer): the JSON writer's cache compares by identity. */
  static of(e: OfferEnergy): OfferEnergyFiguresModel {
    let m = figuresWritten.get(e);
    if (!m) {
      m = Object.assign(new OfferEnergyFiguresModel(), {
        tdpWatts: EnergyFigureAppliedModel.of(e.tdpWatts),
        pue: EnergyFigureAppliedModel.of(e.pue),
        gridIntensity: EnergyFigureAppliedModel.of(e.gridIntensity),
      });
      figuresWritten.set(e, m);
    }
    return m;
  }
}

const figuresWritten = new WeakMap<OfferEnergy, OfferEnergyFiguresModel>();

/** Figures computed in floating point, written without its noise (0.7945, not 0.7945000000000001). */
const rounded = (v: number | undefined, digits: number): number | null => (v === undefined || Number.isNaN(v) ? null : Number(v.toFixed(digits)));

@ObjectType('OfferMarket', { description: "A marketplace's asking prices for one GPU type and region on one day (per instance-hour, list currency)" })
export class OfferMarketModel {
  @ApiProperty({ enum: ['MEDIAN'], description: 'The statistic the offer ranks and plans by: its prices are this percentile' })
  @Field({ description: 'The statistic the offer ranks and plans by: its prices are this percentile' })
  rankedBy: 'MEDIAN';
  @ApiProperty({ type: MoneyModel, description: '10th percentile of the hosts’ asking prices, per instance-hour' }) @Field(() => MoneyModel) p10: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Median of the hosts’ asking prices, per instance-hour' }) @Field(() => MoneyModel) median: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: '90th percentile of the hosts’ asking prices, per instance-hour' }) @Field(() => MoneyModel) p90: MoneyModel;
  @ApiProperty({ description: 'How many host offers the percentiles summarize' }) @Field(() => Int) sampleSize: number;
  @ApiProperty({ nullable: true, type: Number, description: "The hosts' reliability score as the marketplace publishes it (0 to 1); null: not published" })
  @Field(() => Float, { nullable: true, description: "The hosts' reliability score as the marketplace publishes it (0 to 1); null: not published" })
  hostReliability: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Interruptible capacity: interruptions per instance-hour an estimate assumes for it' })
  @Field(() => Float, { nullable: true, description: 'Interruptible capacity: interruptions per instance-hour an estimate assumes for it' })
  interruptionsPerHour: number | null;
  @ApiProperty({ description: 'Which hosts the sample holds, and how any figure was derived' }) @Field() basis: string;

  static of(m: MarketPrices, currency: Currency): OfferMarketModel {
    const out = new OfferMarketModel();
    out.rankedBy = 'MEDIAN';
    out.p10 = MoneyModel.ofCatalog(m.p10, currency);
    out.median = MoneyModel.ofCatalog(m.median, currency);
    out.p90 = MoneyModel.ofCatalog(m.p90, currency);
    out.sampleSize = m.sampleSize;
    out.hostReliability = m.hostReliability?.toNumber() ?? null;
    out.interruptionsPerHour = m.interruptionsPerHour?.toNumber() ?? null;
    out.basis = m.basis;
    return out;
  }
}

@ObjectType('Offer')
export class OfferModel {
  @ApiProperty({ description: 'Stable id of the offer across versions (hash of its natural key)' }) @Field() id: string;
  @ApiProperty({ example: 'aws' }) @Field() provider: string;
  @ApiProperty({ example: 'aws:eu-central-1' }) @Field() region: string;
  @ApiProperty({ example: 'DE' }) @Field() country: string;
  @ApiProperty({ example: 'h100-sxm-80gb' }) @Field() gpu: string;
  @ApiProperty({ example: 80 }) @Field(() => Float) gpuMemoryGb: number;
  @ApiProperty({ example: 8 }) @Field(() => Int) gpuCount: number;
  @ApiProperty({ example: 'p5.48xlarge' }) @Field() instanceType: string;
  @ApiProperty({ enum: PricingModelEnum, enumName: 'PricingModel' }) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty({ type: MoneyModel, description: 'Per instance-hour (reserved: upfront amortized), requested currency, after discounts' })
  @Field(() => MoneyModel)
  pricePerHour: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Comparable per GPU-hour (reserved: upfront amortized over the term), requested currency' })
  @Field(() => MoneyModel)
  pricePerGpuHour: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Per instance-hour as the provider lists it' }) @Field(() => MoneyModel) listPricePerHour: MoneyModel;
  @ApiProperty({
    type: MoneyModel,
    nullable: true,
    description: 'Reserved: paid once per instance for the term; MONTHLY: the one-time setup fee; list currency',
  })
  @Field(() => MoneyModel, { nullable: true, description: 'Reserved: paid once per instance for the term; MONTHLY: the one-time setup fee; list currency' })
  upfront: MoneyModel | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Reserved: the term; MONTHLY: the minimum term' })
  @Field(() => Int, { nullable: true, description: 'Reserved: the term; MONTHLY: the minimum term' })
  termMonths: number | null;
  @ApiProperty({
    type: MoneyModel,
    nullable: true,
    description:
      'MONTHLY: the price of one server for a month as listed (list currency); the hourly prices are it ÷ 730, plus the setup fee over the minimum term',
  })
  @Field(() => MoneyModel, {
    nullable: true,
    description:
      'MONTHLY: the price of one server for a month as listed (list currency); the hourly prices are it ÷ 730, plus the setup fee over the minimum term',
  })
  monthlyPrice: MoneyModel | null;
  @ApiProperty({ nullable: true, type: String, example: '0.000305' }) @Field(() => String, { nullable: true }) serverlessUnitPrice: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'GPU_SECOND' }) @Field(() => String, { nullable: true }) serverlessUnit: string | null;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Int, { nullable: true }) interruptionNoticeSeconds: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: INTERRUPTION_RATES,
    example: '<5%',
    description: "Spot: the provider's band of how often such instances were interrupted in the last month (AWS Spot Instance Advisor); null when unknown",
  })
  @Field(() => String, {
    nullable: true,
    description:
      "Spot: the provider's band of how often such instances were interrupted in the last month (AWS Spot Instance Advisor: <5%, 5-10%, 10-15%, 15-20%, >20%); null when unknown",
  })
  interruptionRate: InterruptionRate | null;
  @ApiProperty({
    type: () => OfferMarketModel,
    nullable: true,
    description: "Marketplace offers: the spread of the hosts' asking prices on observedAt; the offer's prices are its median",
  })
  @Field(() => OfferMarketModel, {
    nullable: true,
    description: "Marketplace offers: the spread of the hosts' asking prices on observedAt; the offer's prices are its median",
  })
  market: OfferMarketModel | null;
  @ApiProperty({ description: 'URL of the public price page or document' }) @Field() source: string;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) sourceTitle: string | null;
  @ApiProperty({ example: '2026-03-27' }) @Field() observedAt: string;
  @ApiProperty({
    enum: PriceKindEnum,
    enumName: 'PriceKind',
    description: "LIST: read from the provider's own price data; ESTIMATE: computed by a rule (only with includeEstimates)",
  })
  @Field(() => PriceKindEnum)
  priceKind: PriceKind;
  @ApiProperty({ nullable: true, type: String, description: 'ESTIMATE: the rule and its inputs' }) @Field(() => String, { nullable: true }) derivation:
    string | null;
  @ApiProperty({ nullable: true, type: String, description: 'LIST: the unit conversion applied to the figure as read (e.g. monthly / 730 h)' })
  @Field(() => String, { nullable: true })
  conversion: string | null;
  @ApiProperty({
    enum: SourceKindEnum,
    enumName: 'SourceKind',
    nullable: true,
    description:
      'Where the price was read, best first: PROVIDER_API, PROVIDER_PAGE, MIRROR, TRANSCRIPTION, ANNOUNCEMENT; null for versions imported before it was recorded',
  })
  @Field(() => SourceKindEnum, { nullable: true, description: 'Where the price was read; null for versions imported before it was recorded' })
  sourceKind: SourceKind | null;
  @ApiProperty({
    enum: AvailabilityEnum,
    enumName: 'Availability',
    description:
      "CONFIRMED: the provider's own availability data says it is sold in this region under this pricing model; UNCONFIRMED: not confirmed " +
      "(ranked after every confirmed offer); LISTED_NOT_ORDERABLE: the provider's own catalogue says it cannot be ordered (never ranked)",
  })
  @Field(() => AvailabilityEnum)
  availability: Availability;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The availability record that confirms it, why it could not be confirmed, or the provider's words and source",
  })
  @Field(() => String, { nullable: true })
  availabilityNote: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-10-01', description: 'First day the price holds (inclusive); null: open' })
  @Field(() => String, { nullable: true, description: 'First day the price holds (inclusive); null: open' })
  validFrom: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-12-31', description: 'Last day the price holds (inclusive), e.g. a promotion; null: open' })
  @Field(() => String, { nullable: true, description: 'Last day the price holds (inclusive), e.g. a promotion; null: open' })
  validUntil: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 0.7945, description: ENERGY_TEXT })
  @Field(() => Float, { nullable: true, description: ENERGY_TEXT })
  energy: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 18.274, description: CARBON_TEXT })
  @Field(() => Float, { nullable: true, description: CARBON_TEXT })
  carbon: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 20, description: GRID_TEXT })
  @Field(() => Float, { nullable: true, description: GRID_TEXT })
  gridIntensity: number | null;
  @ApiProperty({ enum: GridSourceEnum, enumName: 'GridSource', nullable: true, description: GRID_SOURCE_TEXT })
  @Field(() => GridSourceEnum, { nullable: true, description: GRID_SOURCE_TEXT })
  gridSource: GridSource | null;
  @ApiProperty({ type: OfferEnergyFiguresModel, nullable: true, description: FIGURES_TEXT })
  @Field(() => OfferEnergyFiguresModel, { nullable: true, description: FIGURES_TEXT })
  energyFigures: OfferEnergyFiguresModel | null;
  @ApiProperty({ nullable: true, type: String, description: REASON_TEXT })
  @Field(() => String, { nullable: true, description: REASON_TEXT })
  carbonUnknownReason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Negotiated discount applied, percent' })
  @Field(() => String, { nullable: true })
  discountPercent: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Cheapest answers: instances the requirement needs' })
  @Field(() => Int, { nullable: true })
  instances: number | null;
  @ApiProperty({ type: MoneyModel, nullable: true, description: 'Cheapest answers: instances × price per instance-hour' })
  @Field(() => MoneyModel, { nullable: true })
  totalPricePerHour: MoneyModel | null;
  @ApiProperty({ type: [String], nullable: true, description: 'Cheapest answers: why the offer complies with the policy' })
  @Field(() => [String], { nullable: true })
  complies: string[] | null;

  static of(p: OfferQuote, extra: { passes?: string[]; withTotals?: boolean } = {}): OfferModel {
    const o = p.offer;
    // One store per field, not Object.assign (see MoneyModel.of): every offer of an answer is built here.
    const m = new OfferModel();
    m.id = o.keyHash;
    m.provider = o.providerSlug;
    m.region = o.regionCode;
    m.country = p.country;
    m.gpu = o.gpuSlug;
    m.gpuMemoryGb = p.gpu.memoryGb.toNumber();
    m.gpuCount = o.gpuCount;
    m.instanceType = o.instanceType;
    m.pricingModel = o.pricingModel;
    // The catalog's Decimals (the offer's, and the index's per currency), the same in every answer
    // of a version; only a discount or a pooled total makes new ones.
    m.pricePerHour = MoneyModel.ofCatalog(p.pricePerInstanceHour, p.currency);
    m.pricePerGpuHour = MoneyModel.ofCatalog(p.pricePerGpuHour, p.currency);
    m.listPricePerHour = MoneyModel.ofCatalog(o.pricePerHour, o.currency);
    m.upfront = o.upfront === null ? null : MoneyModel.ofCatalog(o.upfront, o.currency);
    m.termMonths = o.termMonths;
    m.monthlyPrice = o.pricingModel === 'MONTHLY' ? MoneyModel.ofTotal(monthlyPriceOf(o), o.currency) : null;
    m.serverlessUnitPrice = o.serverlessUnitPrice?.toString() ?? null;
    m.serverlessUnit = o.serverlessUnit;
    m.interruptionNoticeSeconds = o.interruptionNoticeSeconds;
    m.interruptionRate = o.interruptionRate ?? null;
    m.market = o.market ? OfferMarketModel.of(o.market, o.currency) : null;
    m.source = o.sourceUrl;
    m.sourceTitle = o.sourceTitle;
    m.observedAt = o.observedAt;
    m.priceKind = o.priceKind;
    m.derivation = o.derivation;
    m.conversion = o.conversion;
    m.sourceKind = o.sourceKind;
    m.availability = o.availability;
    m.availabilityNote = o.availabilityNote;
    m.validFrom = o.validFrom;
    m.validUntil = o.validUntil;
    m.energy = rounded(p.energy?.kwhPerGpuHour, 6);
    m.carbon = rounded(p.energy?.gCo2ePerGpuHour, 3);
    m.gridIntensity = rounded(p.energy?.gridIntensity.value, 3);
    m.gridSource = p.energy?.gridIntensity.gridSource ?? null;
    m.energyFigures = p.energy ? OfferEnergyFiguresModel.of(p.energy) : null;
    m.carbonUnknownReason = p.energy ? null : p.energyUnknownReason;
    m.discountPercent = p.discountPercent?.toString() ?? null;
    m.instances = extra.withTotals ? p.instances : null;
    m.totalPricePerHour = extra.withTotals ? MoneyModel.ofCatalog(p.totalPricePerHour, p.currency) : null;
    m.complies = extra.passes ?? null;
    return m;
  }
}

/**
 * JSON.stringify(model): the catalog fields' text as written for an earlier answer, when every one
 * of their values is still what it was written from (else written anew), then this answer's own
 * fields.
 */
function offerJson(model: OfferModel): string {
  const text = catalogText(model);
  const own: Record<string, unknown> = {};
  for (const field of OFFER_REQUEST_FIELDS) own[field] = model[field];
  const rest = JSON.stringify(own);
  if (rest === '{}') return text + '}';
  return text === '{' ? rest : text + ',' + rest.slice(1);
}

function catalogText(model: OfferModel): string {
  const kept = typeof model.id === 'string' ? catalogTexts.get(model.id) : undefined;
  for (const entry of kept ?? []) {
    let i = 0;
    for (const field of OFFER_CATALOG_FIELDS) {
      if (!same(model[field], entry.values[i])) break;
      i += 1;
    }
    if (i === OFFER_CATALOG_FIELDS.length) return entry.text;
  }
  const values = OFFER_CATALOG_FIELDS.map((field) => model[field]);
  const own: Record<string, unknown> = {};
  OFFER_CATALOG_FIELDS.forEach((field, i) => (own[field] = values[i]));
  const text = JSON.stringify(own).slice(0, -1);
  if (typeof model.id === 'string') catalogTexts.set(model.id, [{ values, text }, ...(kept ?? []).slice(0, 3)]);
  return text;
}

writeJsonWith(OfferModel, offerJson);
