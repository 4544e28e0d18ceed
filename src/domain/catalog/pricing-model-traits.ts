// What each pricing model means, in one table keyed by the enum. A new model (or a new reservation
// term) is one entry here; code that branches on a trait switches exhaustively, so the compiler
// names every place that has to decide what the new entry means.
import { PRICING_MODELS, type PricingModel } from './catalog.types.js';

/** The slot a model fills in an inference plan (cost-model/plan-tiers.ts). */
export type PlanSlot = 'ON_DEMAND' | 'SPOT' | 'RESERVED' | 'SERVERLESS';

/** How an offer's comparable price per instance-hour is derived (compliance/ranking.ts). */
export type ComparablePriceRule =
  /** The hourly price as listed. */
  | 'HOURLY'
  /** Hourly plus the upfront payment spread over every hour of the term (paid, used or not). */
  | 'HOURLY_PLUS_UPFRONT_OVER_TERM'
  /** pricePerHour is one instance busy a full hour: ranking at full load needs no utilization. */
  | 'BUSY_FULL_HOUR';

/** FinOps FOCUS PricingCategory, the column CSV exports name a model's category by. */
export type FocusPricingCategory = 'Standard' | 'Dynamic' | 'Committed';

/**
 * A reservation has a fixed term and may be paid partly upfront; a monthly server has a minimum
 * term the offer states and may charge a setup fee, spread over that minimum term; nothing else
 * has either.
 */
type TermTraits =
  | {
      isReserved: true;
      term: 'FIXED';
      /** What an offer's termMonths must say; assumed when an offer omits it. */
      termMonths: number;
      /** An upfront payment is allowed and is spread over every hour of the term. */
      upfront: 'SPREAD_OVER_TERM';
    }
  | {
      isReserved: false;
      /** The offer must state its minimum term in termMonths (1 or more). */
      term: 'MINIMUM';
      termMonths: null;
      /** A setup fee, spread over every hour of the minimum term. */
      upfront: 'SPREAD_OVER_TERM';
    }
  | { isReserved: false; term: 'NONE'; termMonths: null; upfront: 'NOT_ALLOWED' };

export type PricingModelTraits = TermTraits & {
  /** The provider may reclaim the capacity (with notice): never for INTOLERANT traffic. */
  interruptible: boolean;
  /** Billed by busy time in the provider's unit (serverlessUnitPrice per serverlessUnit). */
  billedByBusyTime: boolean;
  comparablePrice: ComparablePriceRule;
  planSlot: PlanSlot;
  csvPricingCategory: FocusPricingCategory;
  /** The undiscounted list price other models' discounts are measured against. */
  isDiscountBase: boolean;
};

export const PRICING_MODEL_TRAITS = {
  ON_DEMAND: {
    isReserved: false,
    term: 'NONE',
    termMonths: null,
    upfront: 'NOT_ALLOWED',
    interruptible: false,
    billedByBusyTime: false,
    comparablePrice: 'HOURLY',
    planSlot: 'ON_DEMAND',
    csvPricingCategory: 'Standard',
    isDiscountBase: true,
  },
  SPOT: {
    isReserved: false,
    term: 'NONE',
    termMonths: null,
    upfront: 'NOT_ALLOWED',
    interruptible: true,
    billedByBusyTime: false,
    comparablePrice: 'HOURLY',
    planSlot: 'SPOT',
    csvPricingCategory: 'Dynamic',
    isDiscountBase: false,
  },
  RESERVED_1Y: {
    isReserved: true,
    term: 'FIXED',
    termMonths: 12,
    upfront: 'SPREAD_OVER_TERM',
    interruptible: false,
    billedByBusyTime: false,
    comparablePrice: 'HOURLY_PLUS_UPFRONT_OVER_TERM',
    planSlot: 'RESERVED',
    csvPricingCategory: 'Committed',
    isDiscountBase: false,
  },
  RESERVED_3Y: {
    isReserved: true,
    term: 'FIXED',
    termMonths: 36,
    upfront: 'SPREAD_OVER_TERM',
    interruptible: false,
    billedByBusyTime: false,
    comparablePrice: 'HOURLY_PLUS_UPFRONT_OVER_TERM',
    planSlot: 'RESERVED',
    csvPricingCategory: 'Committed',
    isDiscountBase: false,
  },
  SERVERLESS: {
    isReserved: false,
    term: 'NONE',
    termMonths: null,
    upfront: 'NOT_ALLOWED',
    interruptible: false,
    billedByBusyTime: true,
    comparablePrice: 'BUSY_FULL_HOUR',
    planSlot: 'SERVERLESS',
    csvPricingCategory: 'Standard',
    isDiscountBase: false,
  },
  // Billed every hour of the month whether busy or not, like a reservation, so it fills the plan's
  // reserved slot (the base load); the price is the provider's standard one, not a commitment discount.
  MONTHLY: {
    isReserved: false,
    term: 'MINIMUM',
    termMonths: null,
    upfront: 'SPREAD_OVER_TERM',
    interruptible: false,
    billedByBusyTime: false,
    comparablePrice: 'HOURLY_PLUS_UPFRONT_OVER_TERM',
    planSlot: 'RESERVED',
    csvPricingCategory: 'Standard',
    isDiscountBase: false,
  },
} as const satisfies Record<PricingModel, PricingModelTraits>;

export function pricingModelTraits(model: PricingModel): PricingModelTraits {
  return PRICING_MODEL_TRAITS[model];
}

/** The models with a trait, in PRICING_MODELS order. */
export function pricingModelsWhere(test: (traits: PricingModelTraits) => boolean): PricingModel[] {
  return PRICING_MODELS.filter((m) => test(PRICING_MODEL_TRAITS[m]));
}

/** For the `default` of an exhaustive switch: a new member makes the call a compile error. */
export function unreachable(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
