// AWS spot (public, no key): spot prices per instance type and Availability Zone from the
// SkyPilot catalog's AWS CSV (`catalogs/v9/aws/vms.csv`, column SpotPrice, which SkyPilot reads
// from EC2's spot price history), reduced to the lowest price over a region's regular AZs (Local
// and Wavelength Zones left out), and the Spot Instance Advisor's interruption-frequency band for
// the type in that region (spot-advisor-data.json: `spot_advisor[region].Linux[type].r` is an
// index into `ranges`, whose `label` is `<5%`, `5-10%`, ...). GPU families p4d/p4de/p5/p5e/p5en and
// g4dn/g5/g6/g6e (aws-gpu-families.ts). The source writes SPOT offers only; AWS's on-demand and reserved offers come from the aws source (aws.ts).
import { parse as parseCsv } from 'csv-parse/sync';
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { INTERRUPTION_RATES, type InterruptionRate } from '../../../domain/catalog/catalog.types.js';
import { countSkip, isoDay, SourceShapeError, type PriceSource, type SourceResult, type SyncOfferRow } from '../price-source.js';
import { awsGpuOf } from './aws-gpu-families.js';

/** AWS gives spot instances two minutes of notice (EC2 spot instance interruption notices). */
const SPOT_NOTICE_SECONDS = '120';

/** A regular Availability Zone ID (use1-az2); Local Zones (use1-atl2-az1) and Wavelength Zones have another segment. */
const REGULAR_AZ = /^[a-z]+\d+-az\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;
const COLUMNS = ['InstanceType', 'AcceleratorCount', 'SpotPrice', 'Region', 'AvailabilityZone'] as const;

const advisorSchema = z.object({
  ranges: z.array(z.object({ index: z.number().int(), label: z.string() })),
  spot_advisor: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.object({ r: z.number().int() })))),
});

export const DEFAULT_AWS_SPOT_URL = 'https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v9/aws/vms.csv';
export const DEFAULT_AWS_SPOT_ADVISOR_URL = 'https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json';

/** Spot Instance Advisor bands by region and instance type (Linux). */
async function readAdvisor(url: string, json: (u: string) => Promise<unknown>): Promise<Map<string, InterruptionRate>> {
  const where = `advisor (${url})`;
  const parsed = advisorSchema.safeParse(await json(url));
  if (!parsed.success) throw new SourceShapeError('aws-spot', where, null, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const labels = new Map<number, InterruptionRate>();
  for (const range of parsed.data.ranges) {
    if (!(INTERRUPTION_RATES as readonly string[]).includes(range.label))
      throw new SourceShapeError('aws-spot', where, `ranges[${range.index}]`, `label "${range.label}" is not one of ${INTERRUPTION_RATES.join(', ')}`);
    labels.set(range.index, range.label as InterruptionRate);
  }
  const bands = new Map<string, InterruptionRate>();
  for (const [region, systems] of Object.entries(parsed.data.spot_advisor)) {
    for (const [type, entry] of Object.entries(systems.Linux ?? {})) {
      const label = labels.get(entry.r);
      if (label === undefined) throw new SourceShapeError('aws-spot', where, `${region} Linux ${type}`, `r ${entry.r} is not the index of a range`);
      bands.set(`${region}|${type}`, label);
    }
  }
  return bands;
}

export const awsSpotSource: PriceSource = {
  name: 'aws-spot',
  sourceKind: 'MIRROR',
  provider: 'aws',
  pricingModels: ['SPOT'],
  defaultUrl: DEFAULT_AWS_SPOT_URL,
  otherEndpoints: (env) => [env.PRICE_SOURCE_AWS_SPOT_ADVISOR_URL || DEFAULT_AWS_SPOT_ADVISOR_URL],
  async fetch({ url, now, http, env }): Promise<SourceResult> {
    const advisorUrl = env.PRICE_SOURCE_AWS_SPOT_ADVISOR_URL || DEFAULT_AWS_SPOT_ADVISOR_URL;
    const [text, bands] = await Promise.all([http.text(url), readAdvisor(advisorUrl, (u) => http.json(u))]);
    const where = `page 1 (${url})`;
    let records: Record<string, string>[];
    try {
      records = parseCsv<Record<string, string>>(text, { columns: true, skip_empty_lines: true });
    } catch (error) {
      throw new SourceShapeError('aws-spot', where, null, `not a CSV: ${(error as Error).message}`);
    }
    const missing = COLUMNS.filter((col) => !Object.keys(records[0] ?? {}).includes(col));
    if (records.length === 0 || missing.length)
      throw new SourceShapeError('aws-spot', where, null, records.length === 0 ? 'no rows' : `columns missing: ${missing.join(', ')}`);

    const skipped: Record<string, number> = {};
    // Lowest spot price over the regular AZs of a region, per instance type.
    const best = new Map<string, { type: string; region: string; gpu: string; count: number; price: Decimal; azs: string[]; line: number }>();
    records.forEach((r, index) => {
      const line = index + 2;
      const type = r.InstanceType ?? '';
      const gpu = awsGpuOf(type);
      if (!gpu) return countSkip(skipped, 'not a GPU family the source reads');
      const item = `line ${line} (${type} ${r.AvailabilityZone ?? ''})`;
      const count = Number(r.AcceleratorCount);
      if (!Number.isInteger(count) || count < 1)
        throw new SourceShapeError('aws-spot', where, item, `AcceleratorCount "${r.AcceleratorCount}" is not a whole number of GPUs`);
      if (!REGULAR_AZ.test(r.AvailabilityZone ?? '')) return countSkip(skipped, 'Local or Wavelength Zone');
      const spot = r.SpotPrice ?? '';
      if (spot === '') return countSkip(skipped, 'no spot price in that AZ');
      if (!DECIMAL.test(spot)) throw new SourceShapeError('aws-spot', where, item, `SpotPrice "${spot}" is not a decimal number`);
      const region = r.Region ?? '';
      if (!region) throw new SourceShapeError('aws-spot', where, item, 'Region is empty');
      const key = `${region}|${type}`;
      const price = new Decimal(spot);
      const seen = best.get(key);
      if (!seen) best.set(key, { type, region, gpu, count, price, azs: [`${r.AvailabilityZone ?? ''}=${spot}`], line });
      else {
        seen.azs.push(`${r.AvailabilityZone ?? ''}=${spot}`);
        if (price.lessThan(seen.price)) Object.assign(seen, { price, line });
      }
    });

    const offers: SyncOfferRow[] = [...best.values()].map((b) => {
      const band = bands.get(`${b.region}|${b.type}`);
      return {
        provider: 'aws',
        region: `aws:${b.region}`,
        gpu: b.gpu,
        gpuCount: String(b.count),
        instanceType: b.type,
        pricingModel: 'SPOT',
        pricePerHour: b.price.toString(),
        currency: 'USD',
        interruptionNoticeSeconds: SPOT_NOTICE_SECONDS,
        ...(band === undefined ? {} : { interruptionRate: band }),
        priceKind: 'LIST',
        source: url,
        sourceTitle:
          `SkyPilot catalog (community-maintained copy of EC2 spot prices), aws/vms.csv, lowest regular-AZ SpotPrice (line ${b.line}); ` +
          `per AZ: ${b.azs.join(', ')}` +
          (band === undefined ? '' : `; interruption band ${band} from the Spot Instance Advisor (${advisorUrl})`),
        observedAt: isoDay(now),
      };
    });
    return { offers, rowsRead: records.length, pages: 1, skipped };
  },
};
