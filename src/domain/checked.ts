// What the types cannot prove but the code relies on: an index inside its array, a key in its map,
// a value that an earlier check guarantees. Each helper returns the value, typed as present, or
// throws an error that says what was missing, instead of letting an undefined travel on (which is
// what a non-null assertion `!` does). A throw here is a bug, never an input error.

/** Any value but undefined: an element or entry of this type that reads as undefined is missing. */
type Present = NonNullable<unknown> | null;

/** items[index]; a RangeError when the index is outside the array. */
export function at<T extends Present>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} is outside 0..${items.length - 1}`);
  return item;
}

/** The last item; a RangeError when there is none. */
export function last<T extends Present>(items: ArrayLike<T>): T {
  return at(items, items.length - 1);
}

/** The value; an Error naming `what` when it is null or undefined. */
export function defined<T>(value: T, what: string): NonNullable<T> {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/** map.get(key); an Error naming `what` and the key when the map has no entry for it. */
export function getOrThrow<K, V extends Present>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`${what} ${String(key)} is not known`);
  return value;
}

/**
 * items[index] of one kind of typed array each: the check `at` makes, in a function of its own per
 * kind. V8 compiles an element read for the kinds of array it has met at that read, and `at`, called
 * with plain arrays and with every kind of typed array, has met too many to read any of them fast.
 * The ranked walk's inner loops use these (BENCHMARKS.md, "A read's work in process").
 */
export function atInt32(items: Int32Array, index: number): number {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} is outside 0..${items.length - 1}`);
  return item;
}

/** atInt32 for a Float64Array. */
export function atFloat64(items: Float64Array, index: number): number {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} is outside 0..${items.length - 1}`);
  return item;
}
