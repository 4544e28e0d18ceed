// Prices are stored exactly as written (docs/catalog-admin.md): up to 15
// decimals for a price, 6 for an upfront, 9 for a serverless unit price, the limits the import
// accepts (catalog-rows.ts). Two places could lose digits before PostgreSQL sees them: the COPY text
// an import sends, and the columns' declared scale. Both are held here without a database; the
// integration tests read the stored values back.
import { readFile } from 'node:fs/promises';
import { Decimal } from '../../domain/money/money.js';
import { PRICE_LIMITS, UPFRONT_LIMITS } from '../../domain/catalog/catalog-rows.js';
import { makeCatalog, makeOffer } from '../../domain/compliance/testing/factories.js';
import { at } from '../../domain/checked.js';
import { stagedLines } from './catalog-writer.repository.js';

describe('what an import stores of a price', () => {
  it('sends every digit of a 15-decimal price, a 6-decimal upfront and a 9-decimal serverless unit price in the COPY text', () => {
    const price = '0.123456789012345';
    const content = makeCatalog({
      offers: [
        makeOffer({ pricingModel: 'RESERVED_3Y', termMonths: 36, pricePerHour: new Decimal(price), upfront: new Decimal('12345.678901') }),
        makeOffer({ pricingModel: 'SERVERLESS', instanceType: 'sls', serverlessUnitPrice: new Decimal('0.000123456'), serverlessUnit: 'GPU_SECOND' }),
      ],
    });
    const { columns, lines } = stagedLines('offers', content);
    const cell = (line: number, column: string) => at(at(lines, line).split('\t'), columns.indexOf(column));
    expect([cell(0, 'price_per_hour'), cell(0, 'upfront'), cell(1, 'serverless_unit_price')]).toEqual([price, '12345.678901', '0.000123456']);
  });

  it('declares each money column with the scale the import accepts (prisma/schema.prisma)', async () => {
    const schema = await readFile('prisma/schema.prisma', 'utf8');
    const scaleOf = (field: string): number => {
      const m = new RegExp(`^\\s*${field}\\s+Decimal\\??\\s.*@db\\.Decimal\\(\\d+,\\s*(\\d+)\\)`, 'm').exec(schema);
      if (!m) throw new Error(`no Decimal column ${field} in prisma/schema.prisma`);
      return Number(m[1]);
    };
    expect([scaleOf('pricePerHour'), scaleOf('upfront'), scaleOf('serverlessUnitPrice')]).toEqual([
      PRICE_LIMITS.fractionDigits,
      UPFRONT_LIMITS.fractionDigits,
      9,
    ]);
  });
});
