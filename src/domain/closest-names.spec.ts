import { closestNames, unknownIdentifierMessage } from './closest-names.js';

const GPUS = ['a100-sxm-80gb', 'h100-pcie-80gb', 'h100-sxm-80gb', 'h200-sxm-141gb', 'l4-24gb', 'l40s-48gb'];

describe('closestNames', () => {
  it('puts names that contain the value first, then the fewest edits, then alphabetical', () => {
    // Both H100 slugs contain "h100"; "h100-pcie-80gb" needs 10 insertions, "h100-sxm-80gb" 9.
    // Then l4-24gb (7 edits: no letter in common) before a100-sxm-80gb (10) and h200-sxm-141gb (11).
    expect(closestNames('h100', GPUS)).toEqual(['h100-sxm-80gb', 'h100-pcie-80gb', 'l4-24gb']);
  });

  it('ignores case and finds a known name inside a longer one', () => {
    expect(closestNames('NVIDIA-H100-SXM-80GB', GPUS)[0]).toBe('h100-sxm-80gb');
  });

  it('suggests by edit distance when nothing contains the value (one typo away first)', () => {
    // "l4-42gb" → "l4-24gb" is two substitutions; every other slug is further.
    expect(closestNames('l4-42gb', GPUS, 1)).toEqual(['l4-24gb']);
  });

  it('suggests nothing when nothing is known, and at most three by default', () => {
    expect(closestNames('x', [])).toEqual([]);
    expect(closestNames('x', GPUS)).toHaveLength(3);
  });
});

describe('unknownIdentifierMessage', () => {
  it('names what was sent and the closest known values', () => {
    // awz → aws 1 edit, → gcp 3 (three substitutions), → azure 4 (drop w, add u r e), → lambda 5.
    expect(unknownIdentifierMessage('provider', 'awz', ['aws', 'azure', 'gcp', 'lambda'])).toBe('unknown provider "awz"; closest known: aws, gcp, azure');
  });
});
