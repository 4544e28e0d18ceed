import { Decimal } from '../money/money.js';
import { ANY_POLICY, PolicyError, resolvePolicy, type PolicyInput } from './policy.js';
import { POLICY_PRESETS } from './policy-presets.js';

describe(resolvePolicy.name, () => {
  it('defaults to no constraint', () => {
    expect(resolvePolicy({})).toEqual(ANY_POLICY);
  });

  it.each(Object.keys(POLICY_PRESETS))('resolves preset %s', (preset) => {
    expect(resolvePolicy({ preset }).preset).toBe(preset);
  });

  it('defines GDPR_PERSONAL_DATA as EEA residency and EU_SOVEREIGN as EEA residency plus EU operator', () => {
    expect(resolvePolicy({ preset: 'GDPR_PERSONAL_DATA' })).toMatchObject({ residency: 'EEA', operator: 'ANY' });
    expect(resolvePolicy({ preset: 'eu_sovereign' })).toMatchObject({ residency: 'EEA', operator: 'EU' });
    expect(resolvePolicy({ preset: 'DE_BSI_C5' })).toMatchObject({
      residency: 'EU',
      countries: ['DE'],
      certifications: ['BSI_C5'],
    });
  });

  it.each(Object.keys(POLICY_PRESETS))('has preset %s say what it does with unconfirmed availability, in its policy and its description', (preset) => {
    const { description, policy } = POLICY_PRESETS[preset] ?? { description: '', policy: {} };
    expect(typeof policy.requireConfirmedAvailability).toBe('boolean');
    expect(description).toContain(
      policy.requireConfirmedAvailability ? 'unconfirmed availability excluded' : 'confirmed availability ranks first, unconfirmed after it (flagged)',
    );
    // The caller may still opt out of unconfirmed offers under a preset that ranks them.
    expect(resolvePolicy({ preset, requireConfirmedAvailability: true }).requireConfirmedAvailability).toBe(true);
  });

  it('lets explicit fields tighten a preset', () => {
    const p = resolvePolicy({
      preset: 'GDPR_PERSONAL_DATA',
      residency: 'EU',
      operator: 'EU',
      countries: ['de', 'FR'],
      certifications: ['ISO27001'],
      minSlaPercent: '99.9',
      pricingModels: ['ON_DEMAND'],
      tolerance: 'INTOLERANT',
      providers: ['OVH'],
      excludeProviders: ['aws'],
      regions: ['ovh:gra'],
      maxPricePerGpuHour: 3,
    });
    expect(p).toMatchObject({
      preset: 'GDPR_PERSONAL_DATA',
      residency: 'EU',
      operator: 'EU',
      countries: ['DE', 'FR'],
      certifications: ['ISO27001'],
      pricingModels: ['ON_DEMAND'],
      tolerance: 'INTOLERANT',
      providers: ['ovh'],
      excludeProviders: ['aws'],
      regions: ['ovh:gra'],
    });
    expect(p.minSlaPercent?.eq('99.9')).toBe(true);
    expect(p.maxPricePerGpuHour?.eq(3)).toBe(true);
  });

  it('adds explicit certifications to the preset ones', () => {
    expect(resolvePolicy({ preset: 'DE_BSI_C5', certifications: ['ISO27001'] }).certifications).toEqual(['BSI_C5', 'ISO27001']);
  });

  it.each<[PolicyInput, string]>([
    [{ preset: 'GDPR_PERSONAL_DATA', residency: 'ANY' }, 'residency'],
    [{ preset: 'GDPR_PERSONAL_DATA', residency: 'GDPR_ADEQUATE' }, 'residency'],
    [{ preset: 'EU_SOVEREIGN', operator: 'ANY' }, 'operator'],
    [{ preset: 'DE_BSI_C5', countries: ['DE', 'AT'] }, 'countries'],
  ])('refuses an explicit field that loosens the preset: %j', (input, field) => {
    expect(() => resolvePolicy(input)).toThrow(expect.objectContaining({ field, code: 'COMPLIANCE.INVALID_INPUT' }));
  });

  it('refuses looser numbers, lists and tolerance than a custom preset', () => {
    const presets = {
      STRICT: {
        description: 'test',
        policy: {
          minSlaPercent: '99.9',
          maxPricePerGpuHour: '2',
          tolerance: 'RECOVERABLE',
          pricingModels: ['ON_DEMAND'],
          providers: ['ovh'],
          regions: ['ovh:gra'],
          requireConfirmedAvailability: false,
        },
      },
    };
    const attempt = (input: PolicyInput) => () => resolvePolicy({ presets, preset: 'STRICT', ...input });
    expect(attempt({ minSlaPercent: '99' })).toThrow(expect.objectContaining({ field: 'minSlaPercent' }));
    expect(attempt({ maxPricePerGpuHour: '3' })).toThrow(expect.objectContaining({ field: 'maxPricePerGpuHour' }));
    expect(attempt({ tolerance: 'TOLERANT' })).toThrow(expect.objectContaining({ field: 'tolerance' }));
    expect(attempt({ pricingModels: ['SPOT'] })).toThrow(expect.objectContaining({ field: 'pricingModels' }));
    expect(attempt({ providers: ['aws'] })).toThrow(expect.objectContaining({ field: 'providers' }));
    expect(attempt({ regions: ['aws:us-east-1'] })).toThrow(expect.objectContaining({ field: 'regions' }));
    expect(resolvePolicy({ presets, preset: 'STRICT', tolerance: 'INTOLERANT', maxPricePerGpuHour: '1.5' })).toMatchObject({
      tolerance: 'INTOLERANT',
      maxPricePerGpuHour: new Decimal('1.5'),
    });
  });

  it.each<[PolicyInput, string]>([
    [{ preset: 'HIPAA' }, 'preset'],
    [{ residency: 'MOON' }, 'residency'],
    [{ countries: ['Germany'] }, 'countries'],
    [{ countries: ['DE', ' '] }, 'countries'],
    [{ operator: 'US' }, 'operator'],
    [{ minSlaPercent: '101' }, 'minSlaPercent'],
    [{ minSlaPercent: 'abc' }, 'minSlaPercent'],
    [{ pricingModels: ['HOURLY'] }, 'pricingModels'],
    [{ tolerance: 'SOMETIMES' }, 'tolerance'],
    [{ maxPricePerGpuHour: -1 }, 'maxPricePerGpuHour'],
    [{ providers: [''] }, 'providers'],
  ])('rejects %j naming the field %s', (input, field) => {
    let error: unknown;
    try {
      resolvePolicy(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as PolicyError).field).toBe(field);
  });

  it('names the known presets when the preset is unknown', () => {
    expect(() => resolvePolicy({ preset: 'HIPAA' })).toThrow(/GDPR_PERSONAL_DATA, EU_SOVEREIGN/);
  });

  it('treats empty lists as not given', () => {
    expect(resolvePolicy({ countries: [], providers: [] })).toEqual(ANY_POLICY);
  });

  it('opts in to partial adequacy unless a preset already stops at full adequacy', () => {
    expect(resolvePolicy({ residency: 'GDPR_ADEQUATE', allowPartialAdequacy: true }).allowPartialAdequacy).toBe(true);
    const presets = { ADEQUATE: { description: 'test', policy: { residency: 'GDPR_ADEQUATE', requireConfirmedAvailability: false } } };
    expect(() => resolvePolicy({ presets, preset: 'ADEQUATE', allowPartialAdequacy: true })).toThrow(
      expect.objectContaining({ field: 'allowPartialAdequacy' }),
    );
  });
});
