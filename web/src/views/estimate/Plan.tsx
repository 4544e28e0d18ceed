// The plan an estimate answered, part by part: the headline, why this plan, the hours by tier, the
// month by tier against the baselines, unit economics and alternatives, the chosen offers, and the
// assumptions and warnings.
import type { EstimateResult } from '../Estimate';
import { money } from '../../ui';
import { ChosenOffers } from './ChosenOffers';
import { UnitEconomicsSection } from './Economics';
import { HourlyPlan } from './HourlyPlan';
import { MonthByTier } from './MonthByTier';
import { CostAndCarbon } from './CostAndCarbon';

export function Plan({ e }: { e: EstimateResult }) {
  return (
    <div class="plan" data-testid="plan">
      <PlanHeadline e={e} />
      <Explanations explanations={e.explanations} />
      <HourlyPlan e={e} />
      <div class="cols">
        <MonthByTier e={e} />
        <UnitEconomicsSection e={e} />
      </div>
      <CostAndCarbon e={e} />
      <ChosenOffers offers={e.chosenOffers} />
      <div class="cols">
        <Assumptions assumptions={e.assumptions} />
        <Warnings warnings={e.warnings} />
      </div>
    </div>
  );
}

/** The monthly cost, what it runs on, the catalog version and the exchange rate. */
function PlanHeadline({ e }: { e: EstimateResult }) {
  return (
    <p class="headline">
      <span class="big" data-testid="monthly-cost">
        {money(e.monthlyCost.amount)}
      </span>{' '}
      {e.monthlyCost.currency} a month: {e.model.name} at {e.precision} on {e.gpusPerReplica} × {e.gpu} per replica, {e.reservedInstances} reserved instance(s).
      Catalog version <strong data-testid="plan-version">{e.catalogVersion.label}</strong>.
      {e.exchangeRate && (
        <span data-testid="exchange-rate">
          {' '}
          Prices converted at 1 {e.exchangeRate.base} = {e.exchangeRate.rate} {e.exchangeRate.currency} ({e.exchangeRate.source}, {e.exchangeRate.date}).
        </span>
      )}
    </p>
  );
}

/** Why this plan, in a sentence each (nothing when there is nothing to say). */
function Explanations({ explanations }: { explanations: readonly string[] }) {
  if (explanations.length === 0) return null;
  return (
    <section aria-labelledby="why-title">
      <h2 id="why-title">Why this plan</h2>
      <ul data-testid="explanations">
        {explanations.map((x) => (
          <li key={x}>{x}</li>
        ))}
      </ul>
    </section>
  );
}

function Assumptions({ assumptions }: { assumptions: readonly string[] }) {
  return (
    <section aria-labelledby="assumptions-title">
      <h2 id="assumptions-title">Assumptions</h2>
      <ul data-testid="assumptions">
        {assumptions.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ul>
    </section>
  );
}

function Warnings({ warnings }: { warnings: readonly string[] }) {
  return (
    <section aria-labelledby="warnings-title">
      <h2 id="warnings-title">Warnings</h2>
      {warnings.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul data-testid="warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
