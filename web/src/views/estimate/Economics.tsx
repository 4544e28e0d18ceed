// The plan's unit economics (per 1M output tokens, per 1,000 requests, per GPU-hour, utilisation),
// the comparison with a hosted API when one was priced, and the alternatives to the chosen GPU.
import type { EstimateResult } from '../Estimate';
import { money } from '../../ui';

export function UnitEconomicsSection({ e }: { e: EstimateResult }) {
  const currency = e.monthlyCost.currency;
  return (
    <section aria-labelledby="unit-title">
      <h2 id="unit-title">Unit economics</h2>
      <UnitEconomics unit={e.unitEconomics} currency={currency} />
      {e.apiComparison && <ApiComparison api={e.apiComparison} currency={currency} />}
      <h2>Alternatives</h2>
      <Alternatives alternatives={e.alternatives} currency={currency} />
    </section>
  );
}

function UnitEconomics({ unit, currency }: { unit: EstimateResult['unitEconomics']; currency: string }) {
  return (
    <dl class="facts" data-testid="unit-economics">
      <dt>Per 1M output tokens</dt>
      <dd data-testid="unit-1m">{money(unit.costPer1MOutputTokens?.amount, currency)}</dd>
      <dt>Per 1,000 requests</dt>
      <dd data-testid="unit-1k">{money(unit.costPer1kRequests?.amount, currency)}</dd>
      <dt>Effective price per GPU-hour</dt>
      <dd data-testid="unit-gpuh">{money(unit.effectivePricePerGpuHour?.amount, currency)}</dd>
      <dt>Average utilisation</dt>
      <dd>{(unit.averageUtilization * 100).toFixed(1)} %</dd>
    </dl>
  );
}

function ApiComparison({ api, currency }: { api: NonNullable<EstimateResult['apiComparison']>; currency: string }) {
  return (
    <>
      <h2 id="api-title">Against a hosted API</h2>
      <dl class="facts" data-testid="api-comparison" aria-labelledby="api-title">
        <dt>API price</dt>
        <dd>{money(api.apiPricePer1MTokens.amount, currency)} per 1M tokens</dd>
        <dt>API cost a month</dt>
        <dd data-testid="api-monthly">{money(api.monthlyApiCost.amount, currency)}</dd>
        <dt>Tokens per day</dt>
        <dd>{api.tokensPerDay.toLocaleString('en-US')}</dd>
        <dt>Break-even tokens/day</dt>
        <dd>{api.breakEvenTokensPerDay === null ? 'none: the API is free' : api.breakEvenTokensPerDay.toLocaleString('en-US')}</dd>
        <dt>Cheaper</dt>
        <dd data-testid="api-cheaper">{api.selfHostingCheaper ? 'this plan' : 'the hosted API'}</dd>
      </dl>
    </>
  );
}

function Alternatives({ alternatives, currency }: { alternatives: EstimateResult['alternatives']; currency: string }) {
  if (alternatives.length === 0) return <p>None.</p>;
  return (
    <ul data-testid="alternatives">
      {alternatives.map((a) => (
        <li key={`${a.gpu}-${a.precision}-${a.gpusPerReplica}`}>
          {a.gpusPerReplica} × {a.gpu} at {a.precision}: {money(a.monthlyCost.amount, currency)} a month ({a.deltaVsChosenPct >= 0 ? '+' : ''}
          {a.deltaVsChosenPct} %)
        </li>
      ))}
    </ul>
  );
}
