// The hours of the plan's average day or week: replicas by tier stacked against demand, as a chart
// and, with the same figures, as a table.
import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import type { EstimateResult } from '../Estimate';
import { hourLabel } from '../../profiles';
import { TIER_COLOURS, tierOf } from '../../tiers';
import { ChartCanvas, TableScroll } from '../../ui';

/** Replicas per hour by tier: instances × the replicas one instance of that tier's offer holds; serverless and batch are replica-hours. */
export function hourlyReplicas(e: EstimateResult) {
  const perInstance = (tier: string) => e.chosenOffers.find((o) => tierOf(o.pricingModel) === tier)?.replicasPerInstance ?? 1;
  return {
    reserved: e.hourlyPlan.map((h) => h.reservedInstances * perInstance('RESERVED')),
    onDemand: e.hourlyPlan.map((h) => h.onDemandInstances * perInstance('ON_DEMAND')),
    spot: e.hourlyPlan.map((h) => h.spotInstances * perInstance('SPOT')),
    serverless: e.hourlyPlan.map((h) => h.serverlessReplicaHours),
    batch: e.hourlyPlan.map((h) => h.batchReplicaHours),
    demand: e.hourlyPlan.map((h) => h.replicasNeeded),
  };
}

/** Bars of replicas by tier, stacked, under a line of the replicas demand needs. */
function hourlyChart(e: EstimateResult, hourly: ReturnType<typeof hourlyReplicas>): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: e.hourlyPlan.map((h) => hourLabel(h.hour, e.periodHours)),
      datasets: [
        {
          type: 'line',
          label: 'Demand (replicas needed)',
          data: hourly.demand,
          borderColor: TIER_COLOURS.DEMAND,
          backgroundColor: TIER_COLOURS.DEMAND,
          stepped: 'middle',
          borderWidth: 2,
          pointRadius: 0,
          order: 0,
        },
        { label: 'Reserved', data: hourly.reserved, backgroundColor: TIER_COLOURS.RESERVED, stack: 'plan', order: 1 },
        { label: 'On-demand', data: hourly.onDemand, backgroundColor: TIER_COLOURS.ON_DEMAND, stack: 'plan', order: 1 },
        { label: 'Spot', data: hourly.spot, backgroundColor: TIER_COLOURS.SPOT, stack: 'plan', order: 1 },
        { label: 'Serverless', data: hourly.serverless, backgroundColor: TIER_COLOURS.SERVERLESS, stack: 'plan', order: 1 },
        { label: 'Batch', data: hourly.batch, backgroundColor: TIER_COLOURS.BATCH, borderColor: '#1f2328', borderWidth: 1, stack: 'plan', order: 1 },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'replicas (average in the hour)' } } },
    },
  };
}

export function HourlyPlan({ e }: { e: EstimateResult }) {
  const hourly = useMemo(() => hourlyReplicas(e), [e]);
  const config = useMemo(() => hourlyChart(e, hourly), [e, hourly]);
  return (
    <>
      <h2>The average {e.periodHours > 24 ? 'week' : 'day'} by tier</h2>
      <ChartCanvas
        id="hourly-chart"
        config={config}
        label="Replicas per hour by tier, stacked, against the replicas demand needs; the figures are in the hourly table below."
      />
      <details>
        <summary>Hourly plan as a table</summary>
        <HourlyTable e={e} />
      </details>
    </>
  );
}

function HourlyTable({ e }: { e: EstimateResult }) {
  return (
    <TableScroll label="Hourly plan">
      <table data-testid="hourly-table">
        <thead>
          <tr>
            <th scope="col">{e.periodHours > 24 ? 'Day and hour' : 'Hour'}</th>
            <th scope="col">Demand (req/s)</th>
            <th scope="col">Replicas needed</th>
            <th scope="col">Reserved inst.</th>
            <th scope="col">On-demand inst.</th>
            <th scope="col">Spot inst.</th>
            <th scope="col">Serverless replica-h</th>
            <th scope="col">Batch replica-h</th>
          </tr>
        </thead>
        <tbody>
          {e.hourlyPlan.map((h) => (
            <tr key={h.hour}>
              <td>{e.periodHours > 24 ? hourLabel(h.hour, e.periodHours) : h.hour}</td>
              <td class="num">{h.demandRequestsPerSecond}</td>
              <td class="num">{h.replicasNeeded}</td>
              <td class="num">{h.reservedInstances}</td>
              <td class="num">{h.onDemandInstances}</td>
              <td class="num">{h.spotInstances}</td>
              <td class="num">{h.serverlessReplicaHours}</td>
              <td class="num">{h.batchReplicaHours}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
