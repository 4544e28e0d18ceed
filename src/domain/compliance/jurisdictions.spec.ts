import {
  ADEQUACY_AS_OF,
  ADEQUACY_SOURCE,
  EU_MEMBER_STATES,
  GDPR_ADEQUACY,
  isInResidency,
  jurisdictionsOf,
  normalizeCountry,
  type Residency,
} from './jurisdictions.js';

describe(jurisdictionsOf.name, () => {
  it.each([
    ['DE', ['EU', 'EEA', 'GDPR_ADEQUATE']],
    ['FR', ['EU', 'EEA', 'GDPR_ADEQUATE']],
    ['GR', ['EU', 'EEA', 'GDPR_ADEQUATE']],
    ['RE', ['EU', 'EEA', 'GDPR_ADEQUATE']], // Réunion: an outermost region of France
    ['NO', ['EEA', 'GDPR_ADEQUATE']],
    ['IS', ['EEA', 'GDPR_ADEQUATE']],
    ['LI', ['EEA', 'GDPR_ADEQUATE']],
    ['CH', ['GDPR_ADEQUATE']],
    ['GB', ['GDPR_ADEQUATE']],
    ['JP', ['GDPR_ADEQUATE']],
    ['BR', ['GDPR_ADEQUATE']],
    ['FO', ['GDPR_ADEQUATE']], // Danish, but outside the EU
    ['US', ['GDPR_ADEQUATE_PARTIAL']],
    ['CA', ['GDPR_ADEQUATE_PARTIAL']],
    ['GL', []], // Greenland: Danish, outside the EU, no adequacy
    ['CN', []],
    ['SG', []],
    ['IN', []],
  ])('places %s in %j', (country, expected) => {
    expect(jurisdictionsOf(country)).toEqual(expected);
  });

  it('accepts lower case and the UK and EL aliases', () => {
    expect(jurisdictionsOf('de')).toEqual(['EU', 'EEA', 'GDPR_ADEQUATE']);
    expect(normalizeCountry('uk')).toBe('GB');
    expect(jurisdictionsOf('EL')).toEqual(['EU', 'EEA', 'GDPR_ADEQUATE']);
  });

  it('lists exactly 27 member states and records the adequacy source and date', () => {
    expect(EU_MEMBER_STATES.size).toBe(27);
    expect(GDPR_ADEQUACY.size).toBe(14);
    expect(ADEQUACY_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(ADEQUACY_SOURCE).toContain('commission.europa.eu');
  });
});

describe(isInResidency.name, () => {
  const table: [string, Residency, boolean][] = [
    ['DE', 'EU', true],
    ['NO', 'EU', false],
    ['NO', 'EEA', true],
    ['LI', 'EEA', true],
    ['CH', 'EEA', false],
    ['CH', 'GDPR_ADEQUATE', true],
    ['GB', 'EEA', false],
    ['GB', 'GDPR_ADEQUATE', true],
    ['DE', 'GDPR_ADEQUATE', true],
    ['US', 'GDPR_ADEQUATE', false],
    ['CA', 'GDPR_ADEQUATE', false],
    ['US', 'EEA', false],
    ['US', 'ANY', true],
    ['CN', 'ANY', true],
  ];
  it.each(table)('%s in %s is %s', (country, residency, expected) => {
    expect(isInResidency({ country, residency })).toBe(expected);
  });

  it('admits partial adequacy (US, CA) only for GDPR_ADEQUATE and only when opted in', () => {
    expect(isInResidency({ country: 'US', residency: 'GDPR_ADEQUATE', allowPartialAdequacy: true })).toBe(true);
    expect(isInResidency({ country: 'CA', residency: 'GDPR_ADEQUATE', allowPartialAdequacy: true })).toBe(true);
    expect(isInResidency({ country: 'US', residency: 'EEA', allowPartialAdequacy: true })).toBe(false);
    expect(isInResidency({ country: 'CN', residency: 'GDPR_ADEQUATE', allowPartialAdequacy: true })).toBe(false);
  });
});
