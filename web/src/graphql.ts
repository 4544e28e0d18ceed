// GraphQL for the dashboard: documents typed from schema.gql by gql.tada (graphql-env.d.ts is
// generated from it: npm run web:codegen), sent with fetch to /graphql, the API dashboards use.
import { initGraphQLTada, type ResultOf, type TadaDocumentNode, type VariablesOf } from 'gql.tada';
import { print } from '@0no-co/graphql.web';
import type { introspection } from './graphql-env.d.ts';

export const graphql = initGraphQLTada<{ introspection: introspection; scalars: { DateTime: string } }>();
export type { ResultOf, VariablesOf };

export interface FieldError {
  field: string;
  message: string;
}

/** A refused or failed request: the message, and per input field what was wrong (BAD_USER_INPUT's extensions.errors). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: FieldError[],
  ) {
    super(message);
  }
  /** The message for one field: exact path, or the last segment (the server names policy fields without their parent). */
  forField(...names: string[]): string | undefined {
    const hits = this.fields.filter((f) => names.includes(f.field));
    return hits.length ? hits.map((f) => f.message).join('; ') : undefined;
  }
}

interface GraphqlErrorBody {
  message: string;
  extensions?: { code?: string; errors?: FieldError[] };
}

/** An API key kept for this tab only, for services started with AUTH_MODE=required. */
export const apiKeyStore = {
  get: (): string => sessionStorage.getItem('gpu-cost-api-key') ?? '',
  set: (key: string): void => (key ? sessionStorage.setItem('gpu-cost-api-key', key) : sessionStorage.removeItem('gpu-cost-api-key')),
};

export async function request<R, V>(document: TadaDocumentNode<R, V>, variables: V, signal?: AbortSignal): Promise<R> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  const key = apiKeyStore.get();
  if (key) headers.authorization = `Bearer ${key}`;
  let response: Response;
  try {
    response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query: print(document), variables }), signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('The service could not be reached.', 'NETWORK', []);
  }
  let body: { data?: R | null; errors?: GraphqlErrorBody[] };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new ApiError(`The service answered ${response.status} without a GraphQL body.`, `HTTP_${response.status}`, []);
  }
  const first = body.errors?.[0];
  if (first) {
    const fields = body.errors?.flatMap((e) => e.extensions?.errors ?? []) ?? [];
    throw new ApiError(body.errors?.map((e) => e.message).join('; ') ?? first.message, first.extensions?.code ?? `HTTP_${response.status}`, fields);
  }
  if (!body.data) throw new ApiError(`The service answered ${response.status} without data.`, `HTTP_${response.status}`, []);
  return body.data;
}
