// Azure Retail Prices API (public, no key): https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices
// GPU virtual machine sizes (NC, ND, NV with whole GPUs), Linux: Consumption meters (on-demand, and
// Spot when the meter name ends in "Spot"), and Reservation 1 Year / 3 Years, whose price is the
// whole term's: divided by the term's hours (8,760 or 26,280) into an hourly price. Windows, Low
// Priority and DevTest meters are skipped. Pages are followed through NextPageLink.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { countSkip, isoDay, reservationTerm, SourceShapeError, type PriceSource, type SourceResult, type SyncOfferRow } from '../price-source.js';

/**
 * The GPU sizes and their GPUs, from Microsoft's size pages (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated):
 * NCasT4_v3, NC_A100_v4, NCads_H100_v5, ND_A100_v4, NDm_A100_v4, ND_H100_v5, ND_H200_v5, ND_MI300X_v5, NVadsA10_v5.
 */
export const AZURE_GPU_SIZES: Readonly<Record<string, { gpu: string; gpuCount: number }>> = {
  Standard_NC4as_T4_v3: { gpu: 't4-16gb', gpuCount: 1 },
  Standard_NC8as_T4_v3: { gpu: 't4-16gb', gpuCount: 1 },
  Standard_NC16as_T4_v3: { gpu: 't4-16gb', gpuCount: 1 },
  Standard_NC64as_T4_v3: { gpu: 't4-16gb', gpuCount: 4 },
  Standard_NC24ads_A100_v4: { gpu: 'a100-pcie-80gb', gpuCount: 1 },
  Standard_NC48ads_A100_v4: { gpu: 'a100-pcie-80gb', gpuCount: 2 },
  Standard_NC96ads_A100_v4: { gpu: 'a100-pcie-80gb', gpuCount: 4 },
  Standard_NC40ads_H100_v5: { gpu: 'h100-nvl-94gb', gpuCount: 1 },
  Standard_NC80adis_H100_v5: { gpu: 'h100-nvl-94gb', gpuCount: 2 },
  Standard_ND96asr_v4: { gpu: 'a100-sxm-40gb', gpuCount: 8 },
  Standard_ND96amsr_A100_v4: { gpu: 'a100-sxm-80gb', gpuCount: 8 },
  Standard_ND96isr_H100_v5: { gpu: 'h100-sxm-80gb', gpuCount: 8 },
  Standard_ND96isr_H200_v5: { gpu: 'h200-141gb', gpuCount: 8 },
  Standard_ND96isr_MI300X_v5: { gpu: 'mi300x-192gb', gpuCount: 8 },
  Standard_NV36ads_A10_v5: { gpu: 'a10-24gb', gpuCount: 1 },
  Standard_NV72ads_A10_v5: { gpu: 'a10-24gb', gpuCount: 2 },
};

/** Sizes with a fraction of a GPU (NVadsA10_v5: 1/6, 1/3, 1/2): not an offer of whole GPUs. */
const FRACTIONAL = new Set(['Standard_NV6ads_A10_v5', 'Standard_NV12ads_A10_v5', 'Standard_NV18ads_A10_v5']);

const TERMS: Readonly<Record<string, ReturnType<typeof reservationTerm>>> = {
  '1 Year': reservationTerm('RESERVED_1Y'),
  '3 Years': reservationTerm('RESERVED_3Y'),
};

/** Azure spot VMs get 30 s of notice (Azure docs, "scheduled events", Preempt; data/catalog/SOURCES.md). */
const SPOT_NOTICE_SECONDS = '30';

const pageSchema = z.object({
  Items: z.array(z.unknown()),
  NextPageLink: z.string().nullable().optional(),
});

const itemSchema = z.object({
  currencyCode: z.string(),
  retailPrice: z.number().finite().nonnegative(),
  armRegionName: z.string(),
  armSkuName: z.string(),
  meterId: z.string().optional(),
  meterName: z.string(),
  productName: z.string(),
  skuName: z.string().optional(),
  unitOfMeasure: z.string(),
  type: z.string(),
  reservationTerm: z.string().optional(),
});

export const DEFAULT_AZURE_URL =
  'https://prices.azure.com/api/retail/prices?api-version=2023-01-01-preview&$filter=' +
  encodeURIComponent(
    "serviceName eq 'Virtual Machines' and (startswith(armSkuName,'Standard_NC') or startswith(armSkuName,'Standard_ND') or startswith(armSkuName,'Standard_NV'))",
  );

export const azureSource: PriceSource = {
  name: 'azure',
  sourceKind: 'PROVIDER_API',
  provider: 'azure',
  defaultUrl: DEFAULT_AZURE_URL,
  async fetch({ url: first, now, http, env }): Promise<SourceResult> {
    const maxPages = Number(env.PRICE_SOURCE_MAX_PAGES ?? '500');
    const observedAt = isoDay(now);
    const offers: SyncOfferRow[] = [];
    const skipped: Record<string, number> = {};
    const seen = new Set<string>();
    let rowsRead = 0;
    let pages = 0;
    let url: string | null = first;
    while (url !== null) {
      if (pages >= maxPages) throw new Error(`azure: more than ${maxPages} pages (PRICE_SOURCE_MAX_PAGES); stopped at ${url}`);
      const pageUrl: string = url;
      const where = `page ${pages + 1} (${pageUrl})`;
      const parsed = pageSchema.safeParse(await http.json(pageUrl));
      pages += 1;
      if (!parsed.success) throw new SourceShapeError('azure', where, null, describe(parsed.error));
      parsed.data.Items.forEach((raw, index) => {
        rowsRead += 1;
        const id = (raw as { meterId?: unknown } | null)?.meterId;
        const itemName = `#${index}${typeof id === 'string' ? ` (meterId ${id})` : ''}`;
        const r = itemSchema.safeParse(raw);
        if (!r.success) throw new SourceShapeError('azure', where, itemName, describe(r.error));
        const item = r.data;
        if (item.type === 'DevTestConsumption') return countSkip(skipped, 'DevTest meter');
        if (/\bWindows\b/i.test(item.productName)) return countSkip(skipped, 'Windows');
        if (/Low Priority/i.test(`${item.meterName} ${item.skuName ?? ''}`)) return countSkip(skipped, 'Low Priority');
        if (FRACTIONAL.has(item.armSkuName)) return countSkip(skipped, 'a fraction of a GPU');
        const size = AZURE_GPU_SIZES[item.armSkuName];
        if (!size) return countSkip(skipped, /^Standard_N[CDV]/.test(item.armSkuName) ? 'GPU size without a GPU mapping' : 'not a GPU size');
        if (item.currencyCode !== 'USD') throw new SourceShapeError('azure', where, itemName, `currencyCode ${item.currencyCode}: only USD is read`);
        if (item.unitOfMeasure !== '1 Hour') throw new SourceShapeError('azure', where, itemName, `unitOfMeasure "${item.unitOfMeasure}" is not a known unit`);
        if (item.retailPrice === 0) return countSkip(skipped, 'price 0');
        const price = new Decimal(String(item.retailPrice));
        const base = {
          provider: 'azure',
          region: `azure:${item.armRegionName}`,
          gpu: size.gpu,
          gpuCount: String(size.gpuCount),
          instanceType: item.armSkuName,
          currency: 'USD' as const,
          priceKind: 'LIST' as const,
          source: pageUrl,
          observedAt,
        };
        const title = `Azure Retail Prices API${item.meterId ? ` meter ${item.meterId}` : ''}: ${item.productName}, meter "${item.meterName}", type ${item.type}`;
        let row: SyncOfferRow;
        if (item.type === 'Consumption') {
          const spot = /\bSpot$/i.test(item.meterName.trim());
          row = spot
            ? { ...base, pricingModel: 'SPOT', pricePerHour: price.toString(), interruptionNoticeSeconds: SPOT_NOTICE_SECONDS, sourceTitle: title }
            : { ...base, pricingModel: 'ON_DEMAND', pricePerHour: price.toString(), sourceTitle: title };
        } else if (item.type === 'Reservation') {
          const term = item.reservationTerm === undefined ? undefined : TERMS[item.reservationTerm];
          if (!term) throw new SourceShapeError('azure', where, itemName, `reservationTerm "${item.reservationTerm ?? '(missing)'}" is not 1 Year or 3 Years`);
          const hourly = price.div(term.hours).toDecimalPlaces(10);
          row = {
            ...base,
            pricingModel: term.model,
            pricePerHour: hourly.toString(),
            termMonths: String(term.months),
            sourceTitle: `${title}, reservationTerm ${item.reservationTerm}`,
            conversion: `the Reservation price is for the whole term: ${price.toString()} USD / ${term.hours} h (${item.reservationTerm}) = ${hourly.toString()} USD/h, rounded to 10 decimals`,
          };
        } else {
          return countSkip(skipped, `type ${item.type}`);
        }
        const key = `${row.region}|${row.instanceType}|${row.pricingModel}`;
        if (seen.has(key)) return countSkip(skipped, 'a second meter for the same offer');
        seen.add(key);
        offers.push(row);
      });
      url = parsed.data.NextPageLink ? parsed.data.NextPageLink : null;
    }
    return { offers, rowsRead, pages, skipped };
  },
};

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}
