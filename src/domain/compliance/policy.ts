// The compliance policy: what a buyer may use, independent of what they need (the requirement).
// Input arrives loosely typed (query strings, GraphQL, presets) and is validated here once, so
// REST, GraphQL and the estimator reject the same bad values with the same field name.
import { unknownIdentifierMessage } from '../closest-names.js';
import { Decimal } from '../money/money.js';
import { PRICING_MODELS, SOURCE_KINDS, sourceKindRank, type PricingModel, type SourceKind } from '../catalog/catalog.types.js';
import { normalizeCountry, RESIDENCIES, RESIDENCY_STRICTNESS, type Residency } from './jurisdictions.js';
import { POLICY_PRESETS, type PolicyPreset } from './policy-presets.js';
import { utcMidnight } from '../iso-date.js';

export { RESIDENCIES, type Residency };

/** EU: the operator is headquartered in the EU/EEA (sovereignty: which law governs the operator). */
export const OPERATOR_SCOPES = ['ANY', 'EU'] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** Strictest last. Only INTOLERANT changes what complies: it excludes SPOT. */
export const INTERRUPTION_TOLERANCES = ['TOLERANT', 'RECOVERABLE', 'INTOLERANT'] as const;
export type InterruptionTolerance = (typeof INTERRUPTION_TOLERANCES)[number];

/** A resolved, validated policy. `null` lists mean "no constraint"; empty deny lists likewise. */
export interface CompliancePolicy {
  /** The preset it was built from, for explanations. */
  preset: string | null;
  residency: Residency;
  /** Explicit country allow list (ISO alpha-2), applied in addition to `residency`. */
  countries: readonly string[] | null;
  /** Let GDPR_ADEQUATE include partial adequacy (US DPF, Canada PIPEDA); see jurisdictions.ts. */
  allowPartialAdequacy: boolean;
  operator: OperatorScope;
  /** All required, compared ignoring case and separators (BSI_C5 = bsi-c5 = "BSI C5"). */
  certifications: readonly string[];
  minSlaPercent: Decimal | null;
  pricingModels: readonly PricingModel[] | null;
  tolerance: InterruptionTolerance | null;
  providers: readonly string[] | null;
  excludeProviders: readonly string[];
  /** Region allow list: full codes ('aws:eu-central-1') or the provider's own ('eu-central-1'). */
  regions: readonly string[] | null;
  /** In the request currency, after negotiated discounts. */
  maxPricePerGpuHour: Decimal | null;
  /** Rank ESTIMATE prices too (they are flagged); by default only LIST prices are candidates. */
  includeEstimates: boolean;
  /** Exclude prices last read from their source more than this many days before referenceDate. */
  maxPriceAgeDays: number | null;
  /** Rank only prices read from a source at least this good (PROVIDER_PAGE: the provider's own data). */
  minSourceKind: SourceKind | null;
  /** Exclude offers whose availability the provider's own data does not confirm. */
  requireConfirmedAvailability: boolean;
  /** Only regions whose grid emits at most this many g CO2e per kWh (location-based, docs/carbon.md). */
  maxGridIntensity: number | null;
  /** ISO date that price ages and validity windows are counted from (the service sets today, or the asOf date). */
  referenceDate: string;
}

/** What callers send. Every field optional; strings are validated by resolvePolicy. */
export interface PolicyInput {
  preset?: string | null;
  residency?: string | null;
  countries?: readonly string[] | null;
  allowPartialAdequacy?: boolean | null;
  operator?: string | null;
  certifications?: readonly string[] | null;
  minSlaPercent?: Decimal.Value | null;
  pricingModels?: readonly string[] | null;
  tolerance?: string | null;
  providers?: readonly string[] | null;
  excludeProviders?: readonly string[] | null;
  regions?: readonly string[] | null;
  maxPricePerGpuHour?: Decimal.Value | null;
  includeEstimates?: boolean | null;
  maxPriceAgeDays?: number | null;
  minSourceKind?: string | null;
  requireConfirmedAvailability?: boolean | null;
  maxGridIntensity?: number | null;
  referenceDate?: string | null;
}

/** The longest maxPriceAgeDays accepted (about 27 years): beyond it the field means nothing. */
export const MAX_PRICE_AGE_DAYS = 10_000;

/**
 * A bad policy, requirement or query value; transports answer 400 / BAD_USER_INPUT. `field` is the
 * domain input's name ('residency', 'minSlaPercent', 'gpus', 'discounts[0].percent', 'after', ...).
 */
export class PolicyError extends Error {
  readonly code = 'COMPLIANCE.INVALID_INPUT';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'PolicyError';
  }
}

export const ANY_POLICY: CompliancePolicy = Object.freeze({
  preset: null,
  residency: 'ANY',
  countries: null,
  allowPartialAdequacy: false,
  operator: 'ANY',
  certifications: [],
  minSlaPercent: null,
  pricingModels: null,
  tolerance: null,
  providers: null,
  excludeProviders: [],
  regions: null,
  maxPricePerGpuHour: null,
  includeEstimates: false,
  maxPriceAgeDays: null,
  minSourceKind: null,
  requireConfirmedAvailability: false,
  maxGridIntensity: null,
  referenceDate: '1970-01-01',
});

/**
 * Builds a policy from a preset plus explicit fields. A preset is a floor: explicit fields may
 * only tighten it, and a looser one is a PolicyError naming the field, because silently widening
 * (or silently ignoring) "GDPR_PERSONAL_DATA + residency=ANY" would be wrong either way for a
 * compliance answer. Tightening means: residency/operator/tolerance at least as strict; allow
 * lists (countries, pricingModels, providers, regions) a subset of the preset's; minSlaPercent
 * at least, maxPricePerGpuHour at most the preset's; certifications and excludeProviders are
 * added to the preset's.
 */
export function resolvePolicy({ presets = POLICY_PRESETS, ...input }: PolicyInput & { presets?: Readonly<Record<string, PolicyPreset>> }): CompliancePolicy {
  const explicit = parseFields(input);
  if (input.preset == null || input.preset === '') return noContradiction({ ...ANY_POLICY, ...explicit });
  const presetName = input.preset.trim().toUpperCase();
  const preset = Object.hasOwn(presets, presetName) ? presets[presetName] : undefined;
  if (!preset) {
    throw new PolicyError(
      'preset',
      `${unknownIdentifierMessage('policy preset', input.preset, Object.keys(presets))} (known: ${Object.keys(presets).join(', ')})`,
    );
  }
  return noContradiction(mergeTighter(presetBase(preset, presetName), explicit));
}

/** A preset's policy, parsed once per preset: presets never change, and most queries name one. */
const presetBases = new WeakMap<PolicyPreset, CompliancePolicy>();

function presetBase(preset: PolicyPreset, presetName: string): CompliancePolicy {
  let base = presetBases.get(preset);
  if (base === undefined || base.preset !== presetName) {
    base = Object.freeze({ ...ANY_POLICY, ...parseFields(preset.policy), preset: presetName });
    presetBases.set(preset, base);
  }
  return base;
}

/** A policy whose allow list is wholly excluded could match nothing: said, not silently empty. */
function noContradiction(policy: CompliancePolicy): CompliancePolicy {
  if (policy.providers && policy.providers.every((p) => policy.excludeProviders.includes(p))) {
    throw new PolicyError('excludeProviders', `excludeProviders removes every allowed provider (${policy.providers.join(', ')}), so nothing could match`);
  }
  return policy;
}

/** The fields the input gives; a field it leaves out or sends as null is absent, never null. */
type ParsedFields = { [K in Exclude<keyof CompliancePolicy, 'preset'>]?: NonNullable<CompliancePolicy[K]> };

// Named helpers of the functions below live at the top level: the service's bundle keeps function
// names (scripts/bundle.mjs), which costs a call for each named closure made per request.
const slug = (s: string): string => s.trim().toLowerCase();

function parseFields(input: PolicyInput): ParsedFields {
  const out: ParsedFields = {};
  if (input.residency != null) out.residency = oneOf('residency', input.residency, RESIDENCIES);
  const countries = list('countries', input.countries, (c) => {
    const n = normalizeCountry(c);
    if (!/^[A-Z]{2}$/.test(n)) throw new PolicyError('countries', `${c} is not an ISO 3166-1 alpha-2 code`);
    return n;
  });
  if (countries) out.countries = countries;
  if (input.allowPartialAdequacy != null) out.allowPartialAdequacy = input.allowPartialAdequacy;
  if (input.operator != null) out.operator = oneOf('operator', input.operator, OPERATOR_SCOPES);
  const certifications = list('certifications', input.certifications, (c) => c.trim());
  if (certifications) out.certifications = certifications;
  if (input.minSlaPercent != null) out.minSlaPercent = decimalIn('minSlaPercent', input.minSlaPercent, 0, 100);
  const pricingModels = list('pricingModels', input.pricingModels, (m) => oneOf('pricingModels', m, PRICING_MODELS));
  if (pricingModels) out.pricingModels = pricingModels;
  if (input.tolerance != null) out.tolerance = oneOf('tolerance', input.tolerance, INTERRUPTION_TOLERANCES);
  const providers = list('providers', input.providers, slug);
  if (providers) out.providers = providers;
  const excludeProviders = list('excludeProviders', input.excludeProviders, slug);
  if (excludeProviders) out.excludeProviders = excludeProviders;
  const regions = list('regions', input.regions, slug);
  if (regions) out.regions = regions;
  if (input.maxPricePerGpuHour != null) {
    out.maxPricePerGpuHour = decimalIn('maxPricePerGpuHour', input.maxPricePerGpuHour, 0, Infinity);
  }
  if (input.includeEstimates != null) out.includeEstimates = input.includeEstimates === true;
  if (input.maxPriceAgeDays != null) {
    const d = input.maxPriceAgeDays;
    if (!Number.isInteger(d) || d < 0 || d > MAX_PRICE_AGE_DAYS) {
      throw new PolicyError('maxPriceAgeDays', `maxPriceAgeDays must be a whole number from 0 to ${MAX_PRICE_AGE_DAYS}; got ${String(d)}`);
    }
    out.maxPriceAgeDays = d;
  }
  if (input.minSourceKind != null) out.minSourceKind = oneOf('minSourceKind', input.minSourceKind, SOURCE_KINDS);
  if (input.requireConfirmedAvailability != null) out.requireConfirmedAvailability = input.requireConfirmedAvailability === true;
  if (input.maxGridIntensity != null) out.maxGridIntensity = gridIntensityIn(input.maxGridIntensity);
  if (input.referenceDate != null) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(input.referenceDate) || Number.isNaN(utcMidnight(input.referenceDate))) {
      throw new PolicyError('referenceDate', `referenceDate must be an ISO date (YYYY-MM-DD); got ${input.referenceDate}`);
    }
    out.referenceDate = input.referenceDate;
  }
  return out;
}

/** The largest maxGridIntensity accepted, g CO2e/kWh: above any grid's (coal is about 1,000). */
export const MAX_GRID_INTENSITY = 10_000;

function gridIntensityIn(v: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_GRID_INTENSITY) {
    throw new PolicyError('maxGridIntensity', `maxGridIntensity must be a number of g CO2e/kWh from 0 to ${MAX_GRID_INTENSITY}; got ${String(v)}`);
  }
  return v;
}

function looser(base: CompliancePolicy, field: keyof PolicyInput, detail: string): PolicyError {
  return new PolicyError(field, `${detail} would loosen preset ${base.preset}; explicit fields may only tighten it`);
}

function mergeTighter(base: CompliancePolicy, explicit: ParsedFields): CompliancePolicy {
  const merged: CompliancePolicy = { ...base };

  if (explicit.residency !== undefined) {
    if (rank(RESIDENCY_STRICTNESS, explicit.residency) > rank(RESIDENCY_STRICTNESS, base.residency)) {
      throw looser(base, 'residency', `residency ${explicit.residency} (preset: ${base.residency})`);
    }
    merged.residency = explicit.residency;
  }
  if (explicit.operator !== undefined) {
    if (base.operator === 'EU' && explicit.operator === 'ANY') throw looser(base, 'operator', 'operator ANY');
    merged.operator = explicit.operator;
  }
  if (explicit.tolerance !== undefined) {
    if (base.tolerance && rank(INTERRUPTION_TOLERANCES, explicit.tolerance) < rank(INTERRUPTION_TOLERANCES, base.tolerance)) {
      throw looser(base, 'tolerance', `tolerance ${explicit.tolerance} (preset: ${base.tolerance})`);
    }
    merged.tolerance = explicit.tolerance;
  }
  if (explicit.allowPartialAdequacy !== undefined) {
    // Only a preset that itself stops at full adequacy is loosened by opting in to partial.
    if (explicit.allowPartialAdequacy && !base.allowPartialAdequacy && base.residency === 'GDPR_ADEQUATE') {
      throw looser(base, 'allowPartialAdequacy', 'allowPartialAdequacy');
    }
    merged.allowPartialAdequacy = explicit.allowPartialAdequacy;
  }
  for (const field of ['countries', 'pricingModels', 'providers', 'regions'] as const) {
    const mine: readonly string[] | undefined = explicit[field];
    if (mine === undefined) continue;
    const theirs: readonly string[] | null = base[field];
    const outside = theirs ? mine.filter((v) => !theirs.includes(v)) : [];
    if (theirs && outside.length > 0) throw looser(base, field, `${field} ${outside.join(', ')} (preset allows ${theirs.join(', ')})`);
    (merged as unknown as Record<string, readonly string[]>)[field] = mine;
  }
  if (explicit.certifications) merged.certifications = unique([...base.certifications, ...explicit.certifications]);
  if (explicit.excludeProviders) merged.excludeProviders = unique([...base.excludeProviders, ...explicit.excludeProviders]);
  if (explicit.minSlaPercent !== undefined) {
    if (base.minSlaPercent && explicit.minSlaPercent.lt(base.minSlaPercent)) {
      throw looser(base, 'minSlaPercent', `minSlaPercent ${explicit.minSlaPercent} (preset: ${base.minSlaPercent})`);
    }
    merged.minSlaPercent = explicit.minSlaPercent;
  }
  // Data-quality choices, not compliance: a preset does not constrain them.
  if (explicit.includeEstimates !== undefined) merged.includeEstimates = explicit.includeEstimates;
  if (explicit.referenceDate !== undefined) merged.referenceDate = explicit.referenceDate;
  if (explicit.maxPriceAgeDays !== undefined) {
    if (base.maxPriceAgeDays !== null && explicit.maxPriceAgeDays > base.maxPriceAgeDays) {
      throw looser(base, 'maxPriceAgeDays', `maxPriceAgeDays ${explicit.maxPriceAgeDays}`);
    }
    merged.maxPriceAgeDays = explicit.maxPriceAgeDays;
  }
  if (explicit.minSourceKind !== undefined) {
    if (base.minSourceKind !== null && sourceKindRank(explicit.minSourceKind) < sourceKindRank(base.minSourceKind)) {
      throw looser(base, 'minSourceKind', `minSourceKind ${explicit.minSourceKind} (preset: ${base.minSourceKind})`);
    }
    merged.minSourceKind = explicit.minSourceKind;
  }
  if (explicit.requireConfirmedAvailability !== undefined) {
    if (base.requireConfirmedAvailability && !explicit.requireConfirmedAvailability) {
      throw looser(base, 'requireConfirmedAvailability', 'requireConfirmedAvailability false');
    }
    merged.requireConfirmedAvailability = explicit.requireConfirmedAvailability;
  }
  if (explicit.maxPricePerGpuHour !== undefined) {
    if (base.maxPricePerGpuHour && explicit.maxPricePerGpuHour.gt(base.maxPricePerGpuHour)) {
      throw looser(base, 'maxPricePerGpuHour', `maxPricePerGpuHour ${explicit.maxPricePerGpuHour}`);
    }
    merged.maxPricePerGpuHour = explicit.maxPricePerGpuHour;
  }
  return tighterGrid(base, explicit, merged);
}

/** maxGridIntensity may only be lowered below a preset's. */
function tighterGrid(base: CompliancePolicy, explicit: ParsedFields, merged: CompliancePolicy): CompliancePolicy {
  if (explicit.maxGridIntensity === undefined) return merged;
  if (base.maxGridIntensity !== null && explicit.maxGridIntensity > base.maxGridIntensity) {
    throw looser(base, 'maxGridIntensity', `maxGridIntensity ${explicit.maxGridIntensity}`);
  }
  return { ...merged, maxGridIntensity: explicit.maxGridIntensity };
}

function oneOf<T extends string>(field: keyof PolicyInput, value: string, allowed: readonly T[]): T {
  const v = value.trim().toUpperCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw new PolicyError(field, `${field} must be one of ${allowed.join(', ')}; got ${value}`);
  }
  return v as T;
}

/** Parses a list; an empty list means "not given" (a bare `countries=` query parameter). */
function list<T>(field: keyof PolicyInput, values: readonly string[] | null | undefined, parse: (v: string) => T): T[] | null {
  if (values == null || values.length === 0) return null;
  return unique(
    values.map((v) => {
      if (typeof v !== 'string' || v.trim() === '') throw new PolicyError(field, `${field} has an empty entry`);
      return parse(v);
    }),
  );
}

function decimalIn(field: keyof PolicyInput, value: Decimal.Value, min: number, max: number): Decimal {
  let d: Decimal;
  try {
    d = new Decimal(value);
  } catch {
    throw new PolicyError(field, `${field} must be a number; got ${String(value)}`);
  }
  if (!d.isFinite() || d.lt(min) || d.gt(max)) {
    throw new PolicyError(field, `${field} must be between ${min} and ${max}; got ${String(value)}`);
  }
  return d;
}

function rank<T>(order: readonly T[], value: T): number {
  return order.indexOf(value);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
