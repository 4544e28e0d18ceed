// A large estimate body read in a worker (estimate-body.ts) must change no answer: the same
// refusals in the same order as the request thread's parser, tokens only where the validation
// would accept the text, and the same estimate from the tokens as from the texts, refusals of a
// text included (reported where the estimate worker reported them before).
import { Logger } from '@nestjs/common';
import { length } from 'class-validator';
import { sampleCatalog } from '../../domain/compliance/testing/sample-catalog.js';
import { parseCsv } from '../../domain/measurements/series.js';
import { asMatrix } from '../../domain/measurements/testing/synthetic-week.js';
import type { EstimateInput } from './dto/estimate.input.js';
import { readEstimateBody, validatedLength, type BodyOutcome, type ReadText } from './estimate-body.js';
import { estimatesUnderTest } from './testing/estimates-under-test.js';

const read = (body: string, maxSamples = 200_000): BodyOutcome => readEstimateBody({ bytes: new TextEncoder().encode(body), nonce: 'n', maxSamples });

const WEEK = Array.from({ length: 7 * 24 * 12 }, (_, i) => `${1_780_000_000 + i * 300},${(30 + 20 * Math.sin(i / 40)).toFixed(3)}`).join('\n');
const MATRIX = asMatrix(
  [0, 1].map((gpu) => ({ metric: { gpu: String(gpu) }, values: [0, 1, 2, 3].map((i): [number, number] => [1_780_000_000 + i * 60, 40 + gpu]) })),
);

describe(readEstimateBody.name, () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('refuses what the request thread refuses, in its order: too many values, too many samples, empty, not JSON', () => {
    expect(read(`[${'0,'.repeat(10_000)}0]`)).toEqual({ kind: 'REFUSED', reason: 'TOO_MANY_VALUES' });
    // 30 samples (`\n` escapes) in a body over 5 bytes a sample: counted, over a bound of 20.
    expect(read(JSON.stringify({ measurements: { traffic: { csv: '1,1\n'.repeat(30) } } }), 20)).toEqual({ kind: 'REFUSED', reason: 'TOO_MANY_SAMPLES' });
    expect(read('')).toEqual({ kind: 'REFUSED', reason: 'EMPTY' });
    expect(read('{"model":')).toEqual({ kind: 'REFUSED', reason: 'NOT_JSON' });
    expect(read('{"__proto__":{"x":1}}')).toEqual({ kind: 'REFUSED', reason: 'NOT_JSON' });
    expect(read('{"a":{"constructor":{"prototype":{}}}}')).toEqual({ kind: 'REFUSED', reason: 'NOT_JSON' });
  });

  it('replaces each text the validation accepts by a token, with its series and count; leaves the rest as sent', () => {
    const body = { measurements: { traffic: { csv: WEEK }, utilization: { prometheus: MATRIX }, memoryUsed: { csv: '' } }, other: { csv: WEEK } };
    const outcome = read(JSON.stringify(body));
    if (outcome.kind !== 'READ') throw new Error(`refused: ${outcome.reason}`);
    const texts = new Map(outcome.texts);
    expect(outcome.body).toEqual({
      measurements: { traffic: { csv: [...texts.keys()][0] }, utilization: { prometheus: [...texts.keys()][1] }, memoryUsed: { csv: '' } },
      other: { csv: WEEK },
    });
    const [traffic, utilization] = [...texts.values()] as [ReadText, ReadText];
    expect(traffic.samples).toBe(7 * 24 * 12);
    const [week] = parseCsv(WEEK);
    expect(traffic.parsed).toEqual({ series: [{ labels: {}, t: Float64Array.from(week?.t ?? []), v: Float64Array.from(week?.v ?? []) }] });
    expect(utilization).toMatchObject({ format: 'PROMETHEUS', parsed: { series: [{ labels: { gpu: '0' } }, { labels: { gpu: '1' } }] } });
    // Tokens differ per body (the nonce) and per text.
    expect(new Set(texts.keys()).size).toBe(2);
    expect([...texts.keys()].every((token) => token.includes(' n)'))).toBe(true);
  });

  it('measures a length as class-validator does (surrogate pairs and presentation selectors), so a token changes no verdict', () => {
    for (const text of ['a', '\uFE0F', 'a\uFE0F', '\uFE0F\uFE0F', '😀', '😀😀', '\uD800', 'ab\uFE0E', 'x'.repeat(9)]) {
      for (const [min, max] of [
        [1, 1],
        [1, 2],
        [2, 3],
        [1, 8],
      ] as const) {
        const ours = validatedLength(text) >= min && validatedLength(text) <= max;
        expect({ text, min, max, ours }).toEqual({ text, min, max, ours: length(text, min, max) });
      }
    }
  });

  it('the estimate from the tokens is the estimate from the texts, and a text it refuses is refused alike', async () => {
    const { repo, estimates } = await estimatesUnderTest();
    repo.publishAt(repo.addVersion({ content: sampleCatalog() }).id, new Date('2026-01-01T00:00:00Z'));
    const workload = { avgInputTokens: 500, avgOutputTokens: 200 };
    const asSent = (measurements: EstimateInput['measurements']): EstimateInput => ({ model: { preset: 'llama-3-8b' }, workload, measurements });
    const viaWorker = async (input: EstimateInput) => {
      const outcome = read(JSON.stringify(input));
      if (outcome.kind !== 'READ') throw new Error(`refused: ${outcome.reason}`);
      // Through structured cloning, as the columns cross from the worker.
      return estimates.estimate(outcome.body as EstimateInput, undefined, new Map(structuredClone(outcome.texts)));
    };
    const good = asSent({ traffic: { csv: WEEK }, utilization: { prometheus: MATRIX } });
    const direct = await estimates.estimate(good);
    expect(direct.measured?.traffic?.samples).toBe(7 * 24 * 12);
    expect(await viaWorker(good)).toEqual(direct);

    const bad = asSent({ traffic: { csv: `${WEEK}\n1780000000,5` } });
    const refusal = await estimates.estimate(bad).catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      code: 'REQUEST.INVALID',
      errors: [{ field: 'measurements.traffic.csv', message: expect.stringMatching(/^line 2017: /) as unknown }],
    });
    expect(await viaWorker(bad).catch((error: unknown) => error)).toEqual(refusal);
  });
});
