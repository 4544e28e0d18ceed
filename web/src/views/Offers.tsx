// Offers: the cheapest compliant offers for a requirement and a policy, sortable, with the cheaper
// offers the policy excluded and why, and a CSV of what the table shows. The form and the tables
// are in offers/.
import { useMemo, useState } from 'preact/hooks';
import { toCsv } from '../csv';
import { graphql, request, type ResultOf, type VariablesOf } from '../graphql';
import { useChoices } from '../catalog-data';
import { availabilityLabel, ErrorBox, Loading, sourceKindLabel, splitList, useRequest } from '../ui';
import { discountInput, OFFER_DEFAULTS, type OfferForm } from '../forms';
import { fromParams, toParams } from '../url-state';
import { OffersForm } from './offers/OffersForm';
import { ExcludedOffers, OffersSummary, OffersTable, type Sort, sortOffers } from './offers/OffersTables';

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
    monthlyPrice {
      amount
      currency
    }
    upfront {
      amount
      currency
    }
    termMonths
    market {
      rankedBy
      p10 {
        amount
        currency
      }
      p90 {
        amount
        currency
      }
      sampleSize
    }
    priceKind
    observedAt
    sourceKind
    availability
    availabilityNote
    source
    carbon
    gridIntensity
  }
`);
export type Result = ResultOf<typeof CheapestQuery>['cheapestOffers'];
export type Row = Result['items'][number];

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
      ...(f.maxGrid ? { maxGridIntensity: Number(f.maxGrid) } : {}),
      ...(f.maxPriceAge ? { maxPriceAgeDays: Number(f.maxPriceAge) } : {}),
      ...(f.estimates ? { includeEstimates: true } : {}),
      ...(f.minSource ? { minSourceKind: f.minSource as 'PROVIDER_API' | 'PROVIDER_PAGE' | 'MIRROR' | 'TRANSCRIPTION' | 'ANNOUNCEMENT' } : {}),
      ...(f.confirmed ? { requireConfirmedAvailability: true } : {}),
    },
    currency: f.currency as 'USD' | 'EUR',
    ...(discounts.length ? { discounts } : {}),
    explain: f.explain,
    limit: Number(f.limit),
  };
}

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
      'g CO2e per GPU-hour',
      'Grid g CO2e per kWh',
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
      r.carbon ?? '',
      r.gridIntensity ?? '',
    ]),
  );
}

export function OffersView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const initial = fromParams(props.params, OFFER_DEFAULTS);
  const [form, setForm] = useState<OfferForm>(initial);
  const [applied, setApplied] = useState<OfferForm>(initial);
  const [sort, setSort] = useState<Sort>({ key: 'price', asc: true });
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

  const rows = useMemo(() => sortOffers(result.data?.cheapestOffers.items ?? [], sort), [result.data, sort]);

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
      <OffersForm form={form} set={set} err={err} choices={choices.data} loading={result.loading} onSubmit={submit} />
      <Loading active={result.loading} what="offers" />
      <ErrorBox error={result.error} shownAtFields={!!result.error?.fields.length} />
      {data && (
        <div aria-busy={result.loading}>
          <OffersSummary data={data} count={rows.length} onDownload={download} />
          <OffersTable rows={rows} sort={sort} onSort={setSort} />
          {applied.explain && <ExcludedOffers data={data} />}
        </div>
      )}
    </section>
  );
}
