// Offers: the cheapest compliant offers for a requirement and a policy, sortable, with the cheaper
// offers the policy excluded and why, and a CSV of what the table shows.
import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { toCsv } from '../csv';
import { graphql, request, type ResultOf, type VariablesOf } from '../graphql';
import { useChoices } from '../catalog-data';
import {
  Checks,
  described,
  DiscountsEditor,
  ErrorBox,
  Field,
  flag,
  label,
  Loading,
  money,
  PRESETS,
  PRICING_MODELS,
  availabilityLabel,
  sourceKindLabel,
  splitList,
  TableScroll,
  useRequest,
} from '../ui';
import { discountInput, OFFER_DEFAULTS, type OfferForm } from '../forms';
import { fromParams, toParams } from '../url-state';

export { OFFER_DEFAULTS, type OfferForm };

const CheapestQuery = graphql(`
  query Cheapest(
    $requirement: GpuRequirement!
    $policy: CompliancePolicyInput
    $currency: Currency
    $discounts: [DiscountInput!]
    $explain: Boolean
    $limit: Int
  ) {
    cheapestOffers(requirement: $requirement, policy: $policy, currency: $currency, discounts: $discounts, explain: $explain, limit: $limit) {
      catalogVersion {
        id
        label
      }
      currency
      excludedCount
      warnings
      exchangeRate {
        base
        currency
        rate
        date
      }
      items {
        ...OfferRow
      }
      excluded {
        reasons
        rules
        offer {
          ...OfferRow
        }
      }
    }
  }
  fragment OfferRow on Offer {
    id
    provider
    region
    country
    instanceType
    gpu
    gpuCount
    pricePerGpuHour {
      amount
      currency
    }
    pricingModel
    priceKind
    observedAt
    sourceKind
    availability
    availabilityNote
    source
  }
`);
type Result = ResultOf<typeof CheapestQuery>['cheapestOffers'];
type Row = Result['items'][number];

type Variables = VariablesOf<typeof CheapestQuery>;

export function offerVariables(f: OfferForm): Variables {
  const countries = splitList(f.countries).map((c) => c.toUpperCase());
  const excludeProviders = splitList(f.excludeProviders);
  const regions = splitList(f.regions);
  const certifications = splitList(f.certifications);
  const discounts = discountInput(f.discounts).value;
  return {
    requirement: { ...(f.gpus.length ? { gpus: f.gpus } : {}), ...(f.gpuCount ? { gpuCount: Number(f.gpuCount) } : {}) },
    policy: {
      ...(f.preset ? { preset: f.preset } : {}),
      ...(f.providers.length ? { providers: f.providers } : {}),
      ...(excludeProviders.length ? { excludeProviders } : {}),
      ...(countries.length ? { countries } : {}),
      ...(regions.length ? { regions } : {}),
      ...(f.pricingModels.length
        ? { pricingModels: f.pricingModels as Variables['policy'] extends infer P ? (P extends { pricingModels?: infer M } ? NonNullable<M> : never) : never }
        : {}),
      ...(f.residency ? { residency: f.residency as 'ANY' | 'EEA' | 'EU' | 'GDPR_ADEQUATE' } : {}),
      ...(f.partialAdequacy ? { allowPartialAdequacy: true } : {}),
      ...(f.operator ? { operator: f.operator as 'ANY' | 'EU' } : {}),
      ...(certifications.length ? { certifications } : {}),
      ...(f.tolerance ? { tolerance: f.tolerance as 'INTOLERANT' | 'RECOVERABLE' | 'TOLERANT' } : {}),
      ...(f.minSla ? { minSla: Number(f.minSla) } : {}),
      ...(f.maxPrice ? { maxPricePerGpuHour: f.maxPrice } : {}),
      ...(f.maxPriceAge ? { maxPriceAgeDays: Number(f.maxPriceAge) } : {}),
      ...(f.estimates ? { includeEstimates: true } : {}),
      ...(f.minSource ? { minSourceKind: f.minSource as 'PROVIDER_API' | 'PROVIDER_PAGE' | 'MIRROR' | 'ANNOUNCEMENT' } : {}),
      ...(f.confirmed ? { requireConfirmedAvailability: true } : {}),
    },
    currency: f.currency as 'USD' | 'EUR',
    ...(discounts.length ? { discounts } : {}),
    explain: f.explain,
    limit: Number(f.limit),
  };
}

const COLUMNS = [
  { key: 'provider', title: 'Provider', value: (r: Row) => r.provider },
  { key: 'region', title: 'Region', value: (r: Row) => r.region },
  { key: 'country', title: 'Country', value: (r: Row) => r.country },
  { key: 'instanceType', title: 'Instance', value: (r: Row) => r.instanceType },
  { key: 'gpu', title: 'GPU', value: (r: Row) => r.gpu },
  { key: 'gpuCount', title: 'GPUs', value: (r: Row) => r.gpuCount },
  { key: 'price', title: 'Price per GPU-hour', value: (r: Row) => Number(r.pricePerGpuHour.amount) },
  { key: 'pricingModel', title: 'Pricing model', value: (r: Row) => r.pricingModel },
  { key: 'priceKind', title: 'Price kind', value: (r: Row) => r.priceKind },
  { key: 'observedAt', title: 'Observed', value: (r: Row) => r.observedAt },
  { key: 'sourceKind', title: 'Source kind', value: (r: Row) => sourceKindLabel(r.sourceKind) },
  { key: 'availability', title: 'Availability', value: (r: Row) => availabilityLabel(r.availability) },
] as const;
type SortKey = (typeof COLUMNS)[number]['key'];

export function offersCsvOf(rows: readonly Row[], currency: string): string {
  return toCsv(
    [
      'Provider',
      'Region',
      'Country',
      'Instance',
      'GPU',
      'GPUs',
      `Price per GPU-hour (${currency})`,
      'Pricing model',
      'Price kind',
      'Observed',
      'Source kind',
      'Availability',
      'Source',
    ],
    rows.map((r) => [
      r.provider,
      r.region,
      r.country,
      r.instanceType,
      r.gpu,
      r.gpuCount,
      r.pricePerGpuHour.amount,
      r.pricingModel,
      r.priceKind,
      r.observedAt,
      sourceKindLabel(r.sourceKind),
      availabilityLabel(r.availability),
      r.source,
    ]),
  );
}

export function OffersView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const initial = fromParams(props.params, OFFER_DEFAULTS);
  const [form, setForm] = useState<OfferForm>(initial);
  const [applied, setApplied] = useState<OfferForm>(initial);
  const [sort, setSort] = useState<{ key: SortKey; asc: boolean }>({ key: 'price', asc: true });
  const choices = useChoices();
  const variables = useMemo(() => offerVariables(applied), [applied]);
  // A discount that cannot be sent (no provider, no percent) is named at its field, and nothing is asked.
  const [local, setLocal] = useState(() => discountInput(initial.discounts).errors);
  const result = useRequest(local.length ? null : JSON.stringify(variables), (signal) => request(CheapestQuery, variables, signal));
  const set = <K extends keyof OfferForm>(key: K, value: OfferForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const err = (...names: string[]) => {
    const mine = local.filter((e) => names.includes(e.field)).map((e) => e.message);
    return mine.length ? mine.join('; ') : result.error?.forField(...names);
  };

  const rows = useMemo(() => {
    const items = [...(result.data?.cheapestOffers.items ?? [])];
    const column = COLUMNS.find((c) => c.key === sort.key) ?? COLUMNS[6];
    items.sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return sort.asc ? c : -c;
    });
    return items;
  }, [result.data, sort]);

  const submit = (e: Event) => {
    e.preventDefault();
    setLocal(discountInput(form.discounts).errors);
    setApplied(form);
    props.onParams(toParams(form, OFFER_DEFAULTS));
  };
  const data = result.data?.cheapestOffers;

  const download = () => {
    if (!data) return;
    const blob = new Blob([offersCsvOf(rows, data.currency)], { type: 'text/csv' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `offers-${data.catalogVersion.label}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };

  return (
    <section aria-labelledby="offers-title">
      <h1 id="offers-title">Cheapest compliant offers</h1>
      <form class="form" onSubmit={submit} noValidate aria-label="Offer filters">
        <Field id="offer-preset" label="Policy preset" error={err('preset', 'policy.preset')}>
          <select {...described('offer-preset', err('preset', 'policy.preset'))} value={form.preset} onChange={(e) => set('preset', e.currentTarget.value)}>
            <option value="">None</option>
            {PRESETS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="offer-residency" label="Data residency" error={err('residency', 'policy.residency')}>
          <select
            {...described('offer-residency', err('residency', 'policy.residency'))}
            value={form.residency}
            onChange={(e) => set('residency', e.currentTarget.value)}
          >
            <option value="">Any (or the preset's)</option>
            <option value="EU">EU-27</option>
            <option value="EEA">EEA</option>
            <option value="GDPR_ADEQUATE">GDPR adequate</option>
          </select>
        </Field>
        <Field id="offer-operator" label="Operator" error={err('operator', 'policy.operator')}>
          <select
            {...described('offer-operator', err('operator', 'policy.operator'))}
            value={form.operator}
            onChange={(e) => set('operator', e.currentTarget.value)}
          >
            <option value="">Any (or the preset's)</option>
            <option value="EU">EU/EEA-headquartered</option>
          </select>
        </Field>
        <Field id="offer-countries" label="Countries (ISO codes)" error={err('countries', 'policy.countries')} hint="e.g. DE, FR">
          <input
            {...described('offer-countries', err('countries', 'policy.countries'), true)}
            value={form.countries}
            onInput={(e) => set('countries', e.currentTarget.value)}
          />
        </Field>
        <Field id="offer-regions" label="Regions" error={err('regions', 'policy.regions')} hint="e.g. aws:eu-central-1, or eu-central-1">
          <input
            {...described('offer-regions', err('regions', 'policy.regions'), true)}
            value={form.regions}
            onInput={(e) => set('regions', e.currentTarget.value)}
          />
        </Field>
        <Field
          id="offer-exclude-providers"
          label="Exclude providers"
          error={err('excludeProviders', 'policy.excludeProviders')}
          hint="provider slugs, e.g. aws, gcp"
        >
          <input
            {...described('offer-exclude-providers', err('excludeProviders', 'policy.excludeProviders'), true)}
            value={form.excludeProviders}
            onInput={(e) => set('excludeProviders', e.currentTarget.value)}
          />
        </Field>
        <Field
          id="offer-certifications"
          label="Required certifications"
          error={err('certifications', 'policy.certifications')}
          hint="all of them, e.g. ISO27001"
        >
          <input
            {...described('offer-certifications', err('certifications', 'policy.certifications'), true)}
            value={form.certifications}
            onInput={(e) => set('certifications', e.currentTarget.value)}
          />
        </Field>
        <Field id="offer-gpu-count" label="GPUs per instance" error={err('gpuCount', 'requirement.gpuCount')}>
          <input
            {...described('offer-gpu-count', err('gpuCount', 'requirement.gpuCount'))}
            type="number"
            inputMode="numeric"
            value={form.gpuCount}
            onInput={(e) => set('gpuCount', e.currentTarget.value)}
          />
        </Field>
        <Field id="offer-max-price" label="Max price per GPU-hour" error={err('maxPricePerGpuHour', 'policy.maxPricePerGpuHour')}>
          <input
            {...described('offer-max-price', err('maxPricePerGpuHour', 'policy.maxPricePerGpuHour'))}
            inputMode="decimal"
            value={form.maxPrice}
            onInput={(e) => set('maxPrice', e.currentTarget.value)}
          />
        </Field>
        <Field id="offer-min-source" label="Prices read from at least" error={err('minSourceKind', 'policy.minSourceKind')}>
          <select
            {...described('offer-min-source', err('minSourceKind', 'policy.minSourceKind'))}
            value={form.minSource}
            onChange={(e) => set('minSource', e.currentTarget.value)}
          >
            <option value="">any source</option>
            <option value="MIRROR">a mirror of the provider's data</option>
            <option value="PROVIDER_PAGE">the provider's own page</option>
            <option value="PROVIDER_API">the provider's own API</option>
          </select>
        </Field>
        <Field id="offer-max-age" label="Max price age (days)" error={err('maxPriceAgeDays', 'policy.maxPriceAgeDays')}>
          <input
            {...described('offer-max-age', err('maxPriceAgeDays', 'policy.maxPriceAgeDays'))}
            type="number"
            inputMode="numeric"
            value={form.maxPriceAge}
            onInput={(e) => set('maxPriceAge', e.currentTarget.value)}
          />
        </Field>
        <Field id="offer-min-sla" label="Minimum SLA (%)" error={err('minSla', 'policy.minSla')}>
          <input
            {...described('offer-min-sla', err('minSla', 'policy.minSla'))}
            type="number"
            step="any"
            value={form.minSla}
            onInput={(e) => set('minSla', e.currentTarget.value)}
          />
        </Field>
        <Field id="offer-tolerance" label="Interruptions" error={err('tolerance', 'policy.tolerance')}>
          <select
            {...described('offer-tolerance', err('tolerance', 'policy.tolerance'))}
            value={form.tolerance}
            onChange={(e) => set('tolerance', e.currentTarget.value)}
          >
            <option value="">Any</option>
            <option value="INTOLERANT">Intolerant (no spot)</option>
            <option value="RECOVERABLE">Recoverable</option>
            <option value="TOLERANT">Tolerant</option>
          </select>
        </Field>
        <Field id="offer-currency" label="Currency">
          <select id="offer-currency" value={form.currency} onChange={(e) => set('currency', e.currentTarget.value)}>
            <option>USD</option>
            <option>EUR</option>
          </select>
        </Field>
        <Field id="offer-limit" label="Rows" error={err('limit')}>
          <input {...described('offer-limit', err('limit'))} type="number" value={form.limit} onInput={(e) => set('limit', e.currentTarget.value)} />
        </Field>
        <Checks
          id="offer-gpus"
          legend="GPUs (none: all)"
          options={(choices.data?.gpus ?? []).map((g) => ({ value: g.slug, label: g.name }))}
          value={form.gpus}
          onChange={(v) => set('gpus', v)}
          error={err('gpus', 'requirement.gpus')}
        />
        <Checks
          id="offer-providers"
          legend="Providers (none: all)"
          options={(choices.data?.providers ?? []).map((p) => ({ value: p.slug, label: p.name }))}
          value={form.providers}
          onChange={(v) => set('providers', v)}
          error={err('providers', 'policy.providers')}
        />
        <Checks
          id="offer-pricing"
          legend="Pricing models (none: all)"
          options={PRICING_MODELS.map((m) => ({ value: m, label: label(m) }))}
          value={form.pricingModels}
          onChange={(v) => set('pricingModels', v)}
          error={err('pricingModels', 'policy.pricingModels')}
        />
        <DiscountsEditor
          id="offer-discounts"
          providers={choices.data?.providers ?? []}
          items={form.discounts}
          onChange={(items) => set('discounts', items)}
          err={err}
        />
        <div class="field checks-inline">
          <label>
            <input type="checkbox" checked={form.partialAdequacy} onChange={(e) => set('partialAdequacy', e.currentTarget.checked)} /> GDPR adequate includes
            partial adequacy (US DPF, Canada)
          </label>
          <label>
            <input type="checkbox" checked={form.estimates} onChange={(e) => set('estimates', e.currentTarget.checked)} /> Include ESTIMATE prices
          </label>
          <label>
            <input type="checkbox" checked={form.confirmed} onChange={(e) => set('confirmed', e.currentTarget.checked)} /> Only offers the provider confirms in
            that region
          </label>
          <label>
            <input type="checkbox" id="offer-explain" checked={form.explain} onChange={(e) => set('explain', e.currentTarget.checked)} /> Show cheaper excluded
            offers and why
          </label>
        </div>
        <div class="actions">
          <button type="submit" disabled={result.loading}>
            Show offers
          </button>
        </div>
      </form>
      <Loading active={result.loading} what="offers" />
      <ErrorBox error={result.error} shownAtFields={!!result.error?.fields.length} />
      {data && (
        <div aria-busy={result.loading}>
          <p class="meta">
            {rows.length} compliant offer{rows.length === 1 ? '' : 's'}, prices in {data.currency}, catalog version{' '}
            <strong data-testid="catalog-version">{data.catalogVersion.label}</strong>.{' '}
            {data.exchangeRate && (
              <span data-testid="exchange-rate">
                Converted at 1 {data.exchangeRate.base} = {data.exchangeRate.rate} {data.exchangeRate.currency} (rate of {data.exchangeRate.date}).{' '}
              </span>
            )}
            <button type="button" class="link" onClick={download} data-testid="csv-download">
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
          <TableScroll label="Compliant offers">
            <table data-testid="offers-table">
              <caption class="sr-only">Compliant offers, sorted by {COLUMNS.find((c) => c.key === sort.key)?.title}</caption>
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.asc ? 'ascending' : 'descending') : 'none'}>
                      <button type="button" class="sort" onClick={() => setSort((s) => ({ key: c.key, asc: s.key === c.key ? !s.asc : true }))}>
                        {c.title}
                        <span aria-hidden="true">{sort.key === c.key ? (sort.asc ? ' ▲' : ' ▼') : ''}</span>
                      </button>
                    </th>
                  ))}
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <OfferTr key={r.id} row={r} />
                ))}
              </tbody>
            </table>
          </TableScroll>
          {applied.explain && (
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
                        <th scope="col">Source</th>
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
          )}
        </div>
      )}
    </section>
  );
}

function OfferTr(props: { row: Row; reasons?: readonly string[] }) {
  const r = props.row;
  return (
    <tr>
      <td>{r.provider}</td>
      <td>{r.region}</td>
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
      <td>{r.instanceType}</td>
      <td>{r.gpu}</td>
      <td class="num">{r.gpuCount}</td>
      <td class="num" data-amount={r.pricePerGpuHour.amount}>
        {money(r.pricePerGpuHour.amount)}
      </td>
      <td>{label(r.pricingModel)}</td>
      <td>{r.priceKind}</td>
      <td>{r.observedAt}</td>
      <td>{sourceKindLabel(r.sourceKind)}</td>
      <td title={r.availabilityNote ?? undefined}>{availabilityLabel(r.availability)}</td>
      <td>
        <a href={r.source} rel="noreferrer noopener" target="_blank">
          source
          <span class="sr-only">
            {' '}
            of {r.provider} {r.instanceType} price
          </span>
        </a>
      </td>
    </tr>
  );
}
