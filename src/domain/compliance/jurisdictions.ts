// Jurisdiction membership as pure data. A region's jurisdiction is derived from its ISO 3166-1
// alpha-2 country, never typed into the catalog, so a change here (a new adequacy decision, a new
// member state) applies to every catalog version at once.

/** The 27 EU member states (ISO 3166-1 alpha-2; Greece is GR, not the EU's own "EL"). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/**
 * Parts of member states that ISO gives their own code but that are inside the EU: France's
 * outermost regions and Åland (Finland). The Canaries, Azores and Madeira share ES/PT. The Faroe
 * Islands and Greenland (Denmark) are NOT in the EU; the Faroes have their own adequacy decision.
 */
export const EU_TERRITORIES: ReadonlySet<string> = new Set(['GF', 'GP', 'MQ', 'RE', 'YT', 'MF', 'AX']);

/** EEA = EU + the three EEA-EFTA states. Switzerland is EFTA but not EEA. */
export const EEA_EFTA_STATES: ReadonlySet<string> = new Set(['IS', 'LI', 'NO']);

export const ADEQUACY_AS_OF = '2026-11-29';
export const ADEQUACY_SOURCE = 'https://commission.europa.eu/law/law-topic/data-protection/international-dimension-data-protection/adequacy-decisions_en';

/**
 * Countries with a full EU GDPR adequacy decision (Art. 45 GDPR) as of ADEQUACY_AS_OF, per the
 * European Commission's "Adequacy decisions" page (ADEQUACY_SOURCE), cross-checked with EDPB and
 * Commission press releases. Caveats that matter to a buyer:
 * - BR: Commission Implementing Decision (EU) 2026/179 of 26 January 2026.
 * - GB: renewed on 19 December 2025, valid until 27 December 2031.
 * - JP: covers the private sector (APPI) only, which is what a cloud operator is.
 * - KR: excludes some credit-information processing under FSC oversight; irrelevant to GPU hosting.
 * - The European Patent Organisation (2025) is an international organisation, not a country, so it
 *   has no place in a residency list.
 * Partial decisions (US, CA) are kept apart in GDPR_PARTIAL_ADEQUACY, see there.
 */
export const GDPR_ADEQUACY: ReadonlySet<string> = new Set([
  'AD', // Andorra
  'AR', // Argentina
  'BR', // Brazil (2026)
  'FO', // Faroe Islands
  'GG', // Guernsey
  'IL', // Israel
  'IM', // Isle of Man
  'JP', // Japan (private sector)
  'JE', // Jersey
  'NZ', // New Zealand
  'KR', // Republic of Korea
  'CH', // Switzerland
  'GB', // United Kingdom
  'UY', // Uruguay
]);

/**
 * Adequacy that covers only some recipients, so a region's country alone cannot prove it:
 * - US: only organisations certified under the EU-US Data Privacy Framework (2023 decision; the
 *   General Court upheld it in Latombe, Sept 2025, an appeal is pending). We do not know whether
 *   a provider is certified for the service in question.
 * - CA: only organisations subject to PIPEDA (commercial activities).
 * Conservative default: GDPR_ADEQUATE excludes these; a policy opts in with
 * `allowPartialAdequacy`, which makes the buyer assert that the recipient is covered.
 */
export const GDPR_PARTIAL_ADEQUACY: ReadonlyMap<string, string> = new Map([
  ['US', 'US adequacy covers only organisations certified under the EU-US Data Privacy Framework'],
  ['CA', 'Canadian adequacy covers only organisations subject to PIPEDA (commercial activities)'],
]);

export const RESIDENCIES = ['ANY', 'EU', 'EEA', 'GDPR_ADEQUATE'] as const;
export type Residency = (typeof RESIDENCIES)[number];

export type Jurisdiction = 'EU' | 'EEA' | 'GDPR_ADEQUATE' | 'GDPR_ADEQUATE_PARTIAL';

// Common non-ISO spellings seen in provider documentation.
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', EL: 'GR' };

/** Upper-cases and maps the aliases UK -> GB and EL -> GR. */
export function normalizeCountry(country: string): string {
  const upper = country.trim().toUpperCase();
  return COUNTRY_ALIASES[upper] ?? upper;
}

/**
 * The jurisdictions a country belongs to, widest last: DE -> ['EU', 'EEA', 'GDPR_ADEQUATE'],
 * NO -> ['EEA', 'GDPR_ADEQUATE'], CH -> ['GDPR_ADEQUATE'], US -> ['GDPR_ADEQUATE_PARTIAL'].
 * EEA countries count as GDPR_ADEQUATE: the GDPR applies there, which is more than adequacy.
 */
export function jurisdictionsOf(country: string): Jurisdiction[] {
  const c = normalizeCountry(country);
  if (EU_MEMBER_STATES.has(c) || EU_TERRITORIES.has(c)) return ['EU', 'EEA', 'GDPR_ADEQUATE'];
  if (EEA_EFTA_STATES.has(c)) return ['EEA', 'GDPR_ADEQUATE'];
  if (GDPR_ADEQUACY.has(c)) return ['GDPR_ADEQUATE'];
  if (GDPR_PARTIAL_ADEQUACY.has(c)) return ['GDPR_ADEQUATE_PARTIAL'];
  return [];
}

/** Whether a country satisfies a residency; partial adequacy (US, CA) only when opted in. */
export function isInResidency({
  country,
  residency,
  allowPartialAdequacy = false,
}: {
  country: string;
  residency: Residency;
  allowPartialAdequacy?: boolean;
}): boolean {
  if (residency === 'ANY') return true;
  const jurisdictions = jurisdictionsOf(country);
  if (jurisdictions.includes(residency)) return true;
  return residency === 'GDPR_ADEQUATE' && allowPartialAdequacy && jurisdictions.includes('GDPR_ADEQUATE_PARTIAL');
}

/** Residencies from strictest to loosest: each is a subset of the next. */
export const RESIDENCY_STRICTNESS: readonly Residency[] = ['EU', 'EEA', 'GDPR_ADEQUATE', 'ANY'];
