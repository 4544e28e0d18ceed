// The offers' answer: what it holds (count, currency, catalog version, exchange rate, warnings),
// the compliant offers sortable by any column, and the cheaper offers the policy excluded and why.
import { Fragment } from 'preact';
import type { Result, Row } from '../Offers';
import { httpHref } from '../../links';
import { availabilityLabel, flag, label, money, sourceKindLabel, TableScroll } from '../../ui';

const COLUMNS = [
  { key: 'provider', title: 'Provider', value: (r: Row) => r.provider },
  { key: 'region', title: 'Region', value: (r: Row) => r.region },
  { key: 'country', title: 'Country', value: (r: Row) => r.country },
  { key: 'instanceType', title: 'Instance', value: (r: Row) => r.instanceType },
  { key: 'gpu', title: 'GPU', value: (r: Row) => r.gpu },
  { key: 'gpuCount', title: 'GPUs', value: (r: Row) => r.gpuCount },
  { key: 'price', title: 'Price per GPU-hour', value: (r: Row) => Number(r.pricePerGpuHour.amount) },
  { key: 'pricingModel', title: 'Pricing model', value: (r: Row) => r.pricingModel },
  // g CO2e per GPU-hour at full load (docs/carbon.md); an offer without a figure sorts last.
  { key: 'carbon', title: 'g CO2e', value: (r: Row) => r.carbon ?? Number.POSITIVE_INFINITY },
  // Where the price comes from, in one cell so the table fits a laptop screen; sorted by the day it was read.
  { key: 'provenance', title: 'Provenance', value: (r: Row) => r.observedAt },
] as const;
type SortKey = (typeof COLUMNS)[number]['key'];
export interface Sort {
  key: SortKey;
  asc: boolean;
}

/** The rows sorted by a column (numbers as numbers, the rest as text); the price when the key is unknown. */
export function sortOffers(items: readonly Row[], sort: Sort): Row[] {
  const sorted = [...items];
  const column = COLUMNS.find((c) => c.key === sort.key) ?? COLUMNS[6];
  sorted.sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sort.asc ? c : -c;
  });
  return sorted;
}

/** How many offers, in which currency, from which version and at which rate; the CSV link; the warnings. */
export function OffersSummary(props: { data: Result; count: number; onDownload: () => void }) {
  const { data, count } = props;
  return (
    <>
      <p class="meta">
        {count} compliant offer{count === 1 ? '' : 's'}, prices in {data.currency}, catalog version{' '}
        <strong data-testid="catalog-version">{data.catalogVersion.label}</strong>.{' '}
        {data.exchangeRate && (
          <span data-testid="exchange-rate">
            Converted at 1 {data.exchangeRate.base} = {data.exchangeRate.rate} {data.exchangeRate.currency} (rate of {data.exchangeRate.date}).{' '}
          </span>
        )}
        <button type="button" class="link" onClick={props.onDownload} data-testid="csv-download">
          Download CSV of this table
        </button>
      </p>
      {data.warnings.length > 0 && (
        <details class="warnings">
          <summary>{data.warnings.length} warning(s) about these prices</summary>
          <ul>
            {data.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** The compliant offers; each column's title sorts by it, a second time the other way. */
export function OffersTable(props: { rows: readonly Row[]; sort: Sort; onSort: (update: (s: Sort) => Sort) => void }) {
  const { sort } = props;
  return (
    <TableScroll label="Compliant offers">
      <table data-testid="offers-table">
        <caption class="sr-only">Compliant offers, sorted by {COLUMNS.find((c) => c.key === sort.key)?.title}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.asc ? 'ascending' : 'descending') : 'none'}>
                <button type="button" class="sort" onClick={() => props.onSort((s) => ({ key: c.key, asc: s.key === c.key ? !s.asc : true }))}>
                  {c.title}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.asc ? ' ▲' : ' ▼') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <OfferTr key={r.id} row={r} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The cheaper offers the policy excluded, each with the reasons. */
export function ExcludedOffers({ data }: { data: Result }) {
  return (
    <section aria-labelledby="excluded-title" data-testid="excluded">
      <h2 id="excluded-title">Cheaper offers the policy excluded ({data.excludedCount})</h2>
      {data.excluded.length === 0 ? (
        <p>None: no cheaper offer was excluded.</p>
      ) : (
        <TableScroll label="Excluded offers">
          <table data-testid="excluded-table">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <Fragment key={c.key}>
                    <th scope="col">{c.title}</th>
                    {c.key === 'country' && <th scope="col">Reasons</th>}
                  </Fragment>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.excluded.map((x, i) => (
                <OfferTr key={`${x.offer.id}-${i}`} row={x.offer} reasons={x.reasons} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function OfferTr(props: { row: Row; reasons?: readonly string[] }) {
  const r = props.row;
  return (
    <tr>
      <td>{r.provider}</td>
      <td class="breakable">
        {/* A line may break after the provider's prefix, never inside a region's name. */}
        {r.region.split(':')[0]}:<wbr />
        {r.region.slice(r.region.indexOf(':') + 1)}
      </td>
      <td>
        <span aria-hidden="true">{flag(r.country)} </span>
        {r.country}
      </td>
      {props.reasons && (
        <td>
          <ul class="reasons">
            {props.reasons.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        </td>
      )}
      <td class="wrap">{r.instanceType}</td>
      <td>{r.gpu}</td>
      <td class="num">{r.gpuCount}</td>
      <td class="num" data-amount={r.pricePerGpuHour.amount}>
        {money(r.pricePerGpuHour.amount)}
        <PriceTerms row={r} />
      </td>
      <td>{label(r.pricingModel)}</td>
      <td class="num" data-carbon={r.carbon ?? ''} title={r.gridIntensity === null ? 'no sourced energy figure' : `grid ${r.gridIntensity} g CO2e/kWh`}>
        {r.carbon === null ? '–' : r.carbon.toFixed(1)}
      </td>
      <Provenance row={r} />
    </tr>
  );
}

/**
 * What the hourly price stands for when it is not a plain hourly list price: a monthly server's
 * price, setup fee and minimum term; a marketplace's spread of host prices (the price is its median).
 */
function PriceTerms({ row: r }: { row: Row }) {
  if (r.monthlyPrice) {
    return (
      <small class="terms" data-testid="monthly-terms">
        <br />
        {money(r.monthlyPrice.amount)} {r.monthlyPrice.currency}/month
        {r.upfront ? ` + ${money(r.upfront.amount)} setup` : ''}
        {r.termMonths ? `, ${r.termMonths} month minimum` : ''}
      </small>
    );
  }
  if (r.market) {
    return (
      <small class="terms" data-testid="market-spread">
        <br />
        {r.market.rankedBy.toLowerCase()} of {r.market.sampleSize} hosts; p10–p90 {money(r.market.p10.amount)}–{money(r.market.p90.amount)}{' '}
        {r.market.p10.currency}/instance-hour
      </small>
    );
  }
  return null;
}

/** The source (a link named by its kind), the day it was read, the price kind and whether the provider confirms the region. */
function Provenance({ row: r }: { row: Row }) {
  return (
    <td class="provenance" data-observed={r.observedAt} data-source-kind={r.sourceKind ?? ''} data-availability={r.availability}>
      {httpHref(r.source) ? (
        <a href={httpHref(r.source)} rel="noreferrer noopener" target="_blank">
          {sourceKindLabel(r.sourceKind)}
          <span class="sr-only">
            {' '}
            for the {r.provider} {r.instanceType} price
          </span>
        </a>
      ) : (
        <span title={r.source}>{sourceKindLabel(r.sourceKind)}</span>
      )}
      <br />
      <small>
        {r.observedAt} · {r.priceKind} · <span title={r.availabilityNote ?? undefined}>{availabilityLabel(r.availability)}</span>
      </small>
    </td>
  );
}
