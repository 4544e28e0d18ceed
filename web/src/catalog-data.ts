// What the forms offer to choose from: the current version's GPUs and the providers with offers in
// it, asked once.
import { graphql, request, type ResultOf } from './graphql';
import { withOffers } from './choices';
import { useRequest } from './ui';

const ChoicesQuery = graphql(`
  query Choices {
    gpus {
      slug
      name
    }
    providers {
      slug
      name
    }
    catalogVersions {
      id
      label
      current
      publishedAt
      providerObservations {
        provider
        offers
      }
    }
  }
`);
export type Choices = ResultOf<typeof ChoicesQuery>;

let cached: Promise<Choices> | undefined;

export function useChoices() {
  return useRequest('choices', () => {
    cached ??= request(ChoicesQuery, {}).then(withOffers, (error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  });
}
