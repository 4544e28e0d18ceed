// The offers form: the policy (preset, where, who, which certifications), the limits on price and
// source, the GPUs, providers and pricing models to consider, discounts, and the switches.
import type { Choices } from '../../catalog-data';
import type { OfferForm } from '../../forms';
import { Checks, described, DiscountsEditor, Field, label, PRESETS, PRICING_MODELS } from '../../ui';

type SetField = <K extends keyof OfferForm>(key: K, value: OfferForm[K]) => void;
type Err = (...names: string[]) => string | undefined;
interface FieldsProps {
  form: OfferForm;
  set: SetField;
  err: Err;
}

export function OffersForm(props: FieldsProps & { choices: Choices | undefined; loading: boolean; onSubmit: (e: Event) => void }) {
  const { form, set, err } = props;
  return (
    <form class="form" onSubmit={props.onSubmit} noValidate aria-label="Offer filters">
      <PolicyFields form={form} set={set} err={err} />
      <PlaceFields form={form} set={set} err={err} />
      <PriceFields form={form} set={set} err={err} />
      <ServiceFields form={form} set={set} err={err} />
      <ChoiceFields form={form} set={set} err={err} choices={props.choices} />
      <Switches form={form} set={set} />
      <div class="actions">
        <button type="submit" disabled={props.loading}>
          Show offers
        </button>
      </div>
    </form>
  );
}

/** The preset, the data residency and the operator's seat. */
function PolicyFields({ form, set, err }: FieldsProps) {
  return (
    <>
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
    </>
  );
}

/** Where and from whom, as typed lists: countries, regions, providers to leave out, certifications required. */
function PlaceFields({ form, set, err }: FieldsProps) {
  return (
    <>
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
      <Field id="offer-certifications" label="Required certifications" error={err('certifications', 'policy.certifications')} hint="all of them, e.g. ISO27001">
        <input
          {...described('offer-certifications', err('certifications', 'policy.certifications'), true)}
          value={form.certifications}
          onInput={(e) => set('certifications', e.currentTarget.value)}
        />
      </Field>
    </>
  );
}

/** The instance size and the limits on the price: its ceiling, its source, its age. */
function PriceFields({ form, set, err }: FieldsProps) {
  return (
    <>
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
      <Field id="offer-max-grid" label="Max grid g CO2e per kWh" error={err('maxGridIntensity', 'policy.maxGridIntensity')}>
        <input
          {...described('offer-max-grid', err('maxGridIntensity', 'policy.maxGridIntensity'))}
          type="number"
          inputMode="numeric"
          value={form.maxGrid}
          onInput={(e) => set('maxGrid', e.currentTarget.value)}
        />
      </Field>
      <Field id="offer-min-source" label="Prices read from at least" error={err('minSourceKind', 'policy.minSourceKind')}>
        <select
          {...described('offer-min-source', err('minSourceKind', 'policy.minSourceKind'))}
          value={form.minSource}
          onChange={(e) => set('minSource', e.currentTarget.value)}
        >
          <option value="">any source</option>
          <option value="TRANSCRIPTION">a third party's transcription</option>
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
    </>
  );
}

/** The service level, the interruptions tolerated, the currency and how many rows. */
function ServiceFields({ form, set, err }: FieldsProps) {
  return (
    <>
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
    </>
  );
}

/** The GPUs, providers and pricing models to consider (none: all), and negotiated discounts. */
function ChoiceFields({ form, set, err, choices }: FieldsProps & { choices: Choices | undefined }) {
  return (
    <>
      <Checks
        id="offer-gpus"
        legend="GPUs (none: all)"
        options={(choices?.gpus ?? []).map((g) => ({ value: g.slug, label: g.name }))}
        value={form.gpus}
        onChange={(v) => set('gpus', v)}
        error={err('gpus', 'requirement.gpus')}
      />
      <Checks
        id="offer-providers"
        legend="Providers (none: all)"
        options={(choices?.providers ?? []).map((p) => ({ value: p.slug, label: p.name }))}
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
        providers={choices?.providers ?? []}
        items={form.discounts}
        onChange={(items) => set('discounts', items)}
        err={err}
      />
    </>
  );
}

/** The yes/no switches: partial adequacy, estimates, confirmed availability, the excluded offers. */
function Switches({ form, set }: Omit<FieldsProps, 'err'>) {
  return (
    <div class="field checks-inline">
      <label>
        <input type="checkbox" checked={form.partialAdequacy} onChange={(e) => set('partialAdequacy', e.currentTarget.checked)} /> GDPR adequate includes
        partial adequacy (US DPF, Canada)
      </label>
      <label>
        <input type="checkbox" checked={form.estimates} onChange={(e) => set('estimates', e.currentTarget.checked)} /> Include ESTIMATE prices
      </label>
      <label>
        <input type="checkbox" checked={form.confirmed} onChange={(e) => set('confirmed', e.currentTarget.checked)} /> Only offers the provider confirms in that
        region
      </label>
      <label>
        <input type="checkbox" id="offer-explain" checked={form.explain} onChange={(e) => set('explain', e.currentTarget.checked)} /> Show cheaper excluded
        offers and why
      </label>
    </div>
  );
}
