// Limits on what one GraphQL request may ask: nesting depth (a validation rule) and complexity
// (counted with the request's variables once the operation is known). Over a limit: HTTP 400.
import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError } from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';

export function depthLimitRule(maxDepth: number) {
  return depthLimit(maxDepth);
}

export function complexityPlugin(maxComplexity: number): ApolloServerPlugin {
  return {
    requestDidStart: async () => ({
      didResolveOperation: async ({ request, document, schema }) => {
        let complexity: number;
        try {
          complexity = getComplexity({
          schema,
          query: document,
          operationName: request.operationName,
          variables: request.variables,
          // Every field costs 1; lists cost more through the `first`/`limit` they ask for.
          estimators: [
            ({ args }) => {
              const size = typeof args.first === 'number' ? args.first : typeof args.limit === 'number' ? args.limit : undefined;
              return size === undefined ? undefined : size;
            },
            simpleEstimator({ defaultComplexity: 1 }),
          ],
          });
        } catch {
          // Invalid variables or operation name: left to GraphQL's own checks (400 BAD_USER_INPUT).
          return;
        }
        if (complexity > maxComplexity) {
          throw new GraphQLError(`query complexity ${complexity} exceeds the limit of ${maxComplexity}`, {
            extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
          });
        }
      },
    }),
  };
}
