import { contentHash, contentHashReady } from './content-hash.js';

describe(contentHash.name, () => {
  beforeAll(() => contentHashReady);

  it("is xxHash64 with seed 0 of the text's UTF-8 bytes (the reference implementation's test vectors)", () => {
    expect(contentHash('')).toBe('ef46db3751d8e999');
    expect(contentHash('abc')).toBe('44bc2cf5ad770999');
  });

  it('tells apart texts that differ in one character, and is the same for equal texts', () => {
    const answer = JSON.stringify({ amount: '3.9000', currency: 'USD' });
    expect(contentHash(answer)).toBe(contentHash(String(answer)));
    expect(contentHash(answer)).not.toBe(contentHash(answer.replace('3.9000', '3.9001')));
  });
});
