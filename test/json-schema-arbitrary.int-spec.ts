// The schema-driven fuzzer's generator (test/setup/json-schema-arbitrary.ts) honours the keywords
// the schemas do not use yet (oneOf, not, dependentRequired, additionalProperties: false), so that
// test/schema-fuzz.e2e-spec.ts grows stricter by itself when openapi.json states those rules.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { arbitraryFor, mutationsOf, type Schema } from './setup/json-schema-arbitrary.js';

// "Exactly one profile", a field that needs another, a forbidden one, and a closed object.
const WORKLOAD: Schema = {
  type: 'object',
  properties: {
    hourlyProfile: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 24, maxItems: 24 },
    weeklyProfile: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 168, maxItems: 168 },
    requestsPerSecond: { type: 'number', minimum: 0, maximum: 1e6 },
    batchShare: { type: 'number', minimum: 0, exclusiveMaximum: 1 },
    scaleToZero: { type: 'boolean' },
    legacy: { type: 'string' },
  },
  oneOf: [{ required: ['hourlyProfile'] }, { required: ['weeklyProfile'] }, { required: ['requestsPerSecond'] }],
  dependentRequired: { scaleToZero: ['batchShare'] },
  not: { required: ['legacy'] },
  additionalProperties: false,
};

describe('json-schema-arbitrary', () => {
  const validate = new Ajv2020({ strict: false }).compile(WORKLOAD);

  it('generates only values the schema accepts, without a filter to lean on', () => {
    const values = fc.sample(arbitraryFor(WORKLOAD, { root: {} }), { numRuns: 300, seed: 29 });
    expect(values.filter((v) => !validate(v))).toEqual([]);
    // Each branch of the oneOf is reached.
    for (const key of ['hourlyProfile', 'weeklyProfile', 'requestsPerSecond']) expect(values.some((v) => key in (v as object))).toBe(true);
  });

  it('reads a `required` whose `properties` only name it (as linters ask inside oneOf and not) as a bare one', () => {
    const named = (key: string): Schema => ({ required: [key], properties: { [key]: {} } });
    const schema: Schema = { ...WORKLOAD, oneOf: ['hourlyProfile', 'weeklyProfile', 'requestsPerSecond'].map(named), not: { anyOf: [named('legacy')] } };
    const check = new Ajv2020({ strict: false }).compile(schema);
    const values = fc.sample(arbitraryFor(schema, { root: {} }), { numRuns: 300, seed: 29 });
    expect(values.filter((v) => !check(v))).toEqual([]);
  });

  it('an unknown property is a mutation the schema refuses once it is closed', () => {
    const [value] = fc.sample(arbitraryFor(WORKLOAD, { root: {} }), { numRuns: 1, seed: 29 });
    const unknown = mutationsOf(value, WORKLOAD, { root: {} }).find((m) => m.kind === 'unknown property');
    expect(validate(unknown?.apply(value))).toBe(false);
    const open = new Ajv2020({ strict: false }).compile({ ...WORKLOAD, additionalProperties: true });
    expect(open(unknown?.apply(value))).toBe(true);
  });
});
