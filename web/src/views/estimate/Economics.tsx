// The plan's unit economics (per 1M output tokens, per 1,000 requests, per GPU-hour, utilisation),
// the comparison with a hosted API when one was priced, owning the base load against renting it
// when a site or an electricity price was given, and the alternatives to the chosen GPU.
import { Fragment } from 'preact';
import type { EstimateResult } from '../Estimate';
import { money } from '../../ui';

export function UnitEconomicsSection({ e }: { e: EstimateResult }) {
  const currency = e.monthlyCost.currency;
  return (
    <section aria-labelledby="unit-title">
      <h2 id="unit-title">Unit economics</h2>
      <UnitEconomics unit={e.unitEconomics} currency={currency} />
      {e.apiComparison && <ApiComparison api={e.apiComparison} currency={currency} />}
      {e.owned && <RentOrBuy owned={e.owned} />}
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

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
const RENT_AGAINST: Record<string, string> = { RESERVED: 'reserved', ON_DEMAND: 'on demand every hour' };

function RentOrBuy({ owned: o }: { owned: NonNullable<EstimateResult['owned']> }) {
  const currency = o.monthlyCost.currency;
  const parts = [
    ['Depreciation', o.depreciation],
    ['Capital', o.capital],
    ['Power', o.power],
    ['Colocation', o.colocation],
    ['Operations', o.operations],
  ] as const;
  return (
    <>
      <h2 id="owned-title">Rent or buy</h2>
      <dl class="facts" data-testid="rent-or-buy" aria-labelledby="owned-title">
        <dt>Owned</dt>
        <dd data-testid="owned-servers">
          {count(o.servers, 'server')}, {count(o.gpus, 'GPU')} (base load {count(o.baseGpus, 'GPU')},{' '}
          {o.baseLoadBasis === 'RESERVED' ? 'reserved' : 'hourly floor'})
        </dd>
        <dt>Owned cost a month</dt>
        <dd data-testid="owned-monthly">{money(o.monthlyCost.amount, currency)}</dd>
        {parts.map(([label, m]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd data-testid={`owned-${label.toLowerCase()}`}>{money(m.amount, currency)}</dd>
          </Fragment>
        ))}
        <dt>Same GPUs reserved</dt>
        <dd data-testid="owned-reserved">{o.reservedMonthlyCost ? money(o.reservedMonthlyCost.amount, currency) : 'no reserved tier'}</dd>
        <dt>Same GPUs on demand</dt>
        <dd data-testid="owned-on-demand">{o.onDemandMonthlyCost ? money(o.onDemandMonthlyCost.amount, currency) : 'no on-demand offer'}</dd>
        <dt>Cheaper of owning and reserving</dt>
        <dd data-testid="owned-cheaper">{o.cheaperThanReserved === null ? 'no reserved tier' : o.cheaperThanReserved ? 'owning' : 'reserving'}</dd>
        <dt>Crossover utilisation</dt>
        <dd data-testid="owned-crossover">{o.crossoverUtilization === null ? 'none' : `${(o.crossoverUtilization * 100).toFixed(1)} %`}</dd>
        <dt>Server price</dt>
        <dd data-testid="owned-server-price" title={o.serverPriceSource}>
          {money(o.serverPrice.amount, currency)} ({o.serverPriceSource === 'REQUEST' ? 'yours' : 'sourced default'})
        </dd>
        <dt>Electricity per kWh</dt>
        <dd data-testid="owned-electricity" title={o.electricitySource}>
          {money(o.electricityPerKwh.amount, currency)} ({o.electricitySource === 'REQUEST' ? 'yours' : 'sourced default'})
        </dd>
        <dt>Carbon a month</dt>
        <dd data-testid="owned-carbon">{o.kgCo2ePerMonth === null ? 'give a site' : `${o.kgCo2ePerMonth.toLocaleString('en-US')} kg CO2e`}</dd>
        <dt>Payback</dt>
        <dd data-testid="owned-payback">
          {o.paybackMonths === null ? 'never' : `${o.paybackMonths} months`}
          {o.paybackAgainst ? ` (against ${RENT_AGAINST[o.paybackAgainst] ?? o.paybackAgainst})` : ''}
        </dd>
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
