// A large GraphQL body read in a worker (graphql-body.ts) must change no answer: only the texts
// the operation's estimate takes become tokens, never a variable another field also reads, and a
// text written in the document keeps every location after it where it was.
import { Kind, parse, visit } from 'graphql';
import type { BodyOutcome } from './estimate-body.js';
import { readGraphqlBody } from './graphql-body.js';

const CSV = Array.from({ length: 50 }, (_, i) => `${1_780_000_000 + i * 300},${i % 7}`).join('\n');
const read = (body: object): BodyOutcome & { kind: 'READ' } => {
  const outcome = readGraphqlBody({ bytes: new TextEncoder().encode(JSON.stringify(body)), nonce: 'n', maxSamples: 200_000 }, 1000);
  if (outcome.kind !== 'READ') throw new Error(`refused: ${outcome.reason}`);
  return outcome;
};
/** The values of the strings written in a document. */
const stringsOf = (query: string): string[] => {
  const values: string[] = [];
  visit(parse(query), { [Kind.STRING]: (node: { value: string }) => void values.push(node.value) });
  return values;
};
const tokens = (outcome: BodyOutcome & { kind: 'READ' }) => outcome.texts.map(([token]) => token);

describe(readGraphqlBody.name, () => {
  it('tokenises the texts of the estimate in its variables, whole input, measurements, series or text alike, each once', () => {
    const query = `query E($input: EstimateInput!, $m: MeasurementsInput, $s: MeasuredSeriesInput, $t: String) {
      a: estimate(input: $input) { gpu } b: estimate(input: $input) { gpu }
      c: estimate(input: { model: { preset: "x" }, measurements: $m }) { gpu }
      d: estimate(input: { measurements: { utilization: $s, memoryUsed: { csv: $t } } }) { gpu } }`;
    const variables = { input: { measurements: { traffic: { csv: CSV } } }, m: { utilization: { prometheus: '{}' } }, s: { csv: CSV }, t: CSV };
    const outcome = read({ query, variables });
    const [a, b, c, d] = tokens(outcome);
    expect(tokens(outcome)).toHaveLength(4);
    expect(outcome.body).toEqual({
      query,
      variables: { input: { measurements: { traffic: { csv: a } } }, m: { utilization: { prometheus: b } }, s: { csv: c }, t: d },
    });
    expect(outcome.texts.map(([, text]) => [text.format, text.samples])).toEqual([
      ['CSV', 50],
      ['PROMETHEUS', 0],
      ['CSV', 50],
      ['CSV', 50],
    ]);
    // The matrix '{}' is refused where the estimate would refuse it.
    expect(outcome.texts[1]?.[1].parsed).toHaveProperty('error');
  });

  it('leaves a variable that another field also reads, an operation not run, and a document that does not parse', () => {
    const both = `query E($t: String) { estimate(input: { measurements: { traffic: { csv: $t } } }) { gpu } gpu(slug: $t) { slug } }`;
    expect(tokens(read({ query: both, variables: { t: CSV } }))).toEqual([]);
    const two = `query A($i: EstimateInput!) { estimate(input: $i) { gpu } } query B($i: EstimateInput!) { estimate(input: $i) { monthlyCost { amount } } }`;
    const variables = { i: { measurements: { traffic: { csv: CSV } } } };
    expect(tokens(read({ query: two, variables }))).toEqual([]); // no operationName: Apollo refuses it
    expect(tokens(read({ query: two, variables, operationName: 'B' }))).toHaveLength(1);
    expect(tokens(read({ query: `{ estimate(input: $i) { gpu }`, variables }))).toEqual([]);
    expect(tokens(read({ query: `query ($i: EstimateInput!) { gpu(slug: "x") { slug } }`, variables }))).toEqual([]);
  });

  it('follows fragments, and replaces a text written in the document by its token, ending where the text ended', () => {
    const block = `"""\n${CSV}\n"""`;
    const query = `query E { ...F }\nfragment F on Query { estimate(input: { measurements: { traffic: { csv: ${block} } } }) { gpu } }\n{ oops }`;
    const outcome = read({ query, operationName: 'E' });
    const [token] = tokens(outcome);
    const after = (outcome.body as { query: string }).query;
    // As many lines, the last two as long: what follows the text is where it was.
    expect(
      after
        .split('\n')
        .map((line) => line.length)
        .slice(-2),
    ).toEqual(
      query
        .split('\n')
        .map((line) => line.length)
        .slice(-2),
    );
    expect(after.split('\n')).toHaveLength(query.split('\n').length);
    expect(stringsOf(after)).toEqual([token]);
    // On one line: as long.
    const line = `{ estimate(input: { measurements: { traffic: { csv: ${JSON.stringify(CSV)} } } }) { gpu } }`;
    const one = read({ query: line });
    expect((one.body as { query: string }).query).toHaveLength(line.length);
    expect(stringsOf((one.body as { query: string }).query)).toEqual(tokens(one));
    expect(outcome.texts[0]?.[1].samples).toBe(50);
  });
});
