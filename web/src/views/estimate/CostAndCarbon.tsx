// Cost against carbon (docs/carbon.md): this plan and the plan the other objective chooses within
// the same policy (the lowest-carbon plan when optimizing for cost, the cheapest when optimizing
// for carbon), as points of a chart and as a table. The GPU/precision alternatives carry no carbon
// figure in the answer, so they are not drawn.
import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import type { EstimateResult } from '../Estimate';
import { ChartCanvas, money, TableScroll } from '../../ui';

type Point = { name: string; cost: number; kg: number };

function pointsOf(e: EstimateResult): Point[] {
  const c = e.carbon;
  if (c.kgCo2ePerMonth === null) return [];
  const mine: Point = { name: `This plan (${c.optimizedFor.toLowerCase()})`, cost: Number(e.monthlyCost.amount), kg: c.kgCo2ePerMonth };
  const o = c.otherPlan;
  if (!o || o.kgCo2ePerMonth === null) return [mine];
  return [mine, { name: `Optimized for ${o.optimizedFor.toLowerCase()}: ${o.gpu} ${o.precision}`, cost: Number(o.monthlyCost.amount), kg: o.kgCo2ePerMonth }];
}

function chartOf(points: readonly Point[], currency: string): ChartConfiguration {
  return {
    type: 'scatter',
    data: {
      datasets: points.map((p, i) => ({
        label: p.name,
        data: [{ x: p.cost, y: p.kg }],
        backgroundColor: i === 0 ? '#0969da' : '#1a7f37',
        pointRadius: 7,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { beginAtZero: true, title: { display: true, text: `${currency} per month` } },
        y: { beginAtZero: true, title: { display: true, text: 'kg CO2e per month (location-based)' } },
      },
    },
  };
}

export function CostAndCarbon({ e }: { e: EstimateResult }) {
  const currency = e.monthlyCost.currency;
  const points = useMemo(() => pointsOf(e), [e]);
  const config = useMemo(() => chartOf(points, currency), [points, currency]);
  const c = e.carbon;
  return (
    <section aria-labelledby="carbon-title" data-testid="cost-carbon">
      <h2 id="carbon-title">Cost against carbon</h2>
      {points.length === 0 ? (
        <p data-testid="carbon-unknown">No carbon figure for this plan: {c.unknownReason}.</p>
      ) : (
        <>
          <p>
            {c.kwhPerMonth?.toLocaleString('en-US', { maximumFractionDigits: 0 })} kWh and{' '}
            <strong data-testid="plan-kg">{c.kgCo2ePerMonth?.toLocaleString('en-US', { maximumFractionDigits: 1 })}</strong> kg CO2e a month,{' '}
            {c.kgCo2ePer1MOutputTokens?.toLocaleString('en-US', { maximumFractionDigits: 4 })} kg per 1M output tokens (location-based, GPU board and PUE only).
          </p>
          <ChartCanvas
            id="carbon-chart"
            height={240}
            config={config}
            label="Monthly cost against monthly kg CO2e of this plan and of the plan optimized for the other objective; the figures are in the table."
          />
          <TableScroll label="Cost and carbon of the plans">
            <table data-testid="carbon-table">
              <thead>
                <tr>
                  <th scope="col">Plan</th>
                  <th scope="col">Cost ({currency} per month)</th>
                  <th scope="col">kg CO2e per month</th>
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.name}>
                    <th scope="row">{p.name}</th>
                    <td class="num">{money(String(p.cost))}</td>
                    <td class="num">{p.kg.toFixed(1)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {c.otherPlan === null && <p>The plan optimized for the other objective is this one.</p>}
        </>
      )}
    </section>
  );
}
