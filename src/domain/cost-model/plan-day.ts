// One average day of a plan with R reserved instances (docs/cost-model.md#the-day-planner): burst by tolerance,
// serverless hours by a utilization threshold, batch work into idle paid capacity then the
// cheapest tier, cold starts. Priced in plain numbers; plan-costing.ts recomputes money in Decimal.
import type { InterruptionTolerance } from '../compliance/policy.js';
import { HOURS_PER_DAY, type HourlyDemand } from './demand.js';
import type { PlanTier, PlanTiers } from './plan-tiers.js';

const EPSILON = 1e-9;
/** serverlessMaxUtilization that keeps serverless out of the online tier. */
export const NO_SERVERLESS = -1;

export type BatchTier = 'RESERVED_IDLE' | 'SPOT' | 'ON_DEMAND' | 'SERVERLESS';

export interface PlanHour {
  hour: number;
  onlineReplicas: number;
  reservedInstances: number;
  onDemandInstances: number;
  spotInstances: number;
  /** Replica-hours bought serverless this hour (busy time only). */
  serverlessReplicaHours: number;
  /** Batch replica-hours run this hour, on whatever capacity it landed. */
  batchReplicaHours: number;
}

export interface DayPlan {
  reservedInstances: number;
  hours: PlanHour[];
  /** Instance-hours per day per tier, cold-start load time included. */
  instanceHours: { reserved: number; onDemand: number; spot: number };
  serverlessReplicaHours: number;
  /** Instance-hours of model loading after a scale from zero, by tier (inside instanceHours). */
  coldStartInstanceHours: { reserved: number; onDemand: number; spot: number };
  /** Where batch work that did not fit in idle paid capacity went. */
  batchSpillTier: BatchTier | null;
  costPerDay: number;
  /** Part of costPerDay spent loading the model after starts from zero. */
  coldStartCostPerDay: number;
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
  scaleToZero: boolean;
}

/** Hours in the order batch work is placed: lowest online demand first, then by hour. */
export function batchOrder(demand: HourlyDemand): number[] {
  return [...demand.onlineReplicas.keys()].sort(
    (a, b) => demand.onlineReplicas[a]! - demand.onlineReplicas[b]! || a - b,
  );
}

export const instancesFor = (replicas: number, tier: PlanTier): number =>
  replicas <= 0 ? 0 : Math.ceil(replicas / tier.replicasPerInstance - EPSILON);

/** Prices the day with R reserved instances; every other choice follows from R by rule. */
export function planDay(
  input: PlanInput,
  reservedInstances: number,
  order: readonly number[] = batchOrder(input.demand),
  serverlessMaxUtilization = NO_SERVERLESS,
): DayPlan {
  const { demand, tiers, tolerance } = input;
  const { reserved, onDemand, spot, serverless } = tiers;
  const reservedReplicas = reserved ? reservedInstances * reserved.replicasPerInstance : 0;
  const hours: PlanHour[] = [];
  const slack: number[] = [];
  let feasible = true;
  let cost = reserved ? reservedInstances * HOURS_PER_DAY * reserved.pricePerInstanceHour : 0;

  for (let h = 0; h < HOURS_PER_DAY; h++) {
    const needed = demand.onlineReplicas[h]!;
    const burst = Math.max(0, needed - reservedReplicas);
    let od = 0;
    let sp = 0;
    let dedicatedOk = true;
    if (burst > 0) {
      const useSpot = tolerance !== 'INTOLERANT' && spot !== null;
      if (tolerance === 'RECOVERABLE' && useSpot && onDemand) {
        const fallback = Math.ceil(burst * (1 - input.recoverableSpotShare) - EPSILON);
        od = instancesFor(fallback, onDemand);
        sp = instancesFor(burst - fallback, spot);
      } else if (tolerance === 'TOLERANT' && useSpot) {
        sp = instancesFor(burst, spot);
      } else if (onDemand) {
        od = instancesFor(burst, onDemand);
      } else if (useSpot) {
        sp = instancesFor(burst, spot);
      } else {
        dedicatedOk = false;
      }
    }
    // Serverless takes the overflow above the reservation in hours whose burst replicas would
    // be busy at most `serverlessMaxUtilization` (or when nothing dedicated can serve it).
    let serverlessHours = 0;
    if (serverless && burst > 0) {
      const reservedRps = reservedReplicas * input.replicaRequestsPerSecond * input.targetUtilization;
      const overflowRps = Math.max(0, demand.onlineRequestsPerSecond[h]! - reservedRps);
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
    const paidSlots =
      reservedReplicas + od * (onDemand?.replicasPerInstance ?? 0) + sp * (spot?.replicasPerInstance ?? 0);
    const onlineRps = demand.onlineRequestsPerSecond[h]!;
    const dedicatedRps =
      serverlessHours > 0
        ? Math.min(onlineRps, reservedReplicas * input.replicaRequestsPerSecond * input.targetUtilization)
        : onlineRps;
    slack.push(Math.max(0, paidSlots * input.targetUtilization - dedicatedRps / input.replicaRequestsPerSecond));
    cost +=
      od * (onDemand?.pricePerInstanceHour ?? 0) +
      sp * (spot?.pricePerInstanceHour ?? 0) +
      serverlessHours * (serverless?.pricePerReplicaBusyHour ?? 0);
    hours.push({
      hour: h,
      onlineReplicas: needed,
      reservedInstances: reserved ? reservedInstances : 0,
      onDemandInstances: od,
      spotInstances: sp,
      serverlessReplicaHours: serverlessHours,
      batchReplicaHours: 0,
    });
  }

  // Batch: idle paid capacity first (free at the margin), lowest-demand hours first.
  let remaining = demand.batchReplicaHoursPerDay;
  for (const h of order) {
    if (remaining <= EPSILON) break;
    const take = Math.min(remaining, slack[h]!);
    hours[h]!.batchReplicaHours += take;
    remaining -= take;
  }
  let batchSpillTier: BatchTier | null = demand.batchReplicaHoursPerDay > 0 ? 'RESERVED_IDLE' : null;
  if (remaining > EPSILON) {
    const spill = cheapestBatchTier({ remaining, tiers, tolerance });
    if (!spill) {
      feasible = false;
    } else {
      batchSpillTier = spill.tier;
      cost += spill.cost;
      if (spill.tier === 'SERVERLESS') {
        // Billed by busy time, so the hour does not change the price: spread it evenly.
        for (const row of hours) {
          row.serverlessReplicaHours += remaining / HOURS_PER_DAY;
          row.batchReplicaHours += remaining / HOURS_PER_DAY;
        }
      } else {
        const tier = spill.tier === 'SPOT' ? spot! : onDemand!;
        const instanceHours = instancesFor(remaining, tier);
        const base = Math.floor(instanceHours / HOURS_PER_DAY);
        const extra = instanceHours % HOURS_PER_DAY;
        order.forEach((h, i) => {
          const n = base + (i < extra ? 1 : 0);
          if (n === 0) return;
          const row = hours[h]!;
          if (spill.tier === 'SPOT') row.spotInstances += n;
          else row.onDemandInstances += n;
          row.batchReplicaHours += (remaining * n) / instanceHours;
        });
      }
    }
  }

  const instanceHours = {
    reserved: reserved ? reservedInstances * HOURS_PER_DAY : 0,
    onDemand: hours.reduce((s, r) => s + r.onDemandInstances, 0),
    spot: hours.reduce((s, r) => s + r.spotInstances, 0),
  };
  const coldStartInstanceHours = { reserved: 0, onDemand: 0, spot: 0 };
  let coldStartCostPerDay = 0;
  if (input.scaleToZero) {
    // Each start from zero loads the model before serving: paid capacity, no work done.
    hours.forEach((row, h) => {
      const prev = hours[(h + HOURS_PER_DAY - 1) % HOURS_PER_DAY]!;
      const running = (r: PlanHour): number => r.reservedInstances + r.onDemandInstances + r.spotInstances;
      if (running(prev) === 0 && running(row) > 0) {
        coldStartInstanceHours.onDemand += row.onDemandInstances * input.modelLoadHours;
        coldStartInstanceHours.spot += row.spotInstances * input.modelLoadHours;
      }
    });
    instanceHours.onDemand += coldStartInstanceHours.onDemand;
    instanceHours.spot += coldStartInstanceHours.spot;
    coldStartCostPerDay =
      coldStartInstanceHours.onDemand * (onDemand?.pricePerInstanceHour ?? 0) +
      coldStartInstanceHours.spot * (spot?.pricePerInstanceHour ?? 0);
    cost += coldStartCostPerDay;
  }
  const serverlessReplicaHours = hours.reduce((s, r) => s + r.serverlessReplicaHours, 0);
  return {
    reservedInstances: reserved ? reservedInstances : 0,
    hours,
    instanceHours,
    serverlessReplicaHours,
    coldStartInstanceHours,
    batchSpillTier,
    costPerDay: feasible ? cost : Infinity,
    coldStartCostPerDay,
    feasible,
  };
}

/** Deferred work that idle capacity cannot absorb goes where a replica-hour is cheapest. */
function cheapestBatchTier({
  remaining,
  tiers,
  tolerance,
}: {
  remaining: number;
  tiers: PlanTiers;
  tolerance: InterruptionTolerance;
}): { tier: BatchTier; cost: number } | null {
  const options: { tier: BatchTier; cost: number }[] = [];
  if (tolerance !== 'INTOLERANT' && tiers.spot) {
    options.push({ tier: 'SPOT', cost: instancesFor(remaining, tiers.spot) * tiers.spot.pricePerInstanceHour });
  }
  if (tiers.onDemand) {
    options.push({
      tier: 'ON_DEMAND',
      cost: instancesFor(remaining, tiers.onDemand) * tiers.onDemand.pricePerInstanceHour,
    });
  }
  if (tiers.serverless) {
    options.push({ tier: 'SERVERLESS', cost: remaining * tiers.serverless.pricePerReplicaBusyHour });
  }
  return options.reduce<{ tier: BatchTier; cost: number } | null>(
    (best, o) => (best === null || o.cost < best.cost ? o : best),
    null,
  );
}

const scratchRunning = new Float64Array(HOURS_PER_DAY);

/**
 * planDay's cost alone, without building the plan: the reservation search calls it for every R,
 * so it allocates nothing. blended-plan.spec.ts checks it equals planDay(...).costPerDay.
 */
export function dayCost(
  input: PlanInput,
  reservedInstances: number,
  order: readonly number[],
  serverlessMaxUtilization = NO_SERVERLESS,
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
  const useSpot = tolerance !== 'INTOLERANT' && spot !== null;
  let cost = reserved ? reservedInstances * HOURS_PER_DAY * reserved.pricePerInstanceHour : 0;
  let slackTotal = 0;
  for (let h = 0; h < HOURS_PER_DAY; h++) {
    const burst = Math.max(0, demand.onlineReplicas[h]! - reservedReplicas);
    let od = 0;
    let sp = 0;
    let dedicatedOk = true;
    if (burst > 0) {
      if (tolerance === 'RECOVERABLE' && useSpot && onDemand) {
        const fallback = Math.ceil(burst * (1 - input.recoverableSpotShare) - EPSILON);
        od = instancesFor(fallback, onDemand);
        sp = instancesFor(burst - fallback, spot!);
      } else if (tolerance === 'TOLERANT' && useSpot) {
        sp = instancesFor(burst, spot!);
      } else if (onDemand) {
        od = instancesFor(burst, onDemand);
      } else if (useSpot) {
        sp = instancesFor(burst, spot!);
      } else {
        dedicatedOk = false;
      }
    }
    let hourCost = dedicatedOk ? od * pOd + sp * pSpot : Infinity;
    const onlineRps = demand.onlineRequestsPerSecond[h]!;
    let dedicatedRps = onlineRps;
    if (serverless && burst > 0) {
      const reservedRps = reservedReplicas * mu * u;
      const busy = Math.max(0, onlineRps - reservedRps) / mu;
      if (!dedicatedOk || busy / burst <= serverlessMaxUtilization) {
        hourCost = busy * serverless.pricePerReplicaBusyHour;
        od = 0;
        sp = 0;
        dedicatedRps = Math.min(onlineRps, reservedRps);
      }
    }
    if (hourCost === Infinity) return Infinity;
    cost += hourCost;
    slackTotal += Math.max(0, (reservedReplicas + od * rOd + sp * rSpot) * u - dedicatedRps / mu);
    scratchRunning[h] = reservedInstances + od + sp;
  }
  const remaining = demand.batchReplicaHoursPerDay - Math.min(demand.batchReplicaHoursPerDay, slackTotal);
  if (remaining > EPSILON) {
    const spill = cheapestBatchTier({ remaining, tiers, tolerance });
    if (!spill) return Infinity;
    cost += spill.cost;
    if (input.scaleToZero && spill.tier !== 'SERVERLESS') {
      const instanceHours = instancesFor(remaining, spill.tier === 'SPOT' ? spot! : onDemand!);
      const base = Math.floor(instanceHours / HOURS_PER_DAY);
      const extra = instanceHours % HOURS_PER_DAY;
      for (let i = 0; i < order.length; i++) scratchRunning[order[i]!]! += base + (i < extra ? 1 : 0);
    }
  }
  if (input.scaleToZero) cost += coldStartCost(input, reservedInstances, order, serverlessMaxUtilization);
  return cost;
}

/** Cold starts need each hour's split by tier; rare (scale-to-zero only), so planDay prices them. */
function coldStartCost(
  input: PlanInput,
  reservedInstances: number,
  order: readonly number[],
  serverlessMaxUtilization: number,
): number {
  for (let h = 0; h < HOURS_PER_DAY; h++) {
    if (scratchRunning[h] === 0) {
      return planDay(input, reservedInstances, order, serverlessMaxUtilization).coldStartCostPerDay;
    }
  }
  return 0;
}

