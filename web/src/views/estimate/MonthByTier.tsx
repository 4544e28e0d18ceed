// The plan's month by tier against its baselines (on-demand autoscaled, naive): a chart, the cost
// of each tier and where it is bought, and what the plan saves on each baseline.
import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import type { EstimateResult } from '../Estimate';
import { TIER_COLOURS, tierOf } from '../../tiers';
import { ChartCanvas, label, money, TableScroll } from '../../ui';

/** Horizontal stacked bars: this plan by tier, next to the two baselines. */
function tierChart(e: EstimateResult, currency: string): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: ['This plan', 'On-demand autoscaled', 'Naive (peak, on-demand)'],
      datasets: [
        ...e.tiers.map((t) => ({
          label: label(t.pricingModel),
          data: [Number(t.cost.amount), 0, 0],
          backgroundColor: TIER_COLOURS[tierOf(t.pricingModel)],
          stack: 'cost',
        })),
        {
          label: 'baseline (on-demand)',
          data: [0, Number(e.baselines.onDemandAutoscaled?.monthlyCost.amount ?? 0), Number(e.baselines.naive?.monthlyCost.amount ?? 0)],
          backgroundColor: '#8c959f',
          stack: 'cost',
        },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      indexAxis: 'y',
      scales: { x: { stacked: true, beginAtZero: true, title: { display: true, text: `${currency} per month` } }, y: { stacked: true } },
    },
  };
}

export function MonthByTier({ e }: { e: EstimateResult }) {
  const currency = e.monthlyCost.currency;
  const config = useMemo(() => tierChart(e, currency), [e, currency]);
  return (
    <section aria-labelledby="month-title">
      <h2 id="month-title">The month by tier, against the baselines</h2>
      <ChartCanvas
        id="tier-chart"
        height={220}
        config={config}
        label="Monthly cost of this plan by tier, next to on-demand autoscaled and naive; the figures are in the table."
      />
      <TierTable tiers={e.tiers} currency={currency} />
      <Baselines e={e} />
    </section>
  );
}

function TierTable({ tiers, currency }: { tiers: EstimateResult['tiers']; currency: string }) {
  return (
    <TableScroll label="Monthly cost by tier">
      <table data-testid="tier-table">
        <thead>
          <tr>
            <th scope="col">Tier</th>
            <th scope="col">Bought from</th>
            <th scope="col">Cost ({currency})</th>
            <th scope="col">GPU-hours</th>
            <th scope="col">Share of capacity</th>
          </tr>
        </thead>
        <tbody>
          {tiers.map((t) => (
            <tr key={t.pricingModel} data-tier={t.pricingModel}>
              <th scope="row">
                <span class="swatch" data-colour={tierOf(t.pricingModel)} aria-hidden="true" /> {label(t.pricingModel)}
              </th>
              <td>
                {t.provider}, {t.region}
              </td>
              <td class="num" data-testid={`tier-cost-${t.pricingModel}`}>
                {money(t.cost.amount)}
              </td>
              <td class="num">{t.gpuHours}</td>
              <td class="num">{(t.capacityShare * 100).toFixed(1)} %</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** This plan against the baselines, with what it saves on each (or why there are none). */
function Baselines({ e }: { e: EstimateResult }) {
  return (
    <table class="compare" data-testid="baselines">
      <tbody>
        <tr>
          <th scope="row">This plan</th>
          <td class="num" data-testid="baseline-plan">
            {money(e.monthlyCost.amount)}
          </td>
          <td />
        </tr>
        <tr>
          <th scope="row" title={e.baselines.onDemandAutoscaled?.description}>
            On-demand autoscaled
          </th>
          <td class="num" data-testid="baseline-autoscaled">
            {e.baselines.onDemandAutoscaled ? money(e.baselines.onDemandAutoscaled.monthlyCost.amount) : 'not priced'}
          </td>
          <td data-testid="savings-autoscaled">{e.savingsVsOnDemandAutoscaledPct === null ? '' : `saves ${e.savingsVsOnDemandAutoscaledPct} %`}</td>
        </tr>
        <tr>
          <th scope="row" title={e.baselines.naive?.description}>
            Naive
          </th>
          <td class="num" data-testid="baseline-naive">
            {e.baselines.naive ? money(e.baselines.naive.monthlyCost.amount) : 'not priced'}
          </td>
          <td data-testid="savings-naive">{e.savingsVsNaivePct === null ? '' : `saves ${e.savingsVsNaivePct} %`}</td>
        </tr>
        {e.baselines.unavailableReason && (
          <tr>
            <td colSpan={3} data-testid="baselines-unavailable">
              {e.baselines.unavailableReason}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
