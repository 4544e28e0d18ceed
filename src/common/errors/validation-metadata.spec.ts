import 'reflect-metadata';
import { jest } from '@jest/globals';
import { getMetadataStorage, IsInt, Max, Min, validate } from 'class-validator';
import { memoizeValidationMetadata } from './validation.js';

class Limits {
  @IsInt()
  @Min(1)
  count!: number;
}

const messages = async (value: object) => (await validate(value)).flatMap((e) => Object.values(e.constraints ?? {})).sort();

describe('memoizeValidationMetadata', () => {
  beforeAll(() => memoizeValidationMetadata());

  it('gives the answers class-validator gives, and looks a class up once', async () => {
    const storage = getMetadataStorage();
    const spy = jest.spyOn(storage, 'getTargetValidationMetadatas');
    const bad = Object.assign(new Limits(), { count: 0.5 });
    expect(await messages(bad)).toEqual(['count must be an integer number', 'count must not be less than 1']);
    const first = spy.mock.results[0]?.value as unknown[];
    expect(await messages(Object.assign(new Limits(), { count: 3 }))).toEqual([]);
    // The memoized lookup hands out the very same list for the same class and options.
    expect(spy.mock.results[1]?.value).toBe(first);
    spy.mockRestore();
  });

  it('sees a rule added after the first validation', async () => {
    expect(await messages(Object.assign(new Limits(), { count: 50 }))).toEqual([]);
    Max(10)(Limits.prototype, 'count');
    expect(await messages(Object.assign(new Limits(), { count: 50 }))).toEqual(['count must not be greater than 10']);
  });

  it('keeps a subclass defined later apart from its parent', async () => {
    class Narrow extends Limits {
      @Max(2)
      override count!: number;
    }
    expect(await messages(Object.assign(new Narrow(), { count: 3 }))).toEqual(['count must not be greater than 2']);
    expect(await messages(Object.assign(new Limits(), { count: 3 }))).toEqual([]);
  });
});
