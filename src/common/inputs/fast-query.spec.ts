// The fast query reader against the ValidationPipe it stands in for: on random queries built from
// the offer queries' own parameters (valid values, near misses, junk, repeats, unknown names), a
// query it reads gives exactly the instance the pipe (class-transformer, then class-validator)
// gives, and a query it does not read is left to that pipe. The pipe is the reference.
import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import fc from 'fast-check';
import { IsDefined, IsString, Min } from 'class-validator';
import { CheapestOffersQuery, ListOffersQuery, OffersQuery } from '../../modules/offers/dto/offers.query.js';
import { createValidationPipe } from '../errors/validation.js';
import { readQueryFast } from './fast-query.js';
import { field, QueryField } from './input-field.js';
import { MODEL } from './model.input.js';
import { POLICY } from './policy.input.js';
import { REQUIREMENT } from './requirement.input.js';
import { CURRENCY } from './version-selector.input.js';
import { CHEAPEST, PAGING } from '../../modules/offers/dto/offers.fields.js';

const reference = createValidationPipe({ fastQueries: false });
const pipe = createValidationPipe();
const asQuery = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype, data: undefined });

async function referenceRead(type: new () => object, query: Record<string, unknown>): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await reference.transform(query, asQuery(type)) };
  } catch {
    return { ok: false };
  }
}

const enumValues = [POLICY.residency, POLICY.operator, POLICY.tolerance, REQUIREMENT.gpuCountMode, MODEL.precision, CURRENCY, POLICY.pricingModels.of].flatMap(
  (spec) => (spec.kind === 'enum' ? [...spec.values] : []),
);
// Each bound of the offer queries' numbers, and one step past it either way.
const numberSpecs = [
  REQUIREMENT.gpuCount,
  REQUIREMENT.minGpuMemoryGb,
  MODEL.parametersB,
  POLICY.minSla,
  POLICY.maxPriceAgeDays,
  PAGING.pageSize,
  CHEAPEST.limit,
];
const edges = numberSpecs.flatMap((spec) =>
  spec.kind === 'int' || spec.kind === 'number' ? [spec.min - 1, spec.min, spec.max, spec.max + 1, spec.min - 0.01, spec.max + 0.01].map(String) : [],
);
const samples = [
  ...edges,
  ...enumValues,
  'h100-sxm-80gb',
  'a100-sxm-80gb,h100-sxm-80gb',
  'GDPR_PERSONAL_DATA',
  'llama-3-8b',
  'aws',
  'aws,azure',
  'aws:12',
  'DE',
  'de,FR',
  'DEU',
  'ISO27001',
  '5',
  '0',
  '1',
  '8',
  '-1',
  '501',
  '99.95',
  '1.5',
  '100000.0001',
  '12.345',
  '1e3',
  '0x10',
  ' 5',
  '9'.repeat(400),
  'true',
  'false',
  'yes',
  '',
  ',',
  ' , ',
  '2026-01-01',
  '2026-01-01T00:00:00Z',
  'not-a-date',
  'é',
  'a\u{1F600}b',
  'x'.repeat(65),
  'x'.repeat(101),
];
const texts = fc.oneof(fc.constantFrom(...samples), fc.string({ maxLength: 12 }));
const values = fc.oneof({ weight: 5, arbitrary: texts }, { weight: 1, arbitrary: fc.array(texts, { minLength: 1, maxLength: 3 }) });

function queriesFor(type: new () => object): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(parameterNames(type));
  return fc.dictionary(
    fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: fc.constantFrom('foo', 'constructor') }),
    values,
    {
      maxKeys: 6,
    },
  );
}

/** The parameters of an offer query, as its OpenAPI document lists them (their names only). */
function parameterNames(type: new () => object): Record<string, true> {
  const fields = ['gpu', 'gpuCount', 'gpuCountMode', 'minGpuMemoryGb', 'model', 'parametersB', 'precision', 'provider', 'excludeProvider', 'region'];
  const policy = ['country', 'residency', 'countries', 'allowPartialAdequacy', 'operator', 'preset', 'pricingModel', 'pricingModels', 'tolerance'];
  const rest = ['certifications', 'minSla', 'maxPricePerGpuHour', 'includeEstimates', 'maxPriceAgeDays', 'currency', 'version', 'asOf'];
  const own = type === CheapestOffersQuery ? ['limit', 'explain', 'discounts'] : type === ListOffersQuery ? ['limit', 'cursor'] : [];
  return Object.fromEntries([...fields, ...policy, ...rest, ...own].map((n) => [n, true as const]));
}

describe('readQueryFast', () => {
  it.each([CheapestOffersQuery, ListOffersQuery, OffersQuery])('reads a %p only as the ValidationPipe would, and reads the valid ones', async (type) => {
    let read = 0;
    let valid = 0;
    await fc.assert(
      fc.asyncProperty(queriesFor(type), async (query) => {
        const fast = readQueryFast(type, query);
        const expected = await referenceRead(type, query);
        if (expected.ok) valid++;
        if (fast === undefined) return;
        read++;
        expect(expected.ok).toBe(true);
        if (!expected.ok) return;
        expect(Object.getPrototypeOf(fast)).toBe(type.prototype);
        expect(fast).toEqual(expected.value);
      }),
      { numRuns: 1500 },
    );
    // The property is not vacuous: valid queries occur, and most of them are read fast (the rest
    // hold a parameter left to the pipe, such as discounts, or text outside printable ASCII).
    expect(valid).toBeGreaterThan(100);
    expect(read).toBeGreaterThan(valid / 2);
  });

  it.each([CheapestOffersQuery, ListOffersQuery])(
    'agrees with the ValidationPipe on every single parameter of a %p set to every sample value',
    async (type) => {
      let read = 0;
      for (const name of Object.keys(parameterNames(type))) {
        for (const value of [...samples, samples.slice(0, 3)]) {
          const query = { [name]: value };
          const fast = readQueryFast(type, query);
          if (fast === undefined) continue;
          read++;
          const expected = await referenceRead(type, query);
          expect({ query, ok: expected.ok }).toEqual({ query, ok: true });
          if (expected.ok) expect(fast).toEqual(expected.value);
        }
      }
      expect(read).toBeGreaterThan(100);
    },
  );

  it("reads the benchmark's cheapest query, with numbers, a list and a decimal parsed", async () => {
    const query = {
      gpu: 'h100-sxm-80gb',
      preset: 'GDPR_PERSONAL_DATA',
      limit: '5',
      maxPricePerGpuHour: '100000.0001',
      explain: 'true',
      asOf: '2026-06-01T00:00:00Z',
    };
    const fast = readQueryFast(CheapestOffersQuery, query);
    expect(fast).toBeInstanceOf(CheapestOffersQuery);
    expect(fast).toEqual(
      Object.assign(new CheapestOffersQuery(), {
        gpu: ['h100-sxm-80gb'],
        preset: 'GDPR_PERSONAL_DATA',
        limit: 5,
        maxPricePerGpuHour: '100000.0001',
        explain: true,
        asOf: new Date(Date.UTC(2026, 5, 1)),
      }),
    );
    await expect(pipe.transform(query, asQuery(CheapestOffersQuery))).resolves.toEqual(fast);
  });

  it('leaves discounts, an unknown parameter and every invalid value to the pipe, whose errors name the field', async () => {
    expect(readQueryFast(CheapestOffersQuery, { discounts: 'aws:12' })).toBeUndefined();
    await expect(pipe.transform({ discounts: 'aws:12' }, asQuery(CheapestOffersQuery))).resolves.toEqual(
      Object.assign(new CheapestOffersQuery(), { discounts: ['aws:12'] }),
    );
    for (const query of [{ foo: '1' }, { limit: '0' }, { limit: '5.5' }, { gpuCount: 'two' }, { currency: 'usd' }]) {
      expect(readQueryFast(CheapestOffersQuery, query)).toBeUndefined();
      const field = Object.keys(query)[0];
      await expect(pipe.transform(query, asQuery(CheapestOffersQuery))).rejects.toMatchObject({
        errors: expect.arrayContaining([expect.objectContaining({ field })]),
      });
    }
  });

  it.each([...Object.getOwnPropertyNames(Object.prototype), 'prototype'])(
    'leaves ?%s=x, a name class-transformer skips, to the pipe, which refuses it by name, alone or with a valid parameter',
    async (name) => {
      // Object.fromEntries makes even __proto__ an own key, as a query string parser does.
      for (const query of [
        Object.fromEntries([[name, 'x']]),
        Object.fromEntries([
          ['gpu', 'h100-sxm-80gb'],
          [name, 'x'],
        ]),
      ]) {
        for (const type of [CheapestOffersQuery, ListOffersQuery]) {
          expect(readQueryFast(type, query)).toBeUndefined();
          for (const validation of [pipe, reference]) {
            await expect(validation.transform(query, asQuery(type))).rejects.toMatchObject({
              code: 'REQUEST.INVALID',
              errors: [{ field: name, message: `property ${name} should not exist` }],
            });
          }
        }
      }
    },
  );

  it('leaves an empty allow list (countries=, country=, provider=, region=) to the pipe, which refuses it; an empty deny list is read', async () => {
    for (const [name, value] of [
      ['countries', ''],
      ['country', ' , '],
      ['provider', ''],
      ['region', ','],
    ] as const) {
      expect(readQueryFast(ListOffersQuery, { [name]: value })).toBeUndefined();
      await expect(pipe.transform({ [name]: value }, asQuery(ListOffersQuery))).rejects.toMatchObject({
        errors: [{ field: name, message: 'must contain at least 1 element' }],
      });
    }
    // excludeProvider= denies nothing, as the pipe reads it too.
    const empty = Object.assign(new ListOffersQuery(), { excludeProvider: [] });
    expect(readQueryFast(ListOffersQuery, { excludeProvider: '' })).toEqual(empty);
    await expect(pipe.transform({ excludeProvider: '' }, asQuery(ListOffersQuery))).resolves.toEqual(empty);
  });

  it('leaves a missing required parameter to the pipe', async () => {
    class Needs {
      @QueryField(field.int({ min: 1, max: 9, required: true }))
      n!: number;
    }
    expect(readQueryFast(Needs, {})).toBeUndefined();
    expect(readQueryFast(Needs, { n: '3' })).toEqual(Object.assign(new Needs(), { n: 3 }));
    await expect(pipe.transform({}, asQuery(Needs))).rejects.toMatchObject({ errors: [{ field: 'n', message: 'is required' }] });
  });

  it('reads nothing of a class with a required property that is not a QueryField', async () => {
    class Mixed {
      @QueryField(field.int({ min: 1, max: 10 }))
      n?: number;
      @IsDefined()
      @IsString()
      other!: string;
    }
    expect(readQueryFast(Mixed, { n: '3' })).toBeUndefined();
    await expect(pipe.transform({ n: '3' }, asQuery(Mixed))).rejects.toMatchObject({
      errors: expect.arrayContaining([expect.objectContaining({ field: 'other' })]),
    });
  });

  it('reads nothing of a class with a rule QueryField did not write', async () => {
    class Stricter {
      @QueryField(field.int({ min: 1, max: 10 }))
      @Min(5)
      n?: number;
    }
    expect(readQueryFast(Stricter, { n: '3' })).toBeUndefined();
    await expect(pipe.transform({ n: '3' }, asQuery(Stricter))).rejects.toMatchObject({ errors: [{ field: 'n', message: 'must not be less than 5' }] });
  });
});
