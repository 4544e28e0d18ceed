import { at, defined, getOrThrow, last } from './checked.js';

describe(at.name, () => {
  it('returns the element at an index, also a falsy one', () => {
    expect(at([0, 1, 2], 0)).toBe(0);
    expect(at(Int32Array.of(5, 6), 1)).toBe(6);
    expect(at([null], 0)).toBeNull();
  });

  it('throws a RangeError naming the index and the bounds outside the array', () => {
    expect(() => at([1, 2], 2)).toThrow(new RangeError('index 2 is outside 0..1'));
    expect(() => at([1, 2], -1)).toThrow(RangeError);
    expect(() => at([], 0)).toThrow('index 0 is outside 0..-1');
  });
});

describe(last.name, () => {
  it('returns the last element, and throws on an empty array', () => {
    expect(last(['a', 'b'])).toBe('b');
    expect(() => last([])).toThrow(RangeError);
  });
});

describe(defined.name, () => {
  it('passes a present value through, falsy ones included', () => {
    expect(defined(0, 'count')).toBe(0);
    expect(defined('', 'label')).toBe('');
  });

  it('throws naming what is missing for null and undefined', () => {
    expect(() => defined(null, 'the version')).toThrow('the version is missing');
    expect(() => defined(undefined, 'the version')).toThrow('the version is missing');
  });
});

describe(getOrThrow.name, () => {
  it('returns the entry of a key, and names the key when the map has none', () => {
    const map = new Map([['aws', 0]]);
    expect(getOrThrow(map, 'aws', 'provider')).toBe(0);
    expect(() => getOrThrow(map, 'gcp', 'provider')).toThrow('provider gcp is not known');
  });
});
