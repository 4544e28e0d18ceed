// The guard of an import: a file that would remove or re-price a large share of the offers it
// replaces is more likely a mistake (a partial file, a unit error) than a price update, so the
// import is refused with the counts unless the admin says the change is intended.
import type { CatalogDiff } from './catalog-diff.js';

export interface ImportGuardLimits {
  /** Percent of the offers in scope that may be removed (default 10). */
  maxRemovedPercent: number;
  /** Percent of the offers in scope whose price may change (default 30). */
  maxChangedPercent: number;
  allowLargeChange: boolean;
}

export const DEFAULT_GUARD: ImportGuardLimits = { maxRemovedPercent: 10, maxChangedPercent: 30, allowLargeChange: false };

export interface GuardOutcome extends ImportGuardLimits {
  /** Offers of the scope's providers in the current version. */
  inScopeBefore: number;
  removed: number;
  priceChanged: number;
  /** Why the import is too large (empty when it passes or allowLargeChange is set). */
  violations: string[];
}

/** Counts removals and price changes against the offers in scope; names each limit exceeded. */
export function checkGuard({ diff, inScopeBefore, limits }: { diff: CatalogDiff; inScopeBefore: number; limits: ImportGuardLimits }): GuardOutcome {
  const removed = diff.removed.length;
  const priceChanged = diff.changed.filter((c) => !c.oldPricePerHour.eq(c.newPricePerHour) || c.oldCurrency !== c.offer.currency).length;
  const violations: string[] = [];
  if (inScopeBefore > 0 && !limits.allowLargeChange) {
    const pct = (n: number) => (n / inScopeBefore) * 100;
    if (pct(removed) > limits.maxRemovedPercent) {
      violations.push(`would remove ${removed} of ${inScopeBefore} offers in scope (${pct(removed).toFixed(1)}%, limit ${limits.maxRemovedPercent}%)`);
    }
    if (pct(priceChanged) > limits.maxChangedPercent) {
      violations.push(
        `would change the price of ${priceChanged} of ${inScopeBefore} offers in scope (${pct(priceChanged).toFixed(1)}%, limit ${limits.maxChangedPercent}%)`,
      );
    }
  }
  return { ...limits, inScopeBefore, removed, priceChanged, violations };
}
