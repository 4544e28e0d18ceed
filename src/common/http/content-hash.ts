// The hash behind ETags and the response cache's keys: xxHash64 (xxhash-wasm, WebAssembly). A
// validator needs the bytes to decide it, not secrecy, and a collision between two answers to the
// same URL (the only ones If-None-Match compares) is a 1 in 2^64 chance. For a 7 KB cheapest answer
// it takes 0.9 µs against SHA-1's 4.5 µs (BENCHMARKS.md, "A read's work in process").
// Instantiated when this module loads, without a top-level await, which Node 20's bundle (a
// CommonJS script, docs/adr/0009-a-v8-code-cache-on-node-20.md) cannot hold.
import xxhash, { type XXHashAPI } from 'xxhash-wasm';

let hasher: XXHashAPI | undefined;
/** Resolves once contentHash can answer: installHttpHooks waits for it. */
export const contentHashReady: Promise<void> = xxhash().then((api) => {
  hasher = api;
});

/** 16 hex digits that the text decides (its UTF-8 bytes), equal on every instance. */
export function contentHash(text: string): string {
  if (!hasher) throw new Error('contentHash before contentHashReady resolved');
  return hasher.h64ToString(text);
}
