// One average period of a plan, a day (24 hours) or a week (168), as long as the demand profile
// (docs/cost-model.md#the-period-planner): R reserved instances, the burst above them by the plan's burst mode,
// serverless hours by a utilization threshold, batch work into idle paid capacity and then the
// tier that makes the day cheapest, cold starts. Priced in plain numbers; plan-costing.ts
// recomputes money in Decimal.
import type { InterruptionTolerance } from '../compliance/policy.js';
import type { HourlyDemand } from './demand.js';
import type { PlanTier, PlanTiers } from './plan-tiers.js';
import { at } from '../checked.js';

const EPSILON = 1e-9;
/** serverlessMaxUtilization that keeps serverless out of the online tier. */
export const NO_SERVERLESS = -1;

export type BatchTier = 'RESERVED_IDLE' | 'SPOT' | 'ON_DEMAND' | 'SERVERLESS';
export type SpillTier = Exclude<BatchTier, 'RESERVED_IDLE'>;

/**
 * How a plan buys the burst above its reservation. BY_TOLERANCE: INTOLERANT on on-demand,
 * RECOVERABLE the caller's spot share with the rest on on-demand fallback, TOLERANT on spot.
 * ON_DEMAND: all of it on on-demand, which every tolerance allows (on-demand is never
 * interrupted); cheaper when spot costs more than on-demand, or packs worse into instances.
 */
export type BurstMode = 'BY_TOLERANCE' | 'ON_DEMAND';

export interface PlanHour {
  /** Hour of the period: of the day (0-23), or of the week (0-167, Monday 00:00 first). */
  hour: number;
  onlineReplicas: number;
  reservedInstances: number;
  onDemandInstances: number;
  spotInstances: number;
  /** Replica-hours bought serverless this hour (busy time only). */
  serverlessReplicaHours: number;
  /** Batch replica-hours run this hour, on whatever capacity it landed. */
  batchReplicaHours: number;
  /**
   * Of the instances and serverless hours above, those bought for batch work that idle paid
   * capacity could not absorb (the spill); the rest serve online traffic.
   */
  batchOnDemandInstances: number;
  batchSpotInstances: number;
  batchServerlessReplicaHours: number;
}

export interface PeriodPlan {
  reservedInstances: number;
  burst: BurstMode;
  /** Whether hours without online traffic run nothing (and pay a model load after them). */
  scaleToZero: boolean;
  hours: PlanHour[];
  /** Instance-hours per day per tier, cold-start load time included. */
  instanceHours: { reserved: number; onDemand: number; spot: number };
  serverlessReplicaHours: number;
  /** Instance-hours of model loading after a scale from zero, by tier (inside instanceHours). */
  coldStartInstanceHours: { reserved: number; onDemand: number; spot: number };
  /** Where batch work that did not fit in idle paid capacity went. */
  batchSpillTier: BatchTier | null;
  costPerPeriod: number;
  /** Part of costPerPeriod spent loading the model after starts from zero. */
  coldStartCostPerPeriod: number;
  feasible: boolean;
}

export interface PlanInput {
  demand: HourlyDemand;
  tiers: PlanTiers;
  tolerance: InterruptionTolerance;
  /** RECOVERABLE burst: share of burst replicas on spot, the rest on on-demand fallback. */
  recoverableSpotShare: number;
  replicaRequestsPerSecond: number;
  targetUtilization: number;
  modelLoadHours: number;
  /** Hours without online traffic need no replica (demand.onlineReplicas is 0 there). */
  scaleToZero: boolean;
  /** Replicas kept in every hour; with scale-to-zero, in every hour with online traffic. */
  minReplicas: number;
  /** Default BY_TOLERANCE. */
  burst?: BurstMode;
  /** Where batch work that idle capacity cannot absorb goes; default: the tier where the period costs least. */
  spillTier?: SpillTier;
}

/** Hours in the order batch work is placed: lowest online demand first, then by hour. */
export function batchOrder(demand: HourlyDemand): number[] {
  return [...demand.onlineReplicas.keys()].sort((a, b) => at(demand.onlineReplicas, a) - at(demand.onlineReplicas, b) || a - b);
}

export const instancesFor = (replicas: number, tier: PlanTier): number => (replicas <= 0 ? 0 : Math.ceil(replicas / tier.replicasPerInstance - EPSILON));

/**
 * RECOVERABLE: how many of `burst` replicas run on the on-demand fallback. Rounded up, so spot
 * never carries more than the caller's share of them.
 */
export function recoverableFallbackReplicas({ burst, spotShare }: { burst: number; spotShare: number }): number {
  return Math.max(0, Math.ceil(burst * (1 - spotShare) - EPSILON));
}

/** Written by splitBurst: both planners run it for every hour, so it allocates nothing. */
const split = { onDemand: 0, spot: 0, served: true };

/** Instances per tier that serve `burst` replicas above the reservation, by the plan's burst mode. */
function splitBurst(input: PlanInput, burst: number): typeof split {
  const { tiers, tolerance } = input;
  const { onDemand, spot } = tiers;
  split.onDemand = 0;
  split.spot = 0;
  split.served = true;
  if (burst <= 0) return split;
  const spotAllowed = (input.burst ?? 'BY_TOLERANCE') === 'BY_TOLERANCE' && tolerance !== 'INTOLERANT' && spot !== null;
  if (tolerance === 'RECOVERABLE' && spotAllowed) {
    const fallback = recoverableFallbackReplicas({ burst, spotShare: input.recoverableSpotShare });
    if (fallback > 0 && !onDemand) {
      // No dedicated fallback: the hour goes to serverless, or the plan is infeasible. Never all on spot.
      split.served = false;
      return split;
    }
    split.onDemand = onDemand ? instancesFor(fallback, onDemand) : 0;
    split.spot = instancesFor(burst - fallback, spot);
  } else if (tolerance === 'TOLERANT' && spotAllowed) {
    split.spot = instancesFor(burst, spot);
  } else if (onDemand) {
    split.onDemand = instancesFor(burst, onDemand);
  } else {
    split.served = false;
  }
  return split;
}

/** Prices the day with R reserved instances; every other choice follows from R by rule. */
export function planPeriod(
  input: PlanInput,
  reservedInstances: number,
  order: readonly number[] = batchOrder(input.demand),
  serverlessMaxUtilization = NO_SERVERLESS,
): PeriodPlan {
  const { demand, tiers } = input;
  const { reserved } = tiers;
  const period = demand.onlineReplicas.length;
  const online = planOnlineHours(input, reservedInstances, serverlessMaxUtilization);
  const { hours, slack } = online;
  let { cost, feasible } = online;

  // Batch: idle paid capacity first (free at the margin), lowest-demand hours first.
  const remaining = fillIdleCapacity(demand.batchReplicaHoursPerPeriod, hours, slack, order);
  let batchSpillTier: BatchTier | null = demand.batchReplicaHoursPerPeriod > 0 ? 'RESERVED_IDLE' : null;
  if (remaining > EPSILON) {
    const spill = spillBatch({ input, remaining, hours, order });
    if (!spill) {
      feasible = false;
    } else {
      batchSpillTier = spill.tier;
      cost += spill.cost;
    }
  }

  const { instanceHours, coldStartInstanceHours, coldStartCostPerPeriod } = tallyInstanceHours(input, reserved ? reservedInstances * period : 0, hours);
  cost += coldStartCostPerPeriod;
  const serverlessReplicaHours = hours.reduce((s, r) => s + r.serverlessReplicaHours, 0);
  return {
    reservedInstances: reserved ? reservedInstances : 0,
    burst: input.burst ?? 'BY_TOLERANCE',
    scaleToZero: input.scaleToZero,
    hours,
    instanceHours,
    serverlessReplicaHours,
    coldStartInstanceHours,
    batchSpillTier,
    costPerPeriod: feasible ? cost : Infinity,
    coldStartCostPerPeriod,
    feasible,
  };
}

/**
 * Online traffic hour by hour: the reservation, the burst above it on dedicated instances or
 * serverless, and the idle paid capacity (slack) each hour leaves for batch work. The cost
 * includes the reservation's.
 */
function planOnlineHours(
  input: PlanInput,
  reservedInstances: number,
  serverlessMaxUtilization: number,
): { hours: PlanHour[]; slack: number[]; cost: number; feasible: boolean } {
  const { demand, tiers } = input;
  const { reserved, onDemand, spot, serverless } = tiers;
  const reservedReplicas = reserved ? reservedInstances * reserved.replicasPerInstance : 0;
  const hours: PlanHour[] = [];
  const slack: number[] = [];
  let feasible = true;
  const period = demand.onlineReplicas.length;
  let cost = reserved ? reservedInstances * period * reserved.pricePerInstanceHour : 0;

  for (let h = 0; h < period; h++) {
    const needed = at(demand.onlineReplicas, h);
    const burst = Math.max(0, needed - reservedReplicas);
    const { onDemand: odBurst, spot: spotBurst, served } = splitBurst(input, burst);
    let od = odBurst;
    let sp = spotBurst;
    let dedicatedOk = served;
    // Serverless takes the overflow above the reservation in hours whose burst replicas would
    // be busy at most `serverlessMaxUtilization` (or when nothing dedicated can serve it).
    let serverlessHours = 0;
    if (serverless && burst > 0) {
      const reservedRps = reservedReplicas * input.replicaRequestsPerSecond * input.targetUtilization;
      const overflowRps = Math.max(0, at(demand.onlineRequestsPerSecond, h) - reservedRps);
      const busy = overflowRps / input.replicaRequestsPerSecond;
      if (!dedicatedOk || busy / burst <= serverlessMaxUtilization) {
        serverlessHours = busy;
        od = 0;
        sp = 0;
        dedicatedOk = true;
      }
    }
    if (!dedicatedOk) feasible = false;
    // Idle paid capacity batch work may use: paid replicas up to the target utilization, less
    // what online traffic on dedicated capacity keeps busy (online keeps its latency headroom).
    const paidSlots = reservedReplicas + od * (onDemand?.replicasPerInstance ?? 0) + sp * (spot?.replicasPerInstance ?? 0);
    const onlineRps = at(demand.onlineRequestsPerSecond, h);
    const dedicatedRps = serverlessHours > 0 ? Math.min(onlineRps, reservedReplicas * input.replicaRequestsPerSecond * input.targetUtilization) : onlineRps;
    slack.push(Math.max(0, paidSlots * input.targetUtilization - dedicatedRps / input.replicaRequestsPerSecond));
    cost += od * (onDemand?.pricePerInstanceHour ?? 0) + sp * (spot?.pricePerInstanceHour ?? 0) + serverlessHours * (serverless?.pricePerReplicaBusyHour ?? 0);
    hours.push({
      hour: h,
      onlineReplicas: needed,
      reservedInstances: reserved ? reservedInstances : 0,
      onDemandInstances: od,
      spotInstances: sp,
      serverlessReplicaHours: serverlessHours,
      batchReplicaHours: 0,
      batchOnDemandInstances: 0,
      batchSpotInstances: 0,
      batchServerlessReplicaHours: 0,
    });
  }

  return { hours, slack, cost, feasible };
}

/** Puts batch work into the hours' idle paid capacity in `order`; returns the replica-hours that did not fit. */
function fillIdleCapacity(batchReplicaHours: number, hours: readonly PlanHour[], slack: readonly number[], order: readonly number[]): number {
  let remaining = batchReplicaHours;
  for (const h of order) {
    if (remaining <= EPSILON) break;
    const take = Math.min(remaining, at(slack, h));
    at(hours, h).batchReplicaHours += take;
    remaining -= take;
  }
  return remaining;
}

/**
 * Buys the `remaining` batch work on the tier where the day costs least (cheapestSpill) and adds it
 * to the hours; null when no tier may take it.
 */
function spillBatch({
  input,
  remaining,
  hours,
  order,
}: {
  input: PlanInput;
  remaining: number;
  hours: readonly PlanHour[];
  order: readonly number[];
}): SpillOption | null {
  const spill = cheapestSpill({ input, remaining, hours, order });
  if (!spill) return null;
  const period = hours.length;
  if (spill.added === null) {
    // Serverless is billed by busy time, so the hour does not change the price: spread it evenly.
    for (const row of hours) {
      row.serverlessReplicaHours += remaining / period;
      row.batchReplicaHours += remaining / period;
      row.batchServerlessReplicaHours += remaining / period;
    }
  } else {
    const added = spill.added;
    hours.forEach((row, h) => {
      const n = at(added, h);
      if (n === 0) return;
      if (spill.tier === 'SPOT') {
        row.spotInstances += n;
        row.batchSpotInstances += n;
      } else {
        row.onDemandInstances += n;
        row.batchOnDemandInstances += n;
      }
      row.batchReplicaHours += (remaining * n) / spill.instanceHours;
    });
  }
  return spill;
}

/** Instance-hours per tier of the finished hours, with the model loads after each start from zero. */
function tallyInstanceHours(
  input: PlanInput,
  reservedInstanceHours: number,
  hours: readonly PlanHour[],
): Pick<PeriodPlan, 'instanceHours' | 'coldStartInstanceHours' | 'coldStartCostPerPeriod'> {
  const instanceHours = {
    reserved: reservedInstanceHours,
    onDemand: hours.reduce((s, r) => s + r.onDemandInstances, 0),
    spot: hours.reduce((s, r) => s + r.spotInstances, 0),
  };
  const coldStartInstanceHours = { reserved: 0, onDemand: 0, spot: 0 };
  if (!input.scaleToZero) return { instanceHours, coldStartInstanceHours, coldStartCostPerPeriod: 0 };
  const cold = coldStarts({ input, hours, spill: null });
  coldStartInstanceHours.onDemand = cold.onDemand;
  coldStartInstanceHours.spot = cold.spot;
  instanceHours.onDemand += cold.onDemand;
  instanceHours.spot += cold.spot;
  return { instanceHours, coldStartInstanceHours, coldStartCostPerPeriod: cold.cost };
}

interface SpillOption {
  tier: SpillTier;
  cost: number;
  /** Dedicated tiers: instance-hours bought. */
  instanceHours: number;
}

/** Where deferred work that idle capacity cannot absorb may go (only `only`, when given), and what it costs there. */
export function spillOptions({
  remaining,
  tiers,
  tolerance,
  only,
}: {
  remaining: number;
  tiers: PlanTiers;
  tolerance: InterruptionTolerance;
  only?: SpillTier;
}): SpillOption[] {
  if (only) return spillOptions({ remaining, tiers, tolerance }).filter((o) => o.tier === only);
  const options: SpillOption[] = [];
  const dedicated = (tier: SpillOption['tier'], t: PlanTier): SpillOption => {
    const instanceHours = instancesFor(remaining, t);
    return { tier, cost: instanceHours * t.pricePerInstanceHour, instanceHours };
  };
  if (tolerance !== 'INTOLERANT' && tiers.spot) options.push(dedicated('SPOT', tiers.spot));
  if (tiers.onDemand) options.push(dedicated('ON_DEMAND', tiers.onDemand));
  if (tiers.serverless) {
    options.push({ tier: 'SERVERLESS', cost: remaining * tiers.serverless.pricePerReplicaBusyHour, instanceHours: 0 });
  }
  return options;
}

/** A dedicated spill of `instanceHours`, whole instances per hour, lowest-demand hours first. */
function spread(instanceHours: number, order: readonly number[]): number[] {
  const period = order.length;
  const added = new Array<number>(period).fill(0);
  const base = Math.floor(instanceHours / period);
  const extra = instanceHours % period;
  order.forEach((h, i) => (added[h] = base + (i < extra ? 1 : 0)));
  return added;
}

/**
 * Deferred work goes where the day costs least: the cheapest replica-hour, unless scaling to zero
 * leaves hours empty, where the spill's instances change which hours start from zero; then each
 * option is priced with the model loads it causes. Ties keep the first of spot, on-demand, serverless.
 */
function cheapestSpill({
  input,
  remaining,
  hours,
  order,
}: {
  input: PlanInput;
  remaining: number;
  hours: readonly PlanHour[];
  order: readonly number[];
}): (SpillOption & { added: number[] | null }) | null {
  let best: (SpillOption & { added: number[] | null; total: number }) | null = null;
  for (const option of spillOptions({ remaining, tiers: input.tiers, tolerance: input.tolerance, only: input.spillTier })) {
    const added = option.tier === 'SERVERLESS' ? null : spread(option.instanceHours, order);
    const cold = input.scaleToZero ? coldStarts({ input, hours, spill: added && { tier: option.tier, added } }).cost : 0;
    const total = option.cost + cold;
    if (best === null || total < best.total) best = { ...option, added, total };
  }
  return best;
}

/** Each start from zero loads the model before serving: paid capacity, no work done. */
function coldStarts({
  input,
  hours,
  spill,
}: {
  input: PlanInput;
  hours: readonly PlanHour[];
  spill: { tier: SpillOption['tier']; added: readonly number[] } | null;
}): { onDemand: number; spot: number; cost: number } {
  const onDemandAt = (h: number): number => at(hours, h).onDemandInstances + (spill?.tier === 'ON_DEMAND' ? at(spill.added, h) : 0);
  const spotAt = (h: number): number => at(hours, h).spotInstances + (spill?.tier === 'SPOT' ? at(spill.added, h) : 0);
  const running = (h: number): number => at(hours, h).reservedInstances + onDemandAt(h) + spotAt(h);
  let onDemand = 0;
  let spot = 0;
  const period = hours.length;
  for (let h = 0; h < period; h++) {
    if (running((h + period - 1) % period) === 0 && running(h) > 0) {
      onDemand += onDemandAt(h) * input.modelLoadHours;
      spot += spotAt(h) * input.modelLoadHours;
    }
  }
  const { onDemand: od, spot: sp } = input.tiers;
  return { onDemand, spot, cost: onDemand * (od?.pricePerInstanceHour ?? 0) + spot * (sp?.pricePerInstanceHour ?? 0) };
}

/** What an objective other than the weighted sum reads of a plan (objective.ts, right-sizing.ts). */
export type PlanTotals = Pick<PeriodPlan, 'serverlessReplicaHours' | 'costPerPeriod' | 'batchSpillTier'> & {
  instanceHours: { reserved: number; onDemand: number; spot: number };
};

/**
 * planPeriod's cost alone, without building the plan: the reservation search calls it for every R
 * and strategy. Given `totals`, it also writes the plan's instance-hours per tier and serverless
 * hours there. blended-plan.spec.ts checks both against planPeriod.
 */
export function periodCost(
  input: PlanInput,
  reservedInstances: number,
  order: readonly number[],
  serverlessMaxUtilization = NO_SERVERLESS,
  totals?: PlanTotals,
): number {
  const { demand, tiers, tolerance } = input;
  const { reserved, onDemand, spot, serverless } = tiers;
  const mu = input.replicaRequestsPerSecond;
  const u = input.targetUtilization;
  const reservedReplicas = reserved ? reservedInstances * reserved.replicasPerInstance : 0;
  const pOd = onDemand?.pricePerInstanceHour ?? 0;
  const pSpot = spot?.pricePerInstanceHour ?? 0;
  const rOd = onDemand?.replicasPerInstance ?? 0;
  const rSpot = spot?.replicasPerInstance ?? 0;
  const period = demand.onlineReplicas.length;
  let cost = reserved ? reservedInstances * period * reserved.pricePerInstanceHour : 0;
  let slackTotal = 0;
  let emptyHours = false;
  let [odHours, spotHours, serverlessHours] = [0, 0, 0];
  let spillTier: BatchTier | null = demand.batchReplicaHoursPerPeriod > 0 ? 'RESERVED_IDLE' : null;
  for (let h = 0; h < period; h++) {
    const burst = Math.max(0, at(demand.onlineReplicas, h) - reservedReplicas);
    const s = splitBurst(input, burst);
    let od = s.onDemand;
    let sp = s.spot;
    const dedicatedOk = s.served;
    let hourCost = dedicatedOk ? od * pOd + sp * pSpot : Infinity;
    const onlineRps = at(demand.onlineRequestsPerSecond, h);
    let dedicatedRps = onlineRps;
    if (serverless && burst > 0) {
      const reservedRps = reservedReplicas * mu * u;
      const busy = Math.max(0, onlineRps - reservedRps) / mu;
      if (!dedicatedOk || busy / burst <= serverlessMaxUtilization) {
        hourCost = busy * serverless.pricePerReplicaBusyHour;
        serverlessHours += busy;
        od = 0;
        sp = 0;
        dedicatedRps = Math.min(onlineRps, reservedRps);
      }
    }
    if (hourCost === Infinity) return Infinity;
    odHours += od;
    spotHours += sp;
    cost += hourCost;
    slackTotal += Math.max(0, (reservedReplicas + od * rOd + sp * rSpot) * u - dedicatedRps / mu);
    if (reservedInstances + od + sp === 0) emptyHours = true;
  }
  // Cold starts, and with them the choice of spill tier, need each hour's split: rare
  // (scale-to-zero with empty hours only), so planPeriod prices those days.
  if (input.scaleToZero && emptyHours) return copyTotals(planPeriod(input, reservedInstances, order, serverlessMaxUtilization), totals);
  const remaining = demand.batchReplicaHoursPerPeriod - Math.min(demand.batchReplicaHoursPerPeriod, slackTotal);
  if (remaining > EPSILON) {
    // The first cheapest option, as cheapestSpill; none: the plan is infeasible.
    let spill: SpillOption | null = null;
    for (const option of spillOptions({ remaining, tiers, tolerance, only: input.spillTier })) if (spill === null || option.cost < spill.cost) spill = option;
    if (spill === null) return Infinity;
    cost += spill.cost;
    spillTier = spill.tier;
    if (spill.tier === 'SPOT') spotHours += spill.instanceHours;
    else if (spill.tier === 'ON_DEMAND') odHours += spill.instanceHours;
    else serverlessHours += remaining;
  }
  if (totals) {
    totals.instanceHours.reserved = reserved ? reservedInstances * period : 0;
    totals.instanceHours.onDemand = odHours;
    totals.instanceHours.spot = spotHours;
    totals.serverlessReplicaHours = serverlessHours;
    totals.costPerPeriod = cost;
    totals.batchSpillTier = spillTier;
  }
  return cost;
}

/** Writes a built plan's totals into `totals` (when given); returns its cost. */
function copyTotals(plan: PeriodPlan, totals: PlanTotals | undefined): number {
  if (totals) {
    Object.assign(totals.instanceHours, plan.instanceHours);
    Object.assign(totals, { serverlessReplicaHours: plan.serverlessReplicaHours, costPerPeriod: plan.costPerPeriod, batchSpillTier: plan.batchSpillTier });
  }
  return plan.costPerPeriod;
}
