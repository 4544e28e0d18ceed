// The compliance policy a buyer sends: what they may use (src/domain/compliance/policy.ts). One
// definition per field; CompliancePolicyInput is GraphQL's `policy` and the REST estimate body's,
// and the REST offer queries read the same fields from the query string (offers.query.ts).
import { InputType } from '@nestjs/graphql';
import { PRICING_MODELS, SOURCE_KINDS, type PricingModel, type SourceKind } from '../../domain/catalog/catalog.types.js';
import {
  INTERRUPTION_TOLERANCES,
  MAX_GRID_INTENSITY,
  OPERATOR_SCOPES,
  POLICY_PRESETS,
  RESIDENCIES,
  type InterruptionTolerance,
  type OperatorScope,
  type PolicyInput,
  type Residency,
} from '../../domain/compliance/index.js';
import { PricingModelEnum, SourceKindEnum } from '../models/enums.js';
import { InterruptionToleranceEnum, OperatorScopeEnum, ResidencyEnum } from '../models/policy-enums.js';
import { COUNTRY_CODE, NAME, POLICY_BOUNDS, PRICE_PER_GPU_HOUR } from './input-bounds.js';
import { field, InputField } from './input-field.js';

const slugs = (description: string, bounds: { minItems?: number; maxItems: number }) => field.list(field.string(NAME), { ...bounds, description });

export const POLICY = {
  preset: field.string({
    ...NAME,
    example: 'GDPR_PERSONAL_DATA',
    description: `Named policy: ${Object.entries(POLICY_PRESETS)
      .map(([name, p]) => `${name} (${p.description})`)
      .join(', ')}; explicit fields may only tighten it`,
  }),
  residency: field.enum<Residency>(RESIDENCIES, ResidencyEnum, { description: 'Where the data may be processed' }),
  countries: field.list(field.string(COUNTRY_CODE), {
    ...POLICY_BOUNDS.countries,
    description: 'Explicit country allow list, ISO 3166-1 alpha-2 (with or instead of residency)',
  }),
  allowPartialAdequacy: field.boolean({ description: 'Let GDPR_ADEQUATE include partial adequacy (US Data Privacy Framework, Canada PIPEDA)' }),
  operator: field.enum<OperatorScope>(OPERATOR_SCOPES, OperatorScopeEnum, { description: 'EU: only EU/EEA-headquartered operators' }),
  certifications: field.list(field.string({ minLength: POLICY_BOUNDS.certifications.minLength, maxLength: POLICY_BOUNDS.certifications.maxLength }), {
    maxItems: POLICY_BOUNDS.certifications.maxItems,
    example: ['ISO27001', 'BSI_C5'],
    description: 'Required certifications (all of them)',
  }),
  minSla: field.number({ ...POLICY_BOUNDS.minSla, example: 99.9, description: 'Minimum published SLA, percent' }),
  pricingModels: field.list(field.enum<PricingModel>(PRICING_MODELS, PricingModelEnum), { description: 'Allowed pricing models' }),
  tolerance: field.enum<InterruptionTolerance>(INTERRUPTION_TOLERANCES, InterruptionToleranceEnum, { description: 'INTOLERANT excludes spot' }),
  providers: slugs('Provider slug allow list', POLICY_BOUNDS.providers),
  // An empty deny list denies nothing, which is what it says: no minimum.
  excludeProviders: slugs('Provider slug deny list', { maxItems: POLICY_BOUNDS.providers.maxItems }),
  regions: field.list(field.string({ minLength: POLICY_BOUNDS.regions.minLength, maxLength: POLICY_BOUNDS.regions.maxLength }), {
    minItems: POLICY_BOUNDS.regions.minItems,
    maxItems: POLICY_BOUNDS.regions.maxItems,
    description: 'Region allow list (aws:eu-central-1, or the provider’s own eu-central-1)',
  }),
  maxPricePerGpuHour: field.decimal({ ...PRICE_PER_GPU_HOUR, description: 'Maximum comparable price per GPU-hour, in the request currency, after discounts' }),
  includeEstimates: field.boolean({
    default: false,
    description: 'Also rank ESTIMATE prices (computed by a rule, flagged as such); by default only LIST prices are used',
  }),
  maxPriceAgeDays: field.int({
    ...POLICY_BOUNDS.maxPriceAgeDays,
    description: 'Exclude prices last read from their source more than this many days ago (before asOf, when given)',
  }),
  minSourceKind: field.enum<SourceKind>(SOURCE_KINDS, SourceKindEnum, {
    description:
      "Rank only prices read from a source at least this good, best first: PROVIDER_API, PROVIDER_PAGE (the provider's own data), MIRROR, TRANSCRIPTION, ANNOUNCEMENT",
  }),
  requireConfirmedAvailability: field.boolean({
    default: false,
    description:
      "Exclude offers whose availability in their region the provider's own data does not confirm (availability UNCONFIRMED); " +
      'without it they rank after every confirmed offer, flagged. LISTED_NOT_ORDERABLE offers never rank',
  }),
  maxGridIntensity: field.number({
    min: 0,
    max: MAX_GRID_INTENSITY,
    example: 100,
    description:
      'Only regions whose grid emits at most this many g CO2e per kWh (location-based annual average, docs/carbon.md); a region without a sourced figure is excluded',
  }),
};

@InputType('CompliancePolicyInput')
export class CompliancePolicyInput {
  @InputField(POLICY.preset) preset?: string;
  @InputField(POLICY.residency) residency?: Residency;
  @InputField(POLICY.countries) countries?: string[];
  @InputField(POLICY.allowPartialAdequacy) allowPartialAdequacy?: boolean;
  @InputField(POLICY.operator) operator?: OperatorScope;
  @InputField(POLICY.certifications) certifications?: string[];
  @InputField(POLICY.minSla) minSla?: number;
  @InputField(POLICY.pricingModels) pricingModels?: PricingModel[];
  @InputField(POLICY.tolerance) tolerance?: InterruptionTolerance;
  @InputField(POLICY.providers) providers?: string[];
  @InputField(POLICY.excludeProviders) excludeProviders?: string[];
  @InputField(POLICY.regions) regions?: string[];
  @InputField(POLICY.maxPricePerGpuHour) maxPricePerGpuHour?: string;
  @InputField(POLICY.includeEstimates) includeEstimates?: boolean;
  @InputField(POLICY.maxPriceAgeDays) maxPriceAgeDays?: number;
  @InputField(POLICY.minSourceKind) minSourceKind?: SourceKind;
  @InputField(POLICY.requireConfirmedAvailability) requireConfirmedAvailability?: boolean;
  @InputField(POLICY.maxGridIntensity) maxGridIntensity?: number;
}

/** The domain's PolicyInput from the API's (the API says minSla, the domain minSlaPercent). */
export function policyInputFrom(p: CompliancePolicyInput | undefined): PolicyInput {
  if (!p) return {};
  return {
    preset: p.preset,
    residency: p.residency,
    countries: p.countries,
    allowPartialAdequacy: p.allowPartialAdequacy,
    operator: p.operator,
    certifications: p.certifications,
    minSlaPercent: p.minSla,
    pricingModels: p.pricingModels,
    tolerance: p.tolerance,
    providers: p.providers,
    excludeProviders: p.excludeProviders,
    regions: p.regions,
    maxPricePerGpuHour: p.maxPricePerGpuHour,
    includeEstimates: p.includeEstimates,
    maxPriceAgeDays: p.maxPriceAgeDays,
    minSourceKind: p.minSourceKind,
    requireConfirmedAvailability: p.requireConfirmedAvailability,
    maxGridIntensity: p.maxGridIntensity,
  };
}
