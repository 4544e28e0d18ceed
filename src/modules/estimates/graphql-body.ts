// The measurement texts of a large POST /graphql body, for the worker that reads it
// (estimate-body.ts): those the `estimate` fields of the operation Apollo runs (operationName, or
// the only one) take, in the variables or written in the document, which is parsed as the request
// thread's parser does (maxTokens). A variable is tokenised only when every use of it in the
// document is such a place, so no other field sees a token; a text written in the document is
// replaced by its token ending where the text ended (inPlace), so that every location an error
// names after it stays where it was. A document that does not parse has no texts: the request thread
// then answers it as before.
import {
  Kind,
  parse,
  visit,
  type ASTNode,
  type DocumentNode,
  type OperationDefinitionNode,
  type ObjectValueNode,
  type SelectionSetNode,
  type StringValueNode,
  type ValueNode,
  type VariableNode,
} from 'graphql';
import { isRecord, readEstimateBody, seriesSlots, type BodyOutcome, type BodyTask, type TextFinder, type TextSlot } from './estimate-body.js';

const SERIES = ['traffic', 'utilization', 'memoryUsed'] as const;
const FORMATS = [
  ['prometheus', 'PROMETHEUS'],
  ['csv', 'CSV'],
] as const;
/** A text written on one line shorter than this stays (its token, quoted, must fit in its place; it costs nothing). */
const LITERAL_MIN_LENGTH = 128;

/** A body of POST /graphql read in the worker (estimate.worker.ts, `readBody`). */
export function readGraphqlBody(task: BodyTask, maxTokens: number): BodyOutcome {
  return readEstimateBody(task, graphqlTexts(maxTokens));
}

function parsed(query: string, maxTokens: number): DocumentNode | null {
  try {
    return parse(query, { maxTokens });
  } catch {
    return null;
  }
}

/** The operation Apollo runs: the one named, or the only one. */
function operationOf(document: DocumentNode, operationName: unknown): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
}

const fragmentsOf = (document: DocumentNode) =>
  new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));

/** The `input` arguments of the `estimate` fields a query selects at its root (fragments followed). */
function estimateInputs(document: DocumentNode, operation: OperationDefinitionNode): ValueNode[] {
  if (String(operation.operation) !== 'query') return [];
  const fragments = fragmentsOf(document);
  const inputs: ValueNode[] = [];
  const spread = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const input = selection.name.value === 'estimate' ? selection.arguments?.find((a) => a.name.value === 'input') : undefined;
        if (input) inputs.push(input.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return inputs;
}

/** What `path` reaches below a value node: an object written in the document, or a variable and the path left inside its value. */
function valueAt(node: ValueNode, path: readonly string[]): { object: ObjectValueNode } | { variable: VariableNode; rest: readonly string[] } | null {
  if (node.kind === Kind.VARIABLE) return { variable: node, rest: path };
  if (node.kind !== Kind.OBJECT) return null;
  const [key, ...rest] = path;
  if (key === undefined) return { object: node };
  const field = node.fields.find((f) => f.name.value === key);
  return field ? valueAt(field.value, rest) : null;
}

/** Uses of each variable in the operation and the fragments it spreads (not its definitions). */
function variableUses(document: DocumentNode, operation: OperationDefinitionNode): Map<string, number> {
  const fragments = fragmentsOf(document);
  const uses = new Map<string, number>();
  const spread = new Set<string>();
  const count = (node: ASTNode): void =>
    void visit(node, {
      VariableDefinition: () => false,
      Variable: (variable) => void uses.set(variable.name.value, (uses.get(variable.name.value) ?? 0) + 1),
      FragmentSpread: ({ name }) => {
        const fragment = fragments.get(name.value);
        if (!fragment || spread.has(name.value)) return;
        spread.add(name.value);
        count(fragment);
      },
    });
  count(operation);
  return uses;
}

/**
 * The token as a GraphQL string in the place of `literal`, ending where it ended: on one line, as
 * long; over lines (a block string), as many line ends and a last line as long, left out of the
 * value as the blank lines at a block string's end are.
 */
function inPlace(source: string, literal: StringValueNode, token: string): string {
  const text = source.slice(literal.loc?.start, literal.loc?.end);
  const ends = text.match(/\r\n|\r|\n/g);
  if (!ends) return JSON.stringify(token).padEnd(text.length, ' ');
  const lastLine = text.length - Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) - 1;
  return `"""${token}${ends.join('')}${' '.repeat(lastLine - 3)}"""`;
}

function graphqlTexts(maxTokens: number): TextFinder {
  return (body) => {
    if (!isRecord(body) || typeof body.query !== 'string') return { slots: [] };
    const query = body.query;
    const document = parsed(query, maxTokens);
    const operation = document && operationOf(document, body.operationName);
    if (!document || !operation) return { slots: [] };
    const variables = isRecord(body.variables) ? body.variables : {};
    const literals: TextSlot[] = [];
    const replaced: [StringValueNode, string][] = [];
    /** Per variable: its uses at a text's place, and the texts found through them; `seen`: each text once, however often reached. */
    const through = new Map<string, { uses: Set<VariableNode>; slots: TextSlot[] }>();
    const seen = new Set<unknown>();
    const reach = (variable: VariableNode, find: (value: unknown) => TextSlot[]) => {
      const entry = through.get(variable.name.value) ?? { uses: new Set(), slots: [] };
      through.set(variable.name.value, entry);
      entry.uses.add(variable);
      entry.slots.push(...find(variables[variable.name.value]));
    };
    for (const input of estimateInputs(document, operation)) {
      for (const name of SERIES) {
        const at = valueAt(input, ['measurements', name]);
        if (at && 'variable' in at) {
          reach(at.variable, (value) => {
            for (const step of at.rest) value = isRecord(value) ? value[step] : undefined;
            return seriesOfValue(value, seen);
          });
        } else if (at) {
          for (const [key, format] of FORMATS) {
            const field = at.object.fields.find((f) => f.name.value === key)?.value;
            if (field?.kind === Kind.STRING && field.loc && (field.block || field.loc.end - field.loc.start >= LITERAL_MIN_LENGTH)) {
              literals.push({ text: field.value, format, replace: (token) => replaced.push([field, token]) });
            } else if (field?.kind === Kind.VARIABLE) {
              const variableName = field.name.value;
              reach(field, (text) => {
                if (typeof text !== 'string' || seen.has(variableName)) return [];
                seen.add(variableName);
                return [{ text, format, replace: (token) => (variables[variableName] = token) }];
              });
            }
          }
        }
      }
    }
    const uses = variableUses(document, operation);
    const slots = [...[...through].flatMap(([name, entry]) => (uses.get(name) === entry.uses.size ? entry.slots : [])), ...literals];
    const finish = () => {
      let text = query;
      for (const [literal, token] of replaced.sort(([a], [b]) => (b.loc?.start ?? 0) - (a.loc?.start ?? 0))) {
        text = text.slice(0, literal.loc?.start) + inPlace(query, literal, token) + text.slice(literal.loc?.end);
      }
      body.query = text;
    };
    return { slots, finish };
  };
}

/** The texts of a series object reached through a variable, each object once. */
function seriesOfValue(value: unknown, seen: Set<unknown>): TextSlot[] {
  if (!isRecord(value) || seen.has(value)) return [];
  seen.add(value);
  return seriesSlots(value);
}
