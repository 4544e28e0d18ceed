// A brute-force reference for the plan optimizer, for tests only. It lists every plan of the space
// blended-plan.ts says it searches (reservation size, burst mode, scale-to-zero or stay warm, a
// set of serverless hours, the batch overflow's tier), prices each from its definition hour by
// hour, and keeps the cheapest. It shares no code with plan-period.ts or blended-plan.ts, is slow on
// purpose, and is meant for small fleets.
import type { InterruptionTolerance } from '../../compliance/policy.js';
import { at, defined } from '../../checked.js';

const HOURS = 24;

export interface ReferenceTier {
  /** Effective price of one instance-hour (spot: with its interruption overhead). */
  price: number;
  replicasPerInstance: number;
}

export interface ReferenceWorld {
  /** Online requests/s in each of the 24 hours. */
  onlineRequestsPerSecond: readonly number[];
  /** Replicas each hour needs, 0 in empty hours when scaling to zero. */
  onlineReplicas: readonly number[];
  /** Deferrable work per day, replica-hours at full speed. */
  batchReplicaHours: number;
  /** μ: requests/s of one replica. */
  replicaRequestsPerSecond: number;
  targetUtilization: number;
  minReplicas: number;
  scaleToZero: boolean;
  tolerance: InterruptionTolerance;
  recoverableSpotShare: number;
  modelLoadHours: number;
  reserved: ReferenceTier | null;
  onDemand: ReferenceTier | null;
  spot: ReferenceTier | null;
  /** Price of one replica busy for one hour. */
  serverless: number | null;
}

/** The quantities of a plan per day, to price it in Decimal, and its cost in plain numbers. */
export interface ReferencePlan {
  cost: number;
  reservedInstances: number;
  reservedInstanceHours: number;
  onDemandInstanceHours: number;
  spotInstanceHours: number;
  serverlessReplicaHours: number;
  burst: 'BY_TOLERANCE' | 'ON_DEMAND';
  scaleToZero: boolean;
}

type Spill = 'SPOT' | 'ON_DEMAND' | 'SERVERLESS';

/** The cheapest plan of the space, or null when no plan serves the day. */
export function bruteForcePlan(world: ReferenceWorld): ReferencePlan | null {
  let best: ReferencePlan | null = null;
  const keep = (plan: ReferencePlan | null): void => {
    if (plan && (best === null || plan.cost < best.cost)) best = plan;
  };
  const needs = [world.onlineReplicas];
  // Scaling to zero is a permission: keeping minReplicas (at least one) warm is always allowed.
  if (world.scaleToZero) needs.push(world.onlineReplicas.map((n) => (n === 0 ? Math.max(1, world.minReplicas) : n)));
  const bursts: ReferencePlan['burst'][] = ['BY_TOLERANCE'];
  // On-demand is never interrupted, so every tolerance may put its burst there.
  if (world.onDemand && world.spot && world.tolerance !== 'INTOLERANT') bursts.push('ON_DEMAND');
  const spills: Spill[] = [
    ...(world.spot && world.tolerance !== 'INTOLERANT' ? (['SPOT'] as const) : []),
    ...(world.onDemand ? (['ON_DEMAND'] as const) : []),
    ...(world.serverless !== null ? (['SERVERLESS'] as const) : []),
  ];
  const peak = Math.max(...world.onlineReplicas.map((n) => Math.max(n, world.minReplicas, 1)));
  // Generous: enough reserved replicas for the peak plus every batch hour at once, at the target utilization.
  const maxReserved = world.reserved ? Math.ceil((peak + world.batchReplicaHours / world.targetUtilization) / world.reserved.replicasPerInstance) + 1 : 0;
  for (const [i, need] of needs.entries()) {
    const scaleToZero = world.scaleToZero && i === 0;
    for (const burst of bursts) {
      for (let R = 0; R <= maxReserved; R++) {
        for (const serverlessHours of serverlessHourSets(world, need, R)) {
          for (const spill of spills) keep(priceDay({ world, need, scaleToZero, burst, R, serverlessHours, spill }));
          keep(priceDay({ world, need, scaleToZero, burst, R, serverlessHours, spill: null }));
        }
      }
    }
  }
  return best;
}

/**
 * The hours whose burst goes serverless: none, or every hour whose burst replicas would be busy at
 * most x, for each such share x.
 */
function serverlessHourSets(world: ReferenceWorld, need: readonly number[], R: number): Set<number>[] {
  if (world.serverless === null) return [new Set()];
  const reservedReplicas = R * (world.reserved?.replicasPerInstance ?? 0);
  const shares = new Map<number, number>();
  for (let h = 0; h < HOURS; h++) {
    const burst = at(need, h) - reservedReplicas;
    if (burst <= 0) continue;
    shares.set(h, busyAbove(world, h, reservedReplicas) / burst);
  }
  const sets = [new Set<number>()];
  for (const x of new Set(shares.values())) sets.push(new Set([...shares].filter(([, s]) => s <= x).map(([h]) => h)));
  return sets;
}

/** Replica-hours of online work in hour h above what the reservation serves at the target utilization. */
function busyAbove(world: ReferenceWorld, h: number, reservedReplicas: number): number {
  const mu = world.replicaRequestsPerSecond;
  return Math.max(0, at(world.onlineRequestsPerSecond, h) - reservedReplicas * mu * world.targetUtilization) / mu;
}

const instances = (replicas: number, tier: ReferenceTier): number => Math.ceil(replicas / tier.replicasPerInstance);

/** On-demand and spot instances for `burst` replicas, or null when no dedicated tier may serve them. */
function dedicated(world: ReferenceWorld, burst: number, mode: ReferencePlan['burst']): { od: number; sp: number } | null {
  const { onDemand, spot, tolerance } = world;
  const spotAllowed = spot !== null && tolerance !== 'INTOLERANT' && mode === 'BY_TOLERANCE';
  if (!spotAllowed) return onDemand ? { od: instances(burst, onDemand), sp: 0 } : null;
  if (tolerance === 'TOLERANT') return { od: 0, sp: instances(burst, spot) };
  // RECOVERABLE: spot takes at most its share of the replicas (rounded down), on-demand the rest;
  // without an on-demand tier the rest has no dedicated home.
  const onSpot = Math.floor(burst * world.recoverableSpotShare);
  if (!onDemand) return onSpot === burst ? { od: 0, sp: instances(burst, spot) } : null;
  return { od: instances(burst - onSpot, onDemand), sp: instances(onSpot, spot) };
}

function priceDay({
  world,
  need,
  scaleToZero,
  burst: mode,
  R,
  serverlessHours,
  spill,
}: {
  world: ReferenceWorld;
  need: readonly number[];
  scaleToZero: boolean;
  burst: ReferencePlan['burst'];
  R: number;
  serverlessHours: ReadonlySet<number>;
  /** Where batch work beyond idle paid capacity goes; null: it must all fit there. */
  spill: Spill | null;
}): ReferencePlan | null {
  const { reserved, onDemand, spot, serverless } = world;
  const online = serveOnline({ world, need, mode, R, serverlessHours });
  if (online === null) return null;
  const { od, sp, idle } = online;
  let serverlessReplicaHours = online.serverlessReplicaHours;
  const overflow = Math.max(0, world.batchReplicaHours - idle);
  if (overflow > 1e-9) {
    if (spill === null) return null;
    if (spill === 'SERVERLESS') serverlessReplicaHours += overflow;
    else spillDedicated({ world, need, spill, overflow, od, sp });
  } else if (spill !== null) {
    return null; // the same plan as spill null
  }
  const cold = scaleToZero ? coldStartHours(world, R, od, sp) : { od: 0, sp: 0 };
  const onDemandInstanceHours = od.reduce((a, b) => a + b, 0) + cold.od;
  const spotInstanceHours = sp.reduce((a, b) => a + b, 0) + cold.sp;
  const reservedInstanceHours = reserved ? R * HOURS : 0;
  const cost =
    reservedInstanceHours * (reserved?.price ?? 0) +
    onDemandInstanceHours * (onDemand?.price ?? 0) +
    spotInstanceHours * (spot?.price ?? 0) +
    serverlessReplicaHours * (serverless ?? 0);
  return {
    cost,
    reservedInstances: reserved ? R : 0,
    reservedInstanceHours,
    onDemandInstanceHours,
    spotInstanceHours,
    serverlessReplicaHours,
    burst: mode,
    scaleToZero,
  };
}

/**
 * Online traffic hour by hour: on-demand and spot instances per hour, serverless replica-hours, and
 * the idle paid capacity left for batch work; null when an hour has nowhere to go.
 */
function serveOnline({
  world,
  need,
  mode,
  R,
  serverlessHours,
}: {
  world: ReferenceWorld;
  need: readonly number[];
  mode: ReferencePlan['burst'];
  R: number;
  serverlessHours: ReadonlySet<number>;
}): { od: number[]; sp: number[]; serverlessReplicaHours: number; idle: number } | null {
  const { reserved, onDemand, spot, serverless } = world;
  const mu = world.replicaRequestsPerSecond;
  const u = world.targetUtilization;
  const reservedReplicas = R * (reserved?.replicasPerInstance ?? 0);
  const od: number[] = [];
  const sp: number[] = [];
  let serverlessReplicaHours = 0;
  let idle = 0;
  for (let h = 0; h < HOURS; h++) {
    const burst = Math.max(0, at(need, h) - reservedReplicas);
    const split = burst > 0 ? dedicated(world, burst, mode) : { od: 0, sp: 0 };
    const toServerless = burst > 0 && (serverlessHours.has(h) || split === null);
    if (toServerless && serverless === null) return null;
    // toServerless covers a burst without a dedicated split, so split is null only with it.
    od.push(toServerless || split === null ? 0 : split.od);
    sp.push(toServerless || split === null ? 0 : split.sp);
    const busy = toServerless ? busyAbove(world, h, reservedReplicas) : 0;
    serverlessReplicaHours += busy;
    // Online work on dedicated capacity keeps its headroom; what is left up to u is free for batch.
    const paidReplicas = reservedReplicas + at(od, h) * (onDemand?.replicasPerInstance ?? 0) + at(sp, h) * (spot?.replicasPerInstance ?? 0);
    const dedicatedWork = at(world.onlineRequestsPerSecond, h) / mu - busy;
    idle += Math.max(0, paidReplicas * u - dedicatedWork);
  }
  return { od, sp, serverlessReplicaHours, idle };
}

/** Adds the batch overflow to the instances of its tier, `od` or `sp`, hour by hour. */
function spillDedicated({
  world,
  need,
  spill,
  overflow,
  od,
  sp,
}: {
  world: ReferenceWorld;
  need: readonly number[];
  spill: Exclude<Spill, 'SERVERLESS'>;
  overflow: number;
  od: number[];
  sp: number[];
}): void {
  // Whole instance-hours, spread evenly, the lowest-demand hours (then the earliest) first.
  const tier = defined(spill === 'SPOT' ? world.spot : world.onDemand, `the ${spill} tier`);
  const instanceHours = Math.ceil(overflow / tier.replicasPerInstance - 1e-9);
  const order = [...Array(HOURS).keys()].sort((a, b) => at(need, a) - at(need, b) || a - b);
  order.forEach((h, i) => {
    const n = Math.floor(instanceHours / HOURS) + (i < instanceHours % HOURS ? 1 : 0);
    if (spill === 'SPOT') sp[h] = at(sp, h) + n;
    else od[h] = at(od, h) + n;
  });
}

/** Instance-hours of model loading on each tier after every start from zero. */
function coldStartHours(world: ReferenceWorld, R: number, od: readonly number[], sp: readonly number[]): { od: number; sp: number } {
  let coldOd = 0;
  let coldSp = 0;
  const running = (h: number): number => R + at(od, h) + at(sp, h);
  for (let h = 0; h < HOURS; h++) {
    if (running((h + HOURS - 1) % HOURS) === 0 && running(h) > 0) {
      coldOd += at(od, h) * world.modelLoadHours;
      coldSp += at(sp, h) * world.modelLoadHours;
    }
  }
  return { od: coldOd, sp: coldSp };
}
