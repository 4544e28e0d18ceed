// Named policies as data. Add a preset by adding an entry: it goes through the same validation
// as a request (resolvePolicy), so a typo in a preset fails the first test that resolves it.
import type { PolicyInput } from './policy.js';

export interface PolicyPreset {
  description: string;
  /**
   * Every preset says what it does with offers whose availability the provider's own data does
   * not confirm (docs/api.md#orderability): false ranks them after every confirmed one, flagged;
   * true leaves them out. Not-orderable offers never rank under any preset.
   */
  policy: Omit<PolicyInput, 'preset' | 'requireConfirmedAvailability'> & { requireConfirmedAvailability: boolean };
}

const UNCONFIRMED_AFTER = 'confirmed availability ranks first, unconfirmed after it (flagged)';

export const POLICY_PRESETS: Readonly<Record<string, PolicyPreset>> = Object.freeze({
  /** Personal data of EU residents stays in the EEA: no transfer, so no transfer mechanism needed. */
  GDPR_PERSONAL_DATA: {
    description: `Personal data: regions in the EEA only (no third-country transfer); ${UNCONFIRMED_AFTER}`,
    policy: { residency: 'EEA', requireConfirmedAvailability: false },
  },
  /**
   * Sovereignty: EEA regions run by an EU/EEA-headquartered operator, so no non-EU law (e.g. the
   * US CLOUD Act) reaches the operator. A US hyperscaler's Frankfurt region does not qualify.
   */
  EU_SOVEREIGN: {
    description: `Sovereign: EEA regions and an EU/EEA-headquartered operator; ${UNCONFIRMED_AFTER}`,
    policy: { residency: 'EEA', operator: 'EU', requireConfirmedAvailability: false },
  },
  /**
   * German public sector and health workloads commonly ask for data in Germany and a BSI C5
   * attestation of the cloud provider. Illustrative: check the tender's exact wording.
   */
  DE_BSI_C5: {
    description: `Germany only, provider attested under BSI C5; ${UNCONFIRMED_AFTER}`,
    policy: { residency: 'EU', countries: ['DE'], certifications: ['BSI_C5'], requireConfirmedAvailability: false },
  },
});
