// ECB euro foreign exchange reference rates (public, daily XML): the catalog version's FX. The ECB
// quotes USD per 1 EUR; the catalog's FX is based on USD (1 USD buys rates.EUR euros), so the rate
// is inverted, rounded to 6 decimals, and the arithmetic is stated in the FX source.
import { Decimal } from 'decimal.js';
import { XMLParser } from 'fast-xml-parser';
import { SourceShapeError, type PriceSource, type SourceResult } from '../price-source.js';

export const DEFAULT_ECB_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

interface Cube {
  time?: string;
  currency?: string;
  rate?: string;
  Cube?: Cube | Cube[];
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export const ecbSource: PriceSource = {
  name: 'ecb',
  provider: null,
  defaultUrl: DEFAULT_ECB_URL,
  async fetch({ url, http }): Promise<SourceResult> {
    const text = await http.text(url);
    const where = `page 1 (${url})`;
    let doc: Record<string, unknown>;
    try {
      // Attributes as plain fields, values as text (no number parsing: a rate stays "1.1761").
      doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', removeNSPrefix: true, parseAttributeValue: false, parseTagValue: false }).parse(
        text,
        true,
      ) as Record<string, unknown>;
    } catch (error) {
      throw new SourceShapeError('ecb', where, null, `not XML: ${(error as Error).message}`);
    }
    const envelope = doc.Envelope as { Cube?: Cube } | undefined;
    const days = list(envelope?.Cube?.Cube).filter((c) => c.time !== undefined);
    const day = days[0];
    if (!day?.time || !/^\d{4}-\d{2}-\d{2}$/.test(day.time))
      throw new SourceShapeError('ecb', where, null, 'no Envelope > Cube > Cube with a time="YYYY-MM-DD"');
    const rates = list(day.Cube);
    const usd = rates.find((c) => c.currency === 'USD');
    if (!usd?.rate || !/^\d+(\.\d+)?$/.test(usd.rate) || new Decimal(usd.rate).lte(0)) {
      throw new SourceShapeError('ecb', where, `Cube time=${day.time}`, 'no positive USD rate');
    }
    const eurPerUsd = new Decimal(1).div(usd.rate).toDecimalPlaces(6);
    return {
      offers: [],
      rowsRead: rates.length,
      pages: 1,
      skipped: {},
      fx: {
        base: 'USD',
        rates: { EUR: eurPerUsd.toString() },
        date: day.time,
        source: `ECB euro foreign exchange reference rates, ${url}, ${day.time}: 1 EUR = ${usd.rate} USD; EUR per USD = 1 / ${usd.rate} = ${eurPerUsd.toString()} (rounded to 6 decimals)`,
      },
    };
  },
};
