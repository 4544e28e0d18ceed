// The REST answers' serialiser (Fastify's reply serialiser): JSON.stringify's output, byte for byte,
// with one shortcut. A class may register a writer for its instances (writeJsonWith); OfferModel
// does, writing the text of its catalog fields once per offer and currency and reusing it while
// their values stay those. An offer is most of an answer's bytes and fields, and JSON.stringify
// walked them anew for every answer: serialising and hashing a page of 50 offers took 80 µs, 51 µs
// this way, and a cheapest answer of five 10 µs against 8 (BENCHMARKS.md, "Per-request work").
// Answers of the other classes (health, versions, reference data) hold no offer and go to
// JSON.stringify directly. answer-json.spec.ts holds it to JSON.stringify on random answers.

/** Writers of classes whose instances write themselves; each appends exactly JSON.stringify(value). */
const writers = new Map<unknown, (value: never, out: string[]) => void>();
/** Classes whose answers may hold an instance of a class with a writer (offers, in the answers' lists). */
const holders = new Set<unknown>();

export function writeJsonWith<T extends object>(type: abstract new (...args: never[]) => T, writer: (value: T, out: string[]) => void): void {
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
  const out: string[] = [];
  if (!write(value, out)) return 'null';
  // One flat string: the socket and the ETag read it whole, and a tree of concatenations would be copied for them anyway.
  return out.join('');
}

/** Appends JSON.stringify's text for a property value; false (nothing appended) where it leaves the property out. */
function write(value: unknown, out: string[]): boolean {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  const writer = writers.get(value.constructor);
  if (writer) {
    writer(value as never, out);
    return true;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      if (!write(value[i] as unknown, out)) out.push('null');
    }
    out.push(']');
    return true;
  }
  // toJSON (Decimal, Date) and boxed primitives: JSON.stringify's own handling.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function' || value instanceof String || value instanceof Number || value instanceof Boolean) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  out.push('{');
  let first = true;
  for (const key of Object.keys(value)) {
    // The key goes in first, and comes out again when the value is one JSON leaves out.
    const at = out.length;
    if (!first) out.push(',');
    out.push(keyText(key));
    if (write((value as Record<string, unknown>)[key], out)) first = false;
    else out.length = at;
  }
  out.push('}');
  return true;
}

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
