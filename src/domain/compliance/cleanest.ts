// The lowest-carbon compliant offers of a query (docs/carbon.md): the same requirement and policy
// as the cheapest answer, ordered by g CO2e per GPU-hour at full load instead of price (within an
// availability tier, as the price ranking). Every
// compliant candidate is read (carbon is not the index's order), in price order, so among equal
// carbon the cheaper offer comes first; offers without a sourced figure come last.
import { at } from '../checked.js';
import type { RankedQuery } from './ranked-walk.js';

/**
 * Compliant candidates by availability tier (confirmed first, as in the price ranking), then carbon
 * per GPU-hour (lowest first), then price, then the walk's tie order.
 */
export function compliantByCarbon(q: RankedQuery): number[] {
  const found: { offer: number; tier: number; g: number; order: number }[] = [];
  let order = 0;
  for (const offer of q.walk({ lists: q.lists.filter((l) => q.listCanComply(l)) })) {
    if (q.failCount(offer) > 0) continue;
    found.push({ offer, tier: q.tierOf(offer), g: at(q.index.offerEnergy, offer)?.gCo2ePerGpuHour ?? Infinity, order: order++ });
  }
  found.sort((a, b) => a.tier - b.tier || (a.g === b.g ? a.order - b.order : a.g < b.g ? -1 : 1));
  return found.map((f) => f.offer);
}
