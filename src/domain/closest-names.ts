// Suggestions for a mistyped identifier (a GPU slug, a provider, a preset): the known names
// closest to what was sent, so an error can say what was probably meant.
import { distance } from 'fastest-levenshtein';

const SUGGESTIONS = 3;

/**
 * The known names closest to `value`: names that contain it (or that it contains) first, then by
 * edit distance, then alphabetically, so "h100" suggests the H100 models before "a100-…".
 */
export function closestNames(value: string, known: Iterable<string>, count = SUGGESTIONS): string[] {
  const v = value.toLowerCase();
  return [...new Set(known)]
    .map((name) => {
      const n = name.toLowerCase();
      return { name, contains: n.includes(v) || v.includes(n) ? 0 : 1, edits: distance(v, n) };
    })
    .sort((a, b) => a.contains - b.contains || a.edits - b.edits || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((c) => c.name);
}

/** "unknown GPU model "nope"; closest known: a, b, c" */
export function unknownIdentifierMessage(what: string, value: string, known: Iterable<string>): string {
  const closest = closestNames(value, known);
  return `unknown ${what} "${value}"${closest.length ? `; closest known: ${closest.join(', ')}` : ''}`;
}
