// The forms' choices narrowed to what the current catalog version holds.

/** What withOffers reads of the Choices query: the providers and each version's per-provider offer counts. */
interface ChoicesLike<P extends { slug: string }> {
  providers: readonly P[];
  catalogVersions: readonly { current: boolean; providerObservations: readonly { provider: string; offers: number }[] | null }[];
}

/** The providers with at least one offer in the current version (all of them when the version does not say). */
export function withOffers<P extends { slug: string }, C extends ChoicesLike<P>>(choices: C): C {
  const observed = choices.catalogVersions.find((v) => v.current)?.providerObservations;
  if (!observed) return choices;
  const offering = new Set(observed.filter((o) => o.offers > 0).map((o) => o.provider));
  return { ...choices, providers: choices.providers.filter((p) => offering.has(p.slug)) };
}
