// What one GraphQL request may ask, checked in linear time and failing closed:
// - before parsing (the context, app.module.ts): authentication and the rate limit;
// - while validating (GraphQL Armor, maintained rules that visit each fragment once): tokens,
//   depth, aliases, directives, a cost bound, and no "Did you mean ..." suggestions that would
//   leak the schema when introspection is off. Cyclic fragments fail graphql-js's own
//   NoFragmentCyclesRule (400 GRAPHQL_VALIDATION_FAILED);
// - once the operation is known: the complexity with the request's variables, where a list
//   field costs its `first`/`limit` and an estimate costs ESTIMATE_COST. Any error while
//   counting rejects the request.
// Over a limit: HTTP 400.
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, type ValidationRule } from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';

/** Armor's cost bound as a multiple of GRAPHQL_MAX_COMPLEXITY (see armorRules). */
const ARMOR_COST_HEADROOM = 100;

/** What one estimate costs in the complexity budget: it plans, it does not just read. */
export const ESTIMATE_COST = 500;

export interface GraphqlLimits {
  maxDepth: number;
  maxComplexity: number;
  /** Tokens of the document (names, punctuation, values): bounds the parser's work. */
  maxTokens: number;
  maxAliases: number;
  maxDirectives: number;
}

/** graphql-js stops parsing at this many tokens: a GRAPHQL_PARSE_FAILED 400, before any validation. */
export function parseOptions(limits: GraphqlLimits): { maxTokens: number } {
  return { maxTokens: limits.maxTokens };
}

export function armorRules(limits: GraphqlLimits): { validationRules: ValidationRule[]; plugins: ApolloServerPlugin[] } {
  const armor = new ApolloArmor({
    // Tokens are limited by the parser itself (parseOptions in app.module.ts): armor's own token
    // plugin parses a second time and answers a syntax error with HTTP 500.
    maxTokens: { enabled: false },
    // GRAPHQL_MAX_DEPTH counts levels below the top-level field (as graphql-depth-limit did); armor counts that field too.
    maxDepth: { n: limits.maxDepth + 1, flattenFragments: true },
    maxAliases: { n: limits.maxAliases },
    maxDirectives: { n: limits.maxDirectives },
    // Armor's cost counts every field reached (each fragment computed once, memoized). Set well
    // above the complexity budget, it only stops documents whose expansion is huge (fragment
    // bombs) before the argument-aware complexity below walks them; the budget itself is that one.
    costLimit: { maxCost: limits.maxComplexity * ARMOR_COST_HEADROOM },
    blockFieldSuggestion: { enabled: true },
  });
  const protection = armor.protect();
  return { validationRules: protection.validationRules, plugins: protection.plugins as ApolloServerPlugin[] };
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
            estimators: [
              ({ field, childComplexity }) => (field.name === 'estimate' ? ESTIMATE_COST + childComplexity : undefined),
              ({ args }) => {
                const size = typeof args.first === 'number' ? args.first : typeof args.limit === 'number' ? args.limit : undefined;
                // At least 1: a negative size (refused later by the resolver) must not lower the total.
                return size === undefined ? undefined : Number.isFinite(size) ? Math.max(1, size) : Infinity;
              },
              simpleEstimator({ defaultComplexity: 1 }),
            ],
          });
        } catch (error) {
          // Fail closed: a request whose cost cannot be counted is not run. Bad variables are the
          // caller's input, said as GraphQL says it.
          const message = (error as Error).message;
          const code = error instanceof GraphQLError && message.startsWith('Variable "$') ? 'BAD_USER_INPUT' : 'QUERY_TOO_COMPLEX';
          throw new GraphQLError(code === 'BAD_USER_INPUT' ? message : `query complexity could not be computed: ${message}`, {
            extensions: { code, http: { status: 400 } },
          });
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
