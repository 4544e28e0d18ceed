import { withOffers } from './choices';

interface Choices {
  gpus: unknown[];
  providers: { slug: string; name: string }[];
  catalogVersions: { id: string; label: string; current: boolean; publishedAt: null; providerObservations: { provider: string; offers: number }[] | null }[];
}

const choices = (observations: { provider: string; offers: number }[] | null): Choices => ({
  gpus: [],
  providers: [
    { slug: 'aws', name: 'AWS' },
    { slug: 'hetzner', name: 'Hetzner' },
    { slug: 'ovhcloud', name: 'OVHcloud' },
  ],
  catalogVersions: [
    { id: 'old', label: 'v1', current: false, publishedAt: null, providerObservations: [{ provider: 'hetzner', offers: 3 }] },
    { id: 'now', label: 'v2', current: true, publishedAt: null, providerObservations: observations },
  ],
});

describe('withOffers', () => {
  it('offers only the providers with offers in the current version, whatever older versions held', () => {
    const filtered = withOffers(
      choices([
        { provider: 'aws', offers: 12 },
        { provider: 'ovhcloud', offers: 0 },
      ]),
    );
    expect(filtered.providers.map((p) => p.slug)).toEqual(['aws']);
  });

  it('keeps every provider when the version does not say what it holds', () => {
    expect(withOffers(choices(null)).providers.map((p) => p.slug)).toEqual(['aws', 'hetzner', 'ovhcloud']);
  });
});
