// What one GraphQL request may ask, checked in linear time and failing closed:
// - before parsing (the context, app.module.ts): authentication and the rate limit;
// - while validating (GraphQL Armor, maintained rules that visit each fragment once): tokens,
//   depth, aliases, directives, a cost bound, and no "Did you mean ..." suggestions that would
//   leak the schema when introspection is off. Cyclic fragments fail graphql-js's own
//   NoFragmentCyclesRule (400 GRAPHQL_VALIDATION_FAILED);
// - once the operation is known: the complexity with the request's variables, which follows
//   the size of the answer and the work behind it (fieldCost). Any error while counting rejects
//   the request;
// - while running: at most GRAPHQL_FIELD_CONCURRENCY top-level fields of one request at a time
//   (FieldShare), so thirty aliases that each read the database take two connections, not the pool.
// Over a limit: HTTP 400, QUERY_TOO_COMPLEX.
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import {
  GraphQLError,
  OperationTypeNode,
  type ASTVisitor,
  type GraphQLField,
  type GraphQLResolveInfo,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimatorArgs } from 'graphql-query-complexity';
import pLimit, { type LimitFunction } from 'p-limit';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DEFAULT_LIMIT } from '../domain/compliance/index.js';
import { DEFAULT_PAGE_SIZE } from './inputs/input-bounds.js';

/** Armor's cost bound as a multiple of GRAPHQL_MAX_COMPLEXITY (see armorRules). */
const ARMOR_COST_HEADROOM = 100;

/** What one estimate costs in the complexity budget: it plans (tens of milliseconds of CPU), it does not just read. */
export const ESTIMATE_COST = 2000;

/** What a field that reads the database costs, besides its answer: a round-trip and a connection. */
export const DATABASE_COST = 1000;

/** Fields that always read the database (the rest answer from the catalog in memory). */
const DATABASE_FIELDS = new Set(['gpuPriceHistory', 'offerPriceHistory', 'catalogVersions', 'catalogDiff']);

/** Top-level fields of one request that run at once; the rest wait their turn (FieldShare). */
export const GRAPHQL_FIELD_CONCURRENCY = 2;

/** The page size a list field uses when its request gives none (offers: `first`, cheapestOffers: `limit`). */
const DEFAULT_SIZE: Record<string, number> = { first: DEFAULT_PAGE_SIZE, limit: DEFAULT_LIMIT };

/**
 * The cost of one field, by what its answer holds and what it takes to make:
 * - a list field with a page size (`first`, `limit`, its default when not given) costs that size
 *   times what one of its entries costs (its selected fields), so `limit: 500` with twenty fields
 *   counts as the ten thousand values it returns, and aliases add up;
 * - an estimate adds ESTIMATE_COST; a field that reads the database (always, or because it names
 *   an older `version` or an `asOf`) adds DATABASE_COST;
 * - any other field costs 1 plus its children.
 * A size that is not a finite number costs Infinity; below 1 counts as 1 (refused later by the
 * resolver, it must not lower the total).
 */
export function fieldCost({ field, args, childComplexity }: ComplexityEstimatorArgs): number {
  const children = Math.max(1, childComplexity);
  let cost = 1 + childComplexity;
  const sized = sizeArgument(field);
  if (sized) {
    const given: unknown = args[sized];
    const size = given === undefined || given === null ? DEFAULT_SIZE[sized] : typeof given === 'number' && Number.isFinite(given) ? given : Infinity;
    cost = 1 + Math.max(1, size ?? 1) * children;
  }
  if (field.name === 'estimate') cost += ESTIMATE_COST;
  if (DATABASE_FIELDS.has(field.name) || (args.version !== undefined && args.version !== null) || (args.asOf !== undefined && args.asOf !== null)) {
    cost += DATABASE_COST;
  }
  return cost;
}

function sizeArgument(field: GraphQLField<unknown, unknown>): 'first' | 'limit' | undefined {
  for (const arg of field.args) if (arg.name === 'first' || arg.name === 'limit') return arg.name;
  return undefined;
}

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
    // __typename aliases count like any other (armor lets them pass by default).
    maxAliases: { n: limits.maxAliases, allowList: [] },
    maxDirectives: { n: limits.maxDirectives },
    // Armor's cost counts every field reached (each fragment computed once, memoized). Set well
    // above the complexity budget, it only stops documents whose expansion is huge (fragment
    // bombs) before the argument-aware complexity below walks them; the budget itself is that one.
    costLimit: { maxCost: limits.maxComplexity * ARMOR_COST_HEADROOM },
    blockFieldSuggestion: { enabled: true },
  });
  const protection = armor.protect();
  return { validationRules: [...protection.validationRules, introspectionOnce], plugins: protection.plugins as ApolloServerPlugin[] };
}

/**
 * `__schema` answers the whole schema (about 23 KB), and armor's cost bound leaves introspection
 * out: a document may ask for it once (GraphiQL's introspection query does), not thirty times.
 */
export function introspectionOnce(context: ValidationContext): ASTVisitor {
  let seen = 0;
  return {
    Field(node) {
      if (node.name.value !== '__schema' || ++seen !== 2) return;
      context.reportError(new GraphQLError('a document may select __schema once', { nodes: [node] }));
    },
  };
}

export function complexityPlugin(maxComplexity: number): ApolloServerPlugin {
  return {
    requestDidStart: async () => ({
      didResolveOperation: async ({ request, document, schema, operation }) => {
        // The schema has no Mutation type: graphql-js would say so while executing, with HTTP 200.
        if (operation && operation.operation !== OperationTypeNode.QUERY) {
          throw new GraphQLError(`this API is read-only: it has no ${operation.operation} operations, send a query`, {
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
          });
        }
        let complexity: number;
        try {
          complexity = getComplexity({
            schema,
            query: document,
            operationName: request.operationName,
            variables: request.variables,
            estimators: [fieldCost, simpleEstimator({ defaultComplexity: 1 })],
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

/**
 * Runs at most GRAPHQL_FIELD_CONCURRENCY top-level fields of one GraphQL request at a time.
 * graphql-js starts every top-level field of a query at once, so a document of thirty aliases that
 * each read the database would hold thirty connections of the pool (DATABASE_POOL_SIZE) and
 * starve every other request; queued, it holds two. Nested fields run inside their parent's turn.
 * Applied to the resolver classes (GraphQL only: REST routes pay nothing).
 */
@Injectable()
export class FieldShare implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== 'graphql') return next.handle();
    const gql = GqlExecutionContext.create(context);
    if (gql.getInfo<GraphQLResolveInfo>().parentType.name !== 'Query') return next.handle();
    const request = gql.getContext<{ fieldShare?: LimitFunction }>();
    const share = (request.fieldShare ??= pLimit(GRAPHQL_FIELD_CONCURRENCY));
    return from(share(() => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
