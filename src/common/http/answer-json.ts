// The REST answers' serialiser (Fastify's reply serialiser): JSON.stringify's output, byte for byte,
// with one shortcut. A class may register a writer for its instances (writeJsonWith); OfferModel
// does, writing the text of its catalog fields once per offer and currency and reusing it while
// their values stay those. An offer is most of an answer's bytes and fields, and JSON.stringify
// walked them anew for every answer: serialising and hashing a page of 50 offers took 80 µs, 54 µs
// this way (BENCHMARKS.md, "A read's work in process").
// Answers of the other classes (health, versions, reference data) hold no offer and go to
// JSON.stringify directly. answer-json.spec.ts holds it to JSON.stringify on random answers.

/** Writers of classes whose instances write themselves; each answers exactly JSON.stringify(value). */
const writers = new Map<unknown, (value: never) => string>();
/** Classes whose answers may hold an instance of a class with a writer (offers, in the answers' lists). */
const holders = new Set<unknown>();

export function writeJsonWith<T extends object>(type: abstract new (...args: never[]) => T, writer: (value: T) => string): void {
  writers.set(type, writer);
}

/** Answers of these classes are walked for instances that write themselves; any other goes to JSON.stringify whole. */
export function walkJsonOf(...types: (abstract new (...args: never[]) => object)[]): void {
  for (const type of types) holders.add(type);
}

/** JSON.stringify(value), with instances of classes that have a writer written by it. */
export function answerJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || !(holders.has(value.constructor) || writers.has(value.constructor))) {
    // JSON.stringify answers undefined for undefined, a function or a symbol.
    const text: string | undefined = JSON.stringify(value);
    return text ?? 'null';
  }
  // Concatenated, not joined: V8 links the pieces and copies them once, when the socket or the ETag
  // first reads the whole (faster than Array.join here, and no more memory).
  return write(value) ?? 'null';
}

/** JSON.stringify's text for a property value; undefined where it leaves the property out. */
function write(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return stringify(value);
  const writer = writers.get(value.constructor);
  if (writer) return writer(value as never);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (write(value[i] as unknown) ?? 'null');
    return out + ']';
  }
  // toJSON (Decimal, Date) and boxed primitives: JSON.stringify's own handling.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function' || value instanceof String || value instanceof Number || value instanceof Boolean) {
    return stringify(value);
  }
  let out = '{';
  for (const key of Object.keys(value)) {
    const text = write((value as Record<string, unknown>)[key]);
    if (text === undefined) continue;
    out += (out.length === 1 ? '' : ',') + keyText(key) + text;
  }
  return out + '}';
}

/** JSON.stringify, typed as it behaves: undefined for undefined, a function or a symbol. */
const stringify = (value: unknown): string | undefined => JSON.stringify(value);

/** `"key":`, for the few keys the models have, written once each. */
const keyTexts = new Map<string, string>();

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size < 1024) keyTexts.set(key, text);
  }
  return text;
}
