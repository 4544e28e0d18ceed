import { hourlyDemand, replicasFor } from './demand.js';

const flat = (rps: number): number[] => Array(24).fill(rps);

describe(replicasFor.name, () => {
  it('is ceil(λ / (μ·u)) without float noise', () => {
    // 8 / (4 × 0.75) = 2.67 → 3
    expect(replicasFor({ requestsPerSecond: 8, replicaRequestsPerSecond: 4, targetUtilization: 0.75 })).toBe(3);
    // 3 / (4 × 0.75) = 1 exactly → 1, not 2
    expect(replicasFor({ requestsPerSecond: 3, replicaRequestsPerSecond: 4, targetUtilization: 0.75 })).toBe(1);
    expect(replicasFor({ requestsPerSecond: 0, replicaRequestsPerSecond: 4, targetUtilization: 0.75 })).toBe(0);
  });
});

describe(hourlyDemand.name, () => {
  it('keeps the minimum replicas in idle hours unless scale-to-zero is allowed', () => {
    const profile = [...flat(0).slice(0, 12), ...flat(8).slice(0, 12)];
    const kept = hourlyDemand({ hourlyRequestsPerSecond: profile, batchShare: 0, replicaRequestsPerSecond: 4 });
    expect(kept.onlineReplicas.slice(0, 12)).toEqual(flat(1).slice(0, 12));
    expect(kept.onlineReplicas[12]).toBe(3);
    const zero = hourlyDemand({
      hourlyRequestsPerSecond: profile,
      batchShare: 0,
      replicaRequestsPerSecond: 4,
      scaleToZero: true,
    });
    expect(zero.onlineReplicas.slice(0, 12)).toEqual(flat(0).slice(0, 12));
  });

  it('removes the batch share from the online profile and counts it as replica-hours', () => {
    const d = hourlyDemand({ hourlyRequestsPerSecond: flat(4), batchShare: 0.25, replicaRequestsPerSecond: 4 });
    expect(d.onlineRequestsPerSecond[0]).toBe(3);
    // 4 rps × 86,400 s × 0.25 = 86,400 batch requests; / (4 rps × 3600 s) = 6 replica-hours
    expect(d.batchRequestsPerPeriod).toBeCloseTo(86_400, 6);
    expect(d.batchReplicaHoursPerPeriod).toBeCloseTo(6, 9);
    // busy: 345,600 requests / 14,400 per replica-hour = 24
    expect(d.busyReplicaHoursPerPeriod).toBeCloseTo(24, 9);
    // naive sizes for the whole 4 rps: ceil(4 / 3) = 2
    expect(d.naivePeakReplicas).toBe(2);
    expect(d.onlineReplicas[0]).toBe(1);
  });
});
