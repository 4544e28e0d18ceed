// Hourly demand (docs/cost-model.md#hourly-demand): how many replicas each hour of an average day needs.

export const HOURS_PER_DAY = 24;
/** Keeps queueing delay bounded at the latency target (M/M/c-style headroom). */
export const DEFAULT_TARGET_UTILIZATION = 0.75;
export const DEFAULT_MIN_REPLICAS = 1;
// Guards ceil() against float noise: 3 / (4 × 0.75) must be 1 replica, not 2.
const EPSILON = 1e-9;

export interface HourlyDemand {
  /** Requests/s that need an answer now (the batch share removed), per hour. */
  onlineRequestsPerSecond: number[];
  /** N_h = ceil(λ_h / (μ·u)), at least minReplicas unless scale-to-zero and λ_h = 0. */
  onlineReplicas: number[];
  /** Deferrable work per day, in replica-hours at full speed (no latency target to protect). */
  batchReplicaHoursPerDay: number;
  batchRequestsPerDay: number;
  totalRequestsPerDay: number;
  /** Replica-hours actually busy per day (online + batch). */
  busyReplicaHoursPerDay: number;
  /** Peak replicas for the whole profile, batch not deferred: what the naive plan buys. */
  naivePeakReplicas: number;
}

export function replicasFor({
  requestsPerSecond,
  replicaRequestsPerSecond,
  targetUtilization,
}: {
  requestsPerSecond: number;
  replicaRequestsPerSecond: number;
  targetUtilization: number;
}): number {
  if (requestsPerSecond <= 0) return 0;
  return Math.ceil(requestsPerSecond / (replicaRequestsPerSecond * targetUtilization) - EPSILON);
}

export function hourlyDemand({
  hourlyRequestsPerSecond,
  batchShare,
  replicaRequestsPerSecond,
  targetUtilization = DEFAULT_TARGET_UTILIZATION,
  minReplicas = DEFAULT_MIN_REPLICAS,
  scaleToZero = false,
}: {
  /** 24 values, requests/s, hour 0 first. */
  hourlyRequestsPerSecond: readonly number[];
  /** Share of requests (0..1) that are deferrable batch work. */
  batchShare: number;
  /** μ: requests/s one replica serves at its chosen batch. */
  replicaRequestsPerSecond: number;
  targetUtilization?: number;
  minReplicas?: number;
  scaleToZero?: boolean;
}): HourlyDemand {
  const mu = replicaRequestsPerSecond;
  const online = hourlyRequestsPerSecond.map((rps) => rps * (1 - batchShare));
  const floor = (rps: number): number => (scaleToZero && rps <= 0 ? 0 : minReplicas);
  const onlineReplicas = online.map((rps) => Math.max(floor(rps), replicasFor({ requestsPerSecond: rps, replicaRequestsPerSecond: mu, targetUtilization })));
  const totalRequestsPerDay = hourlyRequestsPerSecond.reduce((sum, rps) => sum + rps * 3600, 0);
  const batchRequestsPerDay = totalRequestsPerDay * batchShare;
  const peakTotal = Math.max(0, ...hourlyRequestsPerSecond);
  return {
    onlineRequestsPerSecond: online,
    onlineReplicas,
    batchRequestsPerDay,
    batchReplicaHoursPerDay: batchRequestsPerDay / (mu * 3600),
    totalRequestsPerDay,
    busyReplicaHoursPerDay: totalRequestsPerDay / (mu * 3600),
    naivePeakReplicas: Math.max(minReplicas, 1, replicasFor({ requestsPerSecond: peakTotal, replicaRequestsPerSecond: mu, targetUtilization })),
  };
}
