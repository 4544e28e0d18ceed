// The REST serialiser against JSON.stringify, the reference it must equal byte for byte: offers
// written from their kept catalog text, also when an offer with the same id comes back with other
// values (another version, currency or discount), and the answers around them.
import fc from 'fast-check';
import { makeGpu, makeOffer, makeProvider, makeRegion } from '../../domain/compliance/testing/factories.js';
import { Decimal } from '../../domain/money/money.js';
import { MoneyModel } from '../models/money.model.js';
import { OFFER_CATALOG_FIELDS, OFFER_REQUEST_FIELDS, OfferModel } from '../../modules/catalog/index.js';
import { ExcludedOfferModel } from '../../modules/offers/models/offers-result.model.js';
import { answerJson, walkJsonOf } from './answer-json.js';

/** An answer class the serialiser walks, holding whatever a test puts in it. */
class Answer {
  [key: string]: unknown;
}
walkJsonOf(Answer);

const FIELDS = [...OFFER_CATALOG_FIELDS, ...OFFER_REQUEST_FIELDS];

const money = fc
  .record({ amount: fc.oneof(fc.constantFrom('3.9000', '0.0000', '12.5000'), fc.string()), currency: fc.constantFrom('USD' as const, 'EUR' as const) })
  .map(({ amount, currency }) => {
    const m = new MoneyModel();
    m.amount = amount;
    m.currency = currency;
    return m;
  });
/** Values JSON writes in every way it can: quoted and escaped text, numbers it writes as null, nothing at all. */
const value = fc.oneof(
  fc.constantFrom('aws', 'eu-west-1', 'a "quoted" \\ text', 'line\nbreak', '\u2028', '\ud800', 'é', ''),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.double(),
  fc.constantFrom(0, -0, 8, 1e21, Number.NaN, Number.POSITIVE_INFINITY),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  money,
  fc.array(fc.string(), { maxLength: 3 }),
);

/** An OfferModel with its fields set in the model's order, from a few ids so that kept texts are met again. */
const offerModel = fc
  .record({ id: fc.constantFrom('k1', 'k2', 'k3'), values: fc.array(value, { minLength: FIELDS.length, maxLength: FIELDS.length }) })
  .map(({ id, values }) => {
    const m = new OfferModel() as unknown as Record<string, unknown>;
    FIELDS.forEach((field, i) => (m[field] = field === 'id' ? id : values[i]));
    return m as unknown as OfferModel;
  });

describe(answerJson.name, () => {
  it('writes what JSON.stringify writes for every offer of a run, kept catalog text or not', () => {
    fc.assert(
      fc.property(fc.array(offerModel, { minLength: 1, maxLength: 12 }), (models) => {
        for (const m of models) expect(answerJson(m)).toBe(JSON.stringify(m));
      }),
      { numRuns: 500 },
    );
  });

  it('writes the kept text again only while the values it was written from hold: a changed price is written anew', () => {
    const base = () => OfferModel.of(quote());
    const first = base();
    expect(answerJson(first)).toBe(JSON.stringify(first));
    const again = base();
    expect(answerJson(again)).toBe(JSON.stringify(again));
    const repriced = base();
    repriced.pricePerGpuHour = MoneyModel.of(new Decimal('4.1234'), 'EUR');
    expect(answerJson(repriced)).toContain('"pricePerGpuHour":{"amount":"4.1234","currency":"EUR"}');
    expect(answerJson(repriced)).toBe(JSON.stringify(repriced));
    const relisted = base();
    relisted.sourceTitle = 'read again';
    expect(answerJson(relisted)).toBe(JSON.stringify(relisted));
    // No catalog field at all, or none but this answer's: still JSON.stringify's text.
    const empty = new OfferModel();
    expect(answerJson(empty)).toBe('{}');
    empty.complies = ['ok'];
    expect(answerJson(empty)).toBe(JSON.stringify(empty));
  });

  it('writes the answers around offers as JSON.stringify does: nesting, arrays, dates, decimals, left-out values', () => {
    fc.assert(
      fc.property(fc.array(offerModel, { maxLength: 4 }), fc.array(value, { maxLength: 4 }), (offers, extras) => {
        const excluded = offers.map((offer) =>
          Object.assign(new ExcludedOfferModel(), { offer, reasons: ['region us-east-1 is in US, outside EEA'], rules: ['RESIDENCY'] }),
        );
        const answer = Object.assign(new Answer(), {
          catalogVersion: { id: 'v', label: '2026-11-30' },
          items: offers,
          excluded,
          nested: [[...offers], { extras, at: new Date(0), price: new Decimal('1.50'), fn: () => 1, [Symbol('s')]: 1 }],
          boxed: [new String('a'), new Number(2), new Boolean(false)],
          missing: undefined,
          last: extras[0],
        });
        expect(answerJson(answer)).toBe(JSON.stringify(answer));
        // The same content in a class it does not walk: JSON.stringify's own text.
        expect(answerJson({ ...answer })).toBe(JSON.stringify(answer));
      }),
      { numRuns: 300 },
    );
    for (const top of [null, 'text', 3, [undefined, () => 1], new Date(0)]) expect(answerJson(top)).toBe(JSON.stringify(top));
  });

  it('knows every field of an offer as the model writes it, catalog fields first, in order', () => {
    expect(Object.keys(OfferModel.of(quote(), { passes: ['ok'], withTotals: true }))).toEqual(FIELDS);
  });
});

function quote() {
  return {
    offer: makeOffer({ gpuCount: 8, instanceType: 'p5.48xlarge', pricePerHour: new Decimal('31.46') }),
    provider: makeProvider(),
    region: makeRegion(),
    gpu: makeGpu(),
    country: 'DE',
    currency: 'EUR' as const,
    pricePerGpuHour: new Decimal('3.4016'),
    pricePerInstanceHour: new Decimal('27.2129'),
    instances: 1,
    totalPricePerHour: new Decimal('27.2129'),
    discountPercent: null,
    energy: null,
    energyUnknownReason: null,
  };
}
