// Scaleway product catalog (public, no key): GET /product-catalog/v2alpha1/public-catalog/products,
// the prices Scaleway's own CLI reads for `scw instance server-type list` (a recorded answer is in
// test/fixtures/price-sources/README.md). Each product is one offer in one zone; its price is
// `units` + `nanos`/1e9 in `currency_code` (EUR) per `unit_of_measure` (`hour`, or `minute` for the
// GPU types: times 60 into an hourly price). Pages are `page=1,2,...` until `total_count` products
// are read. Instances only have on-demand prices here: the source replaces Scaleway's ON_DEMAND
// offers only.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { countSkip, isoDay, SourceShapeError, type PriceSource, type SourceResult, type SyncOfferRow } from '../price-source.js';

/** Instance types (Scaleway's names) -> catalog GPU; the GPU count is the product's `gpu.count`. */
const GPU_TYPES: readonly (readonly [RegExp, string])[] = [
  [/^L4-\d+-24G$/, 'l4-24gb'],
  [/^L40S-\d+-48G$/, 'l40s-48gb'],
  [/^H100-\d+-80G$/, 'h100-pcie-80gb'],
  [/^H100-SXM-\d+-80G$/, 'h100-sxm-80gb'],
];

/** Hours per unit of measure: a price per minute is 60 times that per hour. */
const PER_HOUR: Readonly<Record<string, number>> = { hour: 1, minute: 60 };

const pageSchema = z.object({ products: z.array(z.unknown()), total_count: z.number().int().nonnegative() });

const productSchema = z.object({
  product: z.string().min(1),
  locality: z.object({ zone: z.string().min(1) }),
  price: z.object({ retail_price: z.object({ currency_code: z.string(), units: z.number().int().nonnegative(), nanos: z.number().int().nonnegative() }) }),
  properties: z.object({ hardware: z.object({ gpu: z.object({ count: z.number(), type: z.string() }).optional() }) }),
  unit_of_measure: z.object({ unit: z.string(), size: z.number().int().positive() }),
});

export const DEFAULT_SCALEWAY_URL =
  'https://api.scaleway.com/product-catalog/v2alpha1/public-catalog/products?product_types=instance&status=general_availability';

export const scalewaySource: PriceSource = {
  name: 'scaleway',
  sourceKind: 'PROVIDER_API',
  provider: 'scaleway',
  pricingModels: ['ON_DEMAND'],
  defaultUrl: DEFAULT_SCALEWAY_URL,
  async fetch({ url: first, now, http, env }): Promise<SourceResult> {
    const maxPages = Number(env.PRICE_SOURCE_MAX_PAGES ?? '500');
    const offers: SyncOfferRow[] = [];
    const skipped: Record<string, number> = {};
    let rowsRead = 0;
    let total = Infinity;
    let pages = 0;
    while (rowsRead < total) {
      if (pages >= maxPages) throw new SourceShapeError('scaleway', `page ${pages + 1}`, null, `more than ${maxPages} pages (PRICE_SOURCE_MAX_PAGES)`);
      const url = new URL(first);
      url.searchParams.set('page', String(pages + 1));
      const where = `page ${pages + 1} (${url.toString()})`;
      const page = pageSchema.safeParse(await http.json(url.toString()));
      if (!page.success) throw new SourceShapeError('scaleway', where, null, page.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      pages += 1;
      total = page.data.total_count;
      if (page.data.products.length === 0) {
        if (rowsRead < total)
          throw new SourceShapeError('scaleway', where, null, `no products on this page, but only ${rowsRead} of total_count ${total} read`);
        break;
      }
      page.data.products.forEach((raw, index) => {
        rowsRead += 1;
        const parsed = productSchema.safeParse(raw);
        const name = (raw as { product?: unknown } | null)?.product;
        const item = `products[${index}] (${typeof name === 'string' ? name : 'no product name'})`;
        if (!parsed.success)
          throw new SourceShapeError('scaleway', where, item, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        const p = parsed.data;
        const gpuCount = p.properties.hardware.gpu?.count ?? 0;
        if (gpuCount === 0) return countSkip(skipped, 'no GPU');
        const gpu = GPU_TYPES.find(([pattern]) => pattern.test(p.product))?.[1];
        if (!gpu) return countSkip(skipped, 'GPU without a catalog mapping');
        if (!Number.isInteger(gpuCount)) throw new SourceShapeError('scaleway', where, item, `gpu.count ${gpuCount} is not a whole number of GPUs`);
        const perHour = PER_HOUR[p.unit_of_measure.unit];
        if (perHour === undefined)
          throw new SourceShapeError('scaleway', where, item, `unit_of_measure.unit "${p.unit_of_measure.unit}" is not one the source knows (hour, minute)`);
        const { currency_code: currency, units, nanos } = p.price.retail_price;
        if (currency !== 'EUR' && currency !== 'USD') throw new SourceShapeError('scaleway', where, item, `currency_code "${currency}" is not EUR or USD`);
        const price = new Decimal(units).plus(new Decimal(nanos).div(1e9));
        const hourly = price.mul(perHour).div(p.unit_of_measure.size);
        const unit = `${p.unit_of_measure.size === 1 ? '' : `${p.unit_of_measure.size} `}${p.unit_of_measure.unit}`;
        offers.push({
          provider: 'scaleway',
          region: `scaleway:${p.locality.zone}`,
          gpu,
          gpuCount: String(gpuCount),
          instanceType: p.product,
          pricingModel: 'ON_DEMAND',
          pricePerHour: hourly.toString(),
          currency,
          priceKind: 'LIST',
          source: url.toString(),
          sourceTitle: `Scaleway product catalog (public-catalog/products), ${where}, item ${item}`,
          observedAt: isoDay(now),
          ...(perHour === 1 && p.unit_of_measure.size === 1
            ? {}
            : {
                conversion: `${price.toString()} ${currency} per ${unit} x ${perHour} / ${p.unit_of_measure.size} = ${hourly.toString()} ${currency} per hour`,
              }),
        });
      });
    }
    return { offers, rowsRead, pages, skipped };
  },
};
