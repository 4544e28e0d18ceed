// Google Cloud: the Cloud Billing Catalog API (cloudbilling.googleapis.com, Compute Engine service
// 6F81-5844-456A). It needs an API key (GCP_API_KEY); without it the source is skipped. Compute
// Engine prices a GPU machine by its parts: vCPU, memory and GPUs of the machine family, per region
// and usage type (OnDemand, Preemptible = Spot, Commit1Yr, Commit3Yr). The machine's hourly price
// is the sum of its parts (MACHINES below), which the row's `conversion` states with the SKUs.
// The API key is sent in the URL but never written: each row's `source` is the page URL without it.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { countSkip, isoDay, SourceShapeError, type PriceSource, type SourceContext, type SourceResult, type SyncOfferRow } from '../price-source.js';

type Part = 'core' | 'ram' | 'gpu';
type Family = 'a2' | 'g2';

/** The parts of each SKU description, per machine family (Google's SKU names, e.g. "A2 Instance Core running in Americas"). */
const PARTS: Record<Family, Record<Part, RegExp>> = {
  a2: { core: /\bA2 (Instance Core|Cpu)\b/, ram: /\bA2 (Instance Ram|Ram)\b/, gpu: /\bNvidia Tesla A100 GPU\b/ },
  g2: { core: /\bG2 (Instance Core|Cpu)\b/, ram: /\bG2 (Instance Ram|Ram)\b/, gpu: /\bNvidia L4 GPU\b/ },
};

/**
 * Machine types whose price is exactly vCPU + memory + GPUs (no bundled local SSD), from Google's
 * machine-type tables (cloud.google.com/compute/docs/gpus: A2 Standard, G2): vCPUs, memory in GiB, GPUs.
 */
export const GCP_MACHINES: Readonly<Record<string, { family: Family; vcpu: number; ramGib: number; gpus: number; gpu: string }>> = {
  'a2-highgpu-1g': { family: 'a2', vcpu: 12, ramGib: 85, gpus: 1, gpu: 'a100-sxm-40gb' },
  'a2-highgpu-2g': { family: 'a2', vcpu: 24, ramGib: 170, gpus: 2, gpu: 'a100-sxm-40gb' },
  'a2-highgpu-4g': { family: 'a2', vcpu: 48, ramGib: 340, gpus: 4, gpu: 'a100-sxm-40gb' },
  'a2-highgpu-8g': { family: 'a2', vcpu: 96, ramGib: 680, gpus: 8, gpu: 'a100-sxm-40gb' },
  'a2-megagpu-16g': { family: 'a2', vcpu: 96, ramGib: 1360, gpus: 16, gpu: 'a100-sxm-40gb' },
  'g2-standard-4': { family: 'g2', vcpu: 4, ramGib: 16, gpus: 1, gpu: 'l4-24gb' },
  'g2-standard-8': { family: 'g2', vcpu: 8, ramGib: 32, gpus: 1, gpu: 'l4-24gb' },
  'g2-standard-12': { family: 'g2', vcpu: 12, ramGib: 48, gpus: 1, gpu: 'l4-24gb' },
  'g2-standard-16': { family: 'g2', vcpu: 16, ramGib: 64, gpus: 1, gpu: 'l4-24gb' },
  'g2-standard-24': { family: 'g2', vcpu: 24, ramGib: 96, gpus: 2, gpu: 'l4-24gb' },
  'g2-standard-32': { family: 'g2', vcpu: 32, ramGib: 128, gpus: 1, gpu: 'l4-24gb' },
  'g2-standard-48': { family: 'g2', vcpu: 48, ramGib: 192, gpus: 4, gpu: 'l4-24gb' },
  'g2-standard-96': { family: 'g2', vcpu: 96, ramGib: 384, gpus: 8, gpu: 'l4-24gb' },
};

const MODELS: Record<string, SyncOfferRow['pricingModel']> = { OnDemand: 'ON_DEMAND', Preemptible: 'SPOT', Commit1Yr: 'RESERVED_1Y', Commit3Yr: 'RESERVED_3Y' };
const UNITS: Record<Part, string> = { core: 'h', ram: 'GiBy.h', gpu: 'h' };

const pageSchema = z.object({ skus: z.array(z.unknown()), nextPageToken: z.string().optional() });
const skuSchema = z.object({
  skuId: z.string(),
  description: z.string(),
  category: z.object({ serviceDisplayName: z.string(), resourceGroup: z.string(), usageType: z.string() }),
  serviceRegions: z.array(z.string()),
  pricingInfo: z
    .array(
      z.object({
        pricingExpression: z.object({
          usageUnit: z.string(),
          tieredRates: z
            .array(z.object({ startUsageAmount: z.number(), unitPrice: z.object({ currencyCode: z.string(), units: z.string(), nanos: z.number().int() }) }))
            .min(1),
        }),
      }),
    )
    .min(1),
});

export const DEFAULT_GCP_URL = 'https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus?pageSize=5000';

/** The URL without its API key: what a row may name as its source. */
export function withoutKey(url: string): string {
  const u = new URL(url);
  u.searchParams.delete('key');
  return u.toString();
}

export const gcpSource: PriceSource = {
  name: 'gcp',
  sourceKind: 'PROVIDER_API',
  provider: 'gcp',
  defaultUrl: DEFAULT_GCP_URL,
  requiredEnv: ['GCP_API_KEY'],
  async fetch({ url: first, now, http, env }): Promise<SourceResult> {
    const skipped: Record<string, number> = {};
    const { parts, rowsRead, pages } = await readPartPrices({ first, http, env, skipped });
    return { offers: machineOffers(parts, now, skipped), rowsRead, pages, skipped };
  },
};

/** family|usageType|region|part -> the part's price and where it was read. */
type PartPrices = Map<string, { price: Decimal; skuId: string; source: string }>;

/** Every page of the SKU list: the price of each part (vCPU, memory, GPU) of a GPU machine family, by usage type and region. */
async function readPartPrices({
  first,
  http,
  env,
  skipped,
}: {
  first: string;
  http: SourceContext['http'];
  env: NodeJS.ProcessEnv;
  skipped: Record<string, number>;
}): Promise<{ parts: PartPrices; rowsRead: number; pages: number }> {
  const maxPages = Number(env.PRICE_SOURCE_MAX_PAGES ?? '500');
  const parts: PartPrices = new Map();
  let rowsRead = 0;
  let pages = 0;
  let token: string | null = '';
  while (token !== null) {
    if (pages >= maxPages) throw new Error(`gcp: more than ${maxPages} pages (PRICE_SOURCE_MAX_PAGES)`);
    const u = new URL(first);
    u.searchParams.set('key', env.GCP_API_KEY ?? '');
    if (token) u.searchParams.set('pageToken', token);
    const source = withoutKey(u.toString());
    const where = `page ${pages + 1} (${source})`;
    const parsed = pageSchema.safeParse(await http.json(u.toString()));
    pages += 1;
    if (!parsed.success)
      throw new SourceShapeError('gcp', where, null, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
    parsed.data.skus.forEach((raw, index) => {
      rowsRead += 1;
      readSku({ raw, index, where, source, parts, skipped });
    });
    token = parsed.data.nextPageToken ? parsed.data.nextPageToken : null;
  }
  return { parts, rowsRead, pages };
}

/** One SKU: the part of a GPU machine it prices, into `parts`; anything else counted as skipped. */
function readSku({
  raw,
  index,
  where,
  source,
  parts,
  skipped,
}: {
  raw: unknown;
  index: number;
  where: string;
  source: string;
  parts: PartPrices;
  skipped: Record<string, number>;
}): void {
  const id = (raw as { skuId?: unknown } | null)?.skuId;
  const item = `#${index}${typeof id === 'string' ? ` (skuId ${id})` : ''}`;
  const r = skuSchema.safeParse(raw);
  if (!r.success) throw new SourceShapeError('gcp', where, item, r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const sku = r.data;
  const model = MODELS[sku.category.usageType];
  if (!model) return countSkip(skipped, `usage type ${sku.category.usageType}`);
  const match = (Object.keys(PARTS) as Family[]).flatMap((family) =>
    (Object.keys(PARTS[family]) as Part[]).filter((part) => PARTS[family][part].test(sku.description)).map((part) => ({ family, part })),
  )[0];
  if (!match) return countSkip(skipped, 'not a part of a GPU machine');
  const expression = sku.pricingInfo[0]?.pricingExpression;
  const rate = expression?.tieredRates.find((t) => t.startUsageAmount === 0);
  if (!expression || !rate) throw new SourceShapeError('gcp', where, item, 'no tiered rate starting at 0');
  if (expression.usageUnit !== UNITS[match.part]) {
    throw new SourceShapeError('gcp', where, item, `usageUnit "${expression.usageUnit}" is not a known unit for ${match.part} (expected ${UNITS[match.part]})`);
  }
  if (rate.unitPrice.currencyCode !== 'USD') throw new SourceShapeError('gcp', where, item, `currencyCode ${rate.unitPrice.currencyCode}: only USD is read`);
  const price = new Decimal(rate.unitPrice.units).plus(new Decimal(rate.unitPrice.nanos).div(1e9));
  for (const region of sku.serviceRegions) parts.set(`${match.family}|${model}|${region}|${match.part}`, { price, skuId: sku.skuId, source });
}

/** Each machine type of GCP_MACHINES priced as the sum of its parts, where every part is priced in that region and usage type. */
function machineOffers(parts: PartPrices, now: Date, skipped: Record<string, number>): SyncOfferRow[] {
  const offers: SyncOfferRow[] = [];
  const regions = new Set([...parts.keys()].map((k) => k.split('|').slice(0, 3).join('|')));
  for (const key of [...regions].sort()) {
    const [family, model, region] = key.split('|') as [Family, SyncOfferRow['pricingModel'], string];
    const core = parts.get(`${key}|core`);
    const ram = parts.get(`${key}|ram`);
    const gpuPart = parts.get(`${key}|gpu`);
    if (!core || !ram || !gpuPart) {
      countSkip(skipped, `${family} ${model} ${region}: not every part priced`);
      continue;
    }
    for (const [machine, m] of Object.entries(GCP_MACHINES)) {
      if (m.family !== family) continue;
      const total = core.price.mul(m.vcpu).plus(ram.price.mul(m.ramGib)).plus(gpuPart.price.mul(m.gpus));
      const reserved = model === 'RESERVED_1Y' ? '12' : model === 'RESERVED_3Y' ? '36' : undefined;
      offers.push({
        provider: 'gcp',
        region: `gcp:${region}`,
        gpu: m.gpu,
        gpuCount: String(m.gpus),
        instanceType: machine,
        pricingModel: model,
        pricePerHour: total.toString(),
        currency: 'USD',
        ...(reserved ? { termMonths: reserved } : {}),
        ...(model === 'SPOT' ? { interruptionNoticeSeconds: '30' } : {}),
        priceKind: 'LIST',
        source: gpuPart.source,
        sourceTitle: `Cloud Billing Catalog API, Compute Engine SKUs ${core.skuId} (vCPU), ${ram.skuId} (memory), ${gpuPart.skuId} (GPU)`,
        observedAt: isoDay(now),
        conversion: `sum of the machine's parts: ${m.vcpu} vCPU x ${core.price.toString()} + ${m.ramGib} GiB x ${ram.price.toString()} + ${m.gpus} GPU x ${gpuPart.price.toString()} USD/h`,
      });
    }
  }
  return offers;
}
