// The offers the plan buys, one per tier: where, which instance, its price and spot interruptions,
// when the price was observed, whether the region is confirmed, and a link to the price's source.
import type { EstimateResult } from '../Estimate';
import { httpHref } from '../../links';
import { availabilityLabel, flag, label, money, sourceKindLabel, TableScroll } from '../../ui';

type ChosenOffer = EstimateResult['chosenOffers'][number];

export function ChosenOffers({ offers }: { offers: readonly ChosenOffer[] }) {
  return (
    <>
      <h2>Chosen offers</h2>
      <TableScroll label="Chosen offers">
        <table data-testid="chosen-offers">
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Provider</th>
              <th scope="col">Region</th>
              <th scope="col">Instance</th>
              <th scope="col">GPUs</th>
              <th scope="col">Replicas per instance</th>
              <th scope="col">Price per instance-hour</th>
              <th scope="col">Spot interruptions per hour</th>
              <th scope="col">Observed</th>
              <th scope="col">Availability</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {offers.map((o) => (
              <ChosenOfferRow key={`${o.pricingModel}-${o.provider}-${o.instanceType}-${o.region}`} o={o} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

function ChosenOfferRow({ o }: { o: ChosenOffer }) {
  return (
    <tr>
      <td>{label(o.pricingModel)}</td>
      <td>{o.provider}</td>
      <td>
        {o.region} <span aria-hidden="true">{flag(o.country)}</span> {o.country}
      </td>
      <td>{o.instanceType}</td>
      <td class="num">{o.gpusPerInstance}</td>
      <td class="num">{o.replicasPerInstance}</td>
      <td class="num">{money(o.pricePerInstanceHour.amount)}</td>
      <td class="num" data-testid={`interruptions-${o.pricingModel}`} data-rate={o.interruptionsPerHour ?? undefined}>
        {o.interruptionsPerHour === null
          ? '—'
          : `${Number(o.interruptionsPerHour.toPrecision(3))} (${interruptionBasisLabel(o.interruptionBasis, o.interruptionRate)})`}
      </td>
      <td>
        {o.observedAt} ({o.priceKind})
      </td>
      <td data-testid={`availability-${o.pricingModel}`}>{availabilityLabel(o.availability)}</td>
      <td>
        {httpHref(o.source) ? (
          <a href={httpHref(o.source)} target="_blank" rel="noreferrer noopener">
            {sourceKindLabel(o.sourceKind)}
            <span class="sr-only"> of the {label(o.pricingModel)} price</span>
          </a>
        ) : (
          <span title={o.source}>{sourceKindLabel(o.sourceKind)}</span>
        )}
      </td>
    </tr>
  );
}

/** Where a spot offer's interruption rate came from, in words (docs/cost-model.md, "The Spot Instance Advisor band"). */
function interruptionBasisLabel(basis: string | null, band: string | null): string {
  if (basis === 'ADVISOR_BAND') return `AWS Spot Advisor band ${band ?? ''}`.trim();
  if (basis === 'REQUEST') return 'your rate';
  if (basis === 'MARKET') return 'marketplace rate';
  return 'default';
}
