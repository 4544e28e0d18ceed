// Hourly demand (docs/cost-model.md#hourly-demand): how many replicas each hour of an average
// period needs. The period is as long as the profile: a day (24 hours) or a week (168, Monday 00:00 first).

export const HOURS_PER_DAY = 24;
export const HOURS_PER_WEEK = 168;
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
  /** Deferrable work per period, in replica-hours at full speed (no latency target to protect). */
  batchReplicaHoursPerPeriod: number;
  batchRequestsPerPeriod: number;
  totalRequestsPerPeriod: number;
  /** Replica-hours actually busy per period (online + batch). */
  busyReplicaHoursPerPeriod: number;
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
  /** 24 or 168 values, requests/s, hour 0 first. */
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
  const totalRequestsPerPeriod = hourlyRequestsPerSecond.reduce((sum, rps) => sum + rps * 3600, 0);
  const batchRequestsPerPeriod = totalRequestsPerPeriod * batchShare;
  const peakTotal = Math.max(0, ...hourlyRequestsPerSecond);
  return {
    onlineRequestsPerSecond: online,
    onlineReplicas,
    batchRequestsPerPeriod,
    batchReplicaHoursPerPeriod: batchRequestsPerPeriod / (mu * 3600),
    totalRequestsPerPeriod,
    busyReplicaHoursPerPeriod: totalRequestsPerPeriod / (mu * 3600),
    naivePeakReplicas: Math.max(minReplicas, 1, replicasFor({ requestsPerSecond: peakTotal, replicaRequestsPerSecond: mu, targetUtilization })),
  };
}
