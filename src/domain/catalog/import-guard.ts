// The guard of an import: a change that is more likely a mistake (a partial file, a unit error, a
// broken feed) than a price update is refused with what it would do, unless the admin says the
// change is intended (--allow-large-change). It weighs the size of the change, not only its count:
// one H100 re-priced from 55.04 to 0.01 USD/h is one changed offer out of hundreds, and would rank
// first everywhere.
import { comparablePricePerInstanceHour } from '../compliance/ranking.js';
import { convert, Decimal } from '../money/money.js';
import type { CatalogDiff } from './catalog-diff.js';
import { offerNaturalKey } from './catalog-hash.js';
import type { Currency, FxRates, Offer } from './catalog.types.js';

export interface ImportGuardLimits {
  /** Percent of the offers in scope that may be removed (default 10). */
  maxRemovedPercent: number;
  /** Percent of the offers in scope whose price may change (default 30). */
  maxChangedPercent: number;
  /** Percent an offer's comparable price may move, up or down, against the current version (default 50). */
  maxPriceMovePercent: number;
  /** Percent an FX rate may move against the current version's (default 20). */
  maxFxMovePercent: number;
  allowLargeChange: boolean;
}

export const DEFAULT_GUARD: ImportGuardLimits = {
  maxRemovedPercent: 10,
  maxChangedPercent: 30,
  maxPriceMovePercent: 50,
  maxFxMovePercent: 20,
  allowLargeChange: false,
};

/** An offer whose comparable price per instance-hour moved more than the limit (both in the base currency). */
export interface PriceMove {
  offer: Offer;
  before: Decimal;
  after: Decimal;
  currency: Currency;
  /** (after − before) / before × 100. */
  movePercent: Decimal;
}

export interface FxMove {
  currency: Currency;
  before: string;
  after: string;
  movePercent: Decimal;
}

export interface GuardOutcome extends ImportGuardLimits {
  /** Offers of the scope's providers in the current version. */
  inScopeBefore: number;
  removed: number;
  priceChanged: number;
  /** Offers whose price moves more than maxPriceMovePercent. */
  priceMoves: PriceMove[];
  /** New or changed offers whose comparable price is zero (or below). */
  nonPositive: Offer[];
  /** FX rates that move more than maxFxMovePercent. */
  fxMoves: FxMove[];
  /** Why the import is too large (empty when it passes or allowLargeChange is set). */
  violations: string[];
}

const percentOf = (n: number, of: number): number => (n / of) * 100;
const signed = (d: Decimal): string => `${d.gte(0) ? '+' : ''}${d.toFixed(2)}%`;

/** The comparable price of an instance-hour in the base currency of `fx` (reserved upfront amortized). */
function basePrice(offer: Offer, fx: FxRates): Decimal {
  return convert(comparablePricePerInstanceHour({ offer }), offer.currency, fx.base, fx);
}

/**
 * Counts removals and price changes against the offers in scope, finds prices that move more than
 * the limit, prices of zero, and FX rates that move more than theirs; names each violation.
 */
export function checkGuard({
  diff,
  inScopeBefore,
  limits,
  fxBefore = null,
  fxAfter = null,
}: {
  diff: CatalogDiff;
  inScopeBefore: number;
  limits: ImportGuardLimits;
  /** The current version's FX (null: no current version). */
  fxBefore?: FxRates | null;
  /** The imported content's FX. */
  fxAfter?: FxRates | null;
}): GuardOutcome {
  const removed = diff.removed.length;
  const priceChanged = diff.changed.filter((c) => !c.oldPricePerHour.eq(c.newPricePerHour) || c.oldCurrency !== c.offer.currency).length;
  const priceMoves: PriceMove[] = [];
  if (fxBefore && fxAfter) {
    for (const change of diff.changed) {
      const before = basePrice(change.before, fxBefore);
      const after = basePrice(change.offer, fxAfter);
      if (before.lte(0) || before.eq(after)) continue;
      const movePercent = after.minus(before).div(before).mul(100);
      if (movePercent.abs().gt(limits.maxPriceMovePercent)) priceMoves.push({ offer: change.offer, before, after, currency: fxAfter.base, movePercent });
    }
  }
  const nonPositive = [...diff.added, ...diff.changed.map((c) => c.offer)].filter((o) => comparablePricePerInstanceHour({ offer: o }).lte(0));
  const fxMoves: FxMove[] = [];
  if (fxBefore && fxAfter && fxBefore.base === fxAfter.base) {
    for (const [currency, after] of Object.entries(fxAfter.rates) as [Currency, string][]) {
      const before = fxBefore.rates[currency];
      if (before === undefined || new Decimal(before).isZero()) continue;
      const movePercent = new Decimal(after).minus(before).div(before).mul(100);
      if (movePercent.abs().gt(limits.maxFxMovePercent)) fxMoves.push({ currency, before, after, movePercent });
    }
  }

  const violations: string[] = [];
  if (!limits.allowLargeChange) {
    if (inScopeBefore > 0 && percentOf(removed, inScopeBefore) > limits.maxRemovedPercent) {
      violations.push(
        `would remove ${removed} of ${inScopeBefore} offers in scope (${percentOf(removed, inScopeBefore).toFixed(1)}%, limit ${limits.maxRemovedPercent}%)`,
      );
    }
    if (inScopeBefore > 0 && percentOf(priceChanged, inScopeBefore) > limits.maxChangedPercent) {
      violations.push(
        `would change the price of ${priceChanged} of ${inScopeBefore} offers in scope (${percentOf(priceChanged, inScopeBefore).toFixed(1)}%, limit ${limits.maxChangedPercent}%)`,
      );
    }
    for (const m of priceMoves) {
      violations.push(
        `would move the price of ${offerNaturalKey(m.offer)} from ${m.before.toSignificantDigits(8).toString()} to ` +
          `${m.after.toSignificantDigits(8).toString()} ${m.currency} per instance-hour (${signed(m.movePercent)}, limit ±${limits.maxPriceMovePercent}%)`,
      );
    }
    for (const o of nonPositive) {
      violations.push(
        `would price ${offerNaturalKey(o)} at ${comparablePricePerInstanceHour({ offer: o }).toString()} ${o.currency} per instance-hour (a price must be above 0)`,
      );
    }
    for (const f of fxMoves) {
      violations.push(
        `would move the FX rate of ${f.currency} from ${f.before} to ${f.after} per ${fxAfter?.base ?? 'base'} (${signed(f.movePercent)}, limit ±${limits.maxFxMovePercent}%)`,
      );
    }
  }
  return { ...limits, inScopeBefore, removed, priceChanged, priceMoves, nonPositive, fxMoves, violations };
}
