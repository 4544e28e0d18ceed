// AWS Price List bulk files (public, no key; AWS's "Getting price list files manually" and bulk API
// documentation): the EC2 region index (`regions[code].currentVersionUrl`), then the offer file of
// each region the catalog has, read as a stream (a region's file is hundreds of MB) and kept to the
// GPU families of aws-gpu-families.ts: Linux, shared tenancy, no pre-installed software, used
// capacity, no license to bring, on-demand market. From those products' terms: on-demand
// (`JRTCKXETXF`) and Standard Reserved Instances of 1 and 3 years, No Upfront and All Upfront. An
// All Upfront fee is for the whole term: divided by the term's hours (8,760 or 26,280) into an
// hourly price, like azure.ts does with reservation prices. Convertible and Partial Upfront
// reservations are skipped. The source replaces AWS's ON_DEMAND and RESERVED_* offers; its SPOT
// offers come from aws-spot.ts.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { Decimal } from 'decimal.js';
import { parser } from 'stream-json';
import Assembler from 'stream-json/assembler.js';
import { z } from 'zod';
import { countSkip, isoDay, reservationTerm, SourceShapeError, type PriceSource, type SourceResult, type SyncOfferRow } from '../price-source.js';
import { awsGpuOf } from './aws-gpu-families.js';

export const DEFAULT_AWS_URL = 'https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/region_index.json';

/** The offer-term code of every EC2 on-demand price (AWS's offer file documentation). */
const ON_DEMAND_TERM = 'JRTCKXETXF';

const TERMS: Readonly<Record<string, ReturnType<typeof reservationTerm>>> = {
  '1yr': reservationTerm('RESERVED_1Y'),
  '3yr': reservationTerm('RESERVED_3Y'),
};

/** How the catalog names an All Upfront reservation, beside the No Upfront one of the same type (data/catalog/SOURCES.md, W2). */
export const ALL_UPFRONT_SUFFIX = ' (All Upfront)';

const DECIMAL = /^\d+(\.\d+)?$/;

const regionIndexSchema = z.object({
  regions: z.record(z.string(), z.object({ regionCode: z.string().min(1), currentVersionUrl: z.string().min(1) })),
});

const productSchema = z.object({
  sku: z.string().min(1),
  productFamily: z.string().optional(),
  attributes: z.record(z.string(), z.string()),
});

const dimensionSchema = z.object({
  rateCode: z.string().optional(),
  description: z.string().optional(),
  unit: z.string(),
  pricePerUnit: z.record(z.string(), z.string()),
});

const termSchema = z.object({
  offerTermCode: z.string().min(1),
  sku: z.string().min(1),
  priceDimensions: z.record(z.string(), dimensionSchema),
  termAttributes: z.record(z.string(), z.string()).optional(),
});

/** Where a term was read: the offer file and the SKU (named by every shape error). */
export interface TermPlace {
  file: string;
  sku: string;
}

/** A term turned into an hourly price, or the reason it is left out. */
export type TermOutcome =
  | {
      pricingModel: SyncOfferRow['pricingModel'];
      pricePerHour: string;
      offerTermCode: string;
      termMonths?: string;
      upfront?: string;
      conversion?: string;
      /** Reservations: No Upfront or All Upfront. */
      purchaseOption?: string;
      /** The hourly dimension's description, as AWS writes it. */
      description: string;
    }
  | { skip: string };

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

function parseTerm(raw: unknown, place: TermPlace, code: string): z.infer<typeof termSchema> {
  const term = termSchema.safeParse(raw);
  if (!term.success) throw new SourceShapeError('aws', `offer file ${place.file}`, `SKU ${place.sku} term ${code}`, describe(term.error));
  return term.data;
}

/** A term's dimensions by unit: one `Hrs` (the hourly price) and at most one `Quantity` (an upfront fee), in USD. */
function dimensions(term: z.infer<typeof termSchema>, place: TermPlace): { hourly: Decimal; description: string; fee: Decimal | null } {
  const fail = (detail: string) => new SourceShapeError('aws', `offer file ${place.file}`, `SKU ${place.sku} term ${term.offerTermCode}`, detail);
  let hourly: { price: Decimal; description: string } | null = null;
  let fee: Decimal | null = null;
  for (const [rateCode, dim] of Object.entries(term.priceDimensions)) {
    const usd = dim.pricePerUnit.USD;
    if (usd === undefined) throw fail(`price dimension ${rateCode} has no USD price`);
    if (!DECIMAL.test(usd)) throw fail(`price dimension ${rateCode}: USD "${usd}" is not a decimal number`);
    if (dim.unit === 'Hrs') {
      if (hourly !== null) throw fail(`more than one hourly (Hrs) price dimension`);
      hourly = { price: new Decimal(usd), description: dim.description ?? '' };
    } else if (dim.unit === 'Quantity') {
      if (fee !== null) throw fail(`more than one upfront (Quantity) price dimension`);
      fee = new Decimal(usd);
    } else {
      throw fail(`price dimension ${rateCode}: unit "${dim.unit}" is not a known unit (Hrs, Quantity)`);
    }
  }
  if (hourly === null) throw fail('no hourly (Hrs) price dimension');
  return { hourly: hourly.price, description: hourly.description, fee };
}

/** An on-demand term (`<sku>.JRTCKXETXF`): its hourly price. */
export function onDemandPrice(raw: unknown, place: TermPlace, code: string): TermOutcome {
  const term = parseTerm(raw, place, code);
  if (term.offerTermCode !== ON_DEMAND_TERM) return { skip: `on-demand term other than ${ON_DEMAND_TERM}` };
  const { hourly, description, fee } = dimensions(term, place);
  if (fee !== null) throw new SourceShapeError('aws', `offer file ${place.file}`, `SKU ${place.sku} term ${code}`, 'an on-demand term with an upfront fee');
  if (hourly.isZero()) return { skip: 'on-demand price 0' };
  return { pricingModel: 'ON_DEMAND', pricePerHour: hourly.toString(), offerTermCode: term.offerTermCode, description };
}

/**
 * A reserved term: Standard, 1 or 3 years, No Upfront (the hourly price, nothing upfront) or All
 * Upfront (the fee for the whole term spread over its hours, plus the hourly price, which AWS
 * writes as 0). Convertible and Partial Upfront reservations are skipped.
 */
export function reservedPrice(raw: unknown, place: TermPlace, code: string): TermOutcome {
  const term = parseTerm(raw, place, code);
  const fail = (detail: string) => new SourceShapeError('aws', `offer file ${place.file}`, `SKU ${place.sku} term ${term.offerTermCode}`, detail);
  const attrs = term.termAttributes ?? {};
  const { LeaseContractLength: lease, OfferingClass: offeringClass, PurchaseOption: option } = attrs;
  if (offeringClass === 'convertible') return { skip: 'convertible reservation' };
  if (offeringClass !== 'standard') throw fail(`OfferingClass "${offeringClass ?? '(missing)'}" is not standard or convertible`);
  const length = lease === undefined ? undefined : TERMS[lease];
  if (!length) throw fail(`LeaseContractLength "${lease ?? '(missing)'}" is not 1yr or 3yr`);
  if (option === 'Partial Upfront') return { skip: 'Partial Upfront reservation' };
  if (option !== 'No Upfront' && option !== 'All Upfront')
    throw fail(`PurchaseOption "${option ?? '(missing)'}" is not No Upfront, Partial Upfront or All Upfront`);
  const { hourly, description, fee } = dimensions(term, place);
  const base = { pricingModel: length.model, offerTermCode: term.offerTermCode, termMonths: String(length.months), purchaseOption: option, description };
  if (option === 'No Upfront') {
    if (fee !== null && !fee.isZero()) throw fail(`No Upfront with an upfront fee of ${fee.toString()} USD`);
    return { ...base, pricePerHour: hourly.toString(), upfront: '0' };
  }
  if (fee === null) throw fail('All Upfront without an upfront (Quantity) fee');
  const perHour = fee.div(length.hours).plus(hourly).toDecimalPlaces(10);
  return {
    ...base,
    pricePerHour: perHour.toString(),
    conversion:
      `All Upfront: the upfront fee is for the whole term: ${fee.toString()} USD / ${length.hours} h (${lease}) + ${hourly.toString()} USD/h ` +
      `= ${perHour.toString()} USD/h, rounded to 10 decimals`,
  };
}

/** A product the source keeps: the instance type and its GPUs. */
interface Kept {
  instanceType: string;
  gpu: string;
  gpuCount: number;
}

/**
 * Which products are GPU instances: the catalog GPU and count of a product's attributes, or the
 * reason it is not one. The default reads aws-gpu-families.ts and the `gpu` attribute.
 */
export type GpuOf = (attributes: Readonly<Record<string, string>>) => { gpu: string; gpuCount: number } | { skip: string } | { bad: string };

const defaultGpuOf: GpuOf = (a) => {
  const gpu = awsGpuOf(a.instanceType ?? '');
  if (!gpu) return { skip: 'not a GPU family the source reads' };
  const count = Number(a.gpu);
  if (!Number.isInteger(count) || count < 1) return { bad: `attribute gpu "${a.gpu ?? '(missing)'}" is not a whole number of GPUs` };
  return { gpu, gpuCount: count };
};

/** The product attributes of the offers the source reads, each with the skip reason of another value. */
const FILTERS: readonly { attribute: string; accept: (v: string | undefined) => boolean }[] = [
  { attribute: 'operatingSystem', accept: (v) => v === 'Linux' },
  { attribute: 'preInstalledSw', accept: (v) => v === 'NA' },
  { attribute: 'tenancy', accept: (v) => v === 'Shared' },
  { attribute: 'capacitystatus', accept: (v) => v === 'Used' },
  { attribute: 'licenseModel', accept: (v) => v === 'No License required' },
  // Capacity Blocks carry marketoption CapacityBlock (and a price of 0 per hour); older files have no marketoption.
  { attribute: 'marketoption', accept: (v) => v === undefined || v === 'OnDemand' },
];

export interface OfferFileResult {
  offers: SyncOfferRow[];
  /** Products read (every product of the file, GPU or not). */
  products: number;
  skipped: Record<string, number>;
}

type Token = { name: string; value?: unknown };

/**
 * One region's offer file, from a stream: products (kept or counted as skipped) and then the terms
 * of the products kept. Only one product or one product's terms is held at a time; the rest of the
 * file passes by. AWS writes `products` before `terms`; a file that does not is refused.
 */
export async function readOfferFile(body: Readable, file: string, region: string, observedAt: string, gpuOf: GpuOf = defaultGpuOf): Promise<OfferFileResult> {
  const reader = new OfferFileReader(file, region, observedAt, gpuOf);
  await reader.read(body);
  return reader.result();
}

/** One offer file being read: the GPU products kept so far, the rows made from their terms, the file's header. */
class OfferFileReader {
  private readonly skipped: Record<string, number> = {};
  private readonly kept = new Map<string, Kept>();
  private readonly header: Record<string, string> = {};
  private readonly rows: { row: SyncOfferRow; detail: string }[] = [];
  private readonly seen = new Set<string>();
  private readonly withOnDemand = new Set<string>();
  private products = 0;
  private productsSeen = false;
  private readonly where: string;

  constructor(
    private readonly file: string,
    private readonly region: string,
    private readonly observedAt: string,
    private readonly gpuOf: GpuOf,
  ) {
    this.where = `offer file ${file}`;
  }

  private product(raw: unknown, key: string): void {
    this.products += 1;
    const parsed = productSchema.safeParse(raw);
    if (!parsed.success) throw new SourceShapeError('aws', this.where, `product ${key}`, describe(parsed.error));
    const { sku, productFamily, attributes: a } = parsed.data;
    if (productFamily !== 'Compute Instance') return countSkip(this.skipped, 'not a Compute Instance');
    if (!a.instanceType) return countSkip(this.skipped, 'no instanceType (the free-tier pseudo-product)');
    if ((a.regionCode ?? this.region) !== this.region) return countSkip(this.skipped, `regionCode other than ${this.region}`);
    for (const { attribute, accept } of FILTERS) {
      if (!accept(a[attribute])) return countSkip(this.skipped, `${attribute} ${a[attribute] ?? '(missing)'}`);
    }
    const gpu = this.gpuOf(a);
    if ('skip' in gpu) return countSkip(this.skipped, gpu.skip);
    if ('bad' in gpu) throw new SourceShapeError('aws', this.where, `product ${sku} (${a.instanceType})`, gpu.bad);
    this.kept.set(sku, { instanceType: a.instanceType, gpu: gpu.gpu, gpuCount: gpu.gpuCount });
  }

  private add(sku: string, outcome: TermOutcome): void {
    if ('skip' in outcome) return countSkip(this.skipped, outcome.skip);
    const k = this.kept.get(sku);
    if (!k) return;
    const instanceType = outcome.purchaseOption === 'All Upfront' ? `${k.instanceType}${ALL_UPFRONT_SUFFIX}` : k.instanceType;
    const key = `${instanceType}|${outcome.pricingModel}`;
    if (this.seen.has(key)) return countSkip(this.skipped, 'a second product for the same offer');
    this.seen.add(key);
    const row: SyncOfferRow = {
      provider: 'aws',
      region: `aws:${this.region}`,
      gpu: k.gpu,
      gpuCount: String(k.gpuCount),
      instanceType,
      pricingModel: outcome.pricingModel,
      pricePerHour: outcome.pricePerHour,
      currency: 'USD',
      ...(outcome.termMonths === undefined ? {} : { termMonths: outcome.termMonths }),
      ...(outcome.upfront === undefined ? {} : { upfront: outcome.upfront }),
      priceKind: 'LIST',
      source: this.file,
      observedAt: this.observedAt,
      ...(outcome.conversion === undefined ? {} : { conversion: outcome.conversion }),
    };
    const term =
      outcome.pricingModel === 'ON_DEMAND'
        ? `on-demand term ${outcome.offerTermCode}`
        : `Standard Reserved Instance term ${outcome.offerTermCode} (${outcome.termMonths === '12' ? '1yr' : '3yr'}, ${outcome.purchaseOption})`;
    this.rows.push({ row, detail: `SKU ${sku}, ${term}, "${outcome.description}"` });
  }

  private terms(type: string, sku: string, raw: unknown): void {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new SourceShapeError('aws', this.where, `terms.${type} ${sku}`, 'not an object of terms');
    for (const [code, term] of Object.entries(raw as Record<string, unknown>)) {
      const place = { file: this.file, sku };
      if (type === 'OnDemand') {
        this.withOnDemand.add(sku);
        this.add(sku, onDemandPrice(term, place, code));
      } else this.add(sku, reservedPrice(term, place, code));
    }
  }

  /** What to do with the value at a path below the root: hold it whole, pass it by, or go into it. */
  private plan(path: readonly string[]): 'hold' | 'pass' | 'enter' {
    const [top, second] = path;
    if (path.length === 1 && top === 'products') {
      this.productsSeen = true;
      return 'enter';
    }
    if (path.length === 2 && top === 'products') return 'hold';
    if (path.length === 1 && top === 'terms') return 'enter';
    if (path.length === 2 && top === 'terms' && (second === 'OnDemand' || second === 'Reserved')) {
      if (!this.productsSeen) throw new SourceShapeError('aws', this.where, null, '"terms" comes before "products"; the source reads the products first');
      return 'enter';
    }
    if (path.length === 3 && top === 'terms' && this.kept.has(path[2] ?? '')) return 'hold';
    return 'pass';
  }

  /** Streams the body's JSON tokens: products and terms are assembled whole, one at a time; everything else is passed by. */
  async read(body: Readable): Promise<void> {
    const tokens = parser.asStream({ packValues: true, streamValues: false });
    // Which failed first: the body (cut off, stalled: the HTTP client retries) or the parser (not JSON).
    let failedFirst: 'body' | 'parser' | null = null;
    body.once('error', () => (failedFirst ??= 'body'));
    tokens.once('error', () => (failedFirst ??= 'parser'));
    pipeline(body, tokens, () => undefined);
    const stack: string[] = [];
    let depth = 0;
    let key: string | null = null;
    let held: { asm: Assembler; path: string[] } | null = null;
    let passing = 0;
    try {
      for await (const token of tokens as AsyncIterable<Token>) {
        if (held) {
          held.asm.consume(token as never);
          if (held.asm.done) {
            const { path, asm } = held;
            held = null;
            if (path[0] === 'products') this.product(asm.current, path[1] ?? '');
            else this.terms(path[1] ?? '', path[2] ?? '', asm.current);
          }
          continue;
        }
        if (passing > 0) {
          if (token.name === 'startObject' || token.name === 'startArray') passing += 1;
          else if (token.name === 'endObject' || token.name === 'endArray') passing -= 1;
          continue;
        }
        switch (token.name) {
          case 'keyValue':
            key = String(token.value);
            break;
          case 'startObject':
          case 'startArray': {
            if (depth === 0) {
              if (token.name === 'startArray') throw new SourceShapeError('aws', this.where, null, 'the file is an array, not an offer file object');
              depth = 1;
              break;
            }
            const path = [...stack, key ?? ''];
            const what = this.plan(path);
            if (what === 'hold') {
              const asm = new Assembler({ numberAsString: true });
              asm.consume(token as never);
              held = { asm, path };
            } else if (what === 'pass') passing = 1;
            else {
              stack.push(key ?? '');
              depth += 1;
            }
            key = null;
            break;
          }
          case 'endObject':
          case 'endArray':
            if (depth > 1) stack.pop();
            depth -= 1;
            break;
          default:
            if (depth === 0) throw new SourceShapeError('aws', this.where, null, 'not an offer file object');
            if (depth === 1 && key !== null) this.header[key] = String(token.value);
            key = null;
        }
      }
    } catch (error) {
      if (error instanceof SourceShapeError || failedFirst !== 'parser') throw error;
      throw new SourceShapeError('aws', this.where, null, `not JSON: ${(error as Error).message}`);
    }
  }

  /** The rows, once the file's header and products are checked. */
  result(): OfferFileResult {
    if (this.header.offerCode !== undefined && this.header.offerCode !== 'AmazonEC2')
      throw new SourceShapeError('aws', this.where, null, `offerCode "${this.header.offerCode}" is not AmazonEC2`);
    if (!this.productsSeen) throw new SourceShapeError('aws', this.where, null, 'no "products" object');
    for (const sku of this.kept.keys()) if (!this.withOnDemand.has(sku)) countSkip(this.skipped, 'a GPU product without an on-demand term');
    const edition = `AWS Price List, AmazonEC2 offer file for ${this.region}, version ${this.header.version ?? '(none)'} (published ${this.header.publicationDate ?? '(no date)'})`;
    const offers = this.rows.map(({ row, detail }) => ({ ...row, sourceTitle: `${edition}: ${detail}` }));
    return { offers, products: this.products, skipped: this.skipped };
  }
}

export const awsSource: PriceSource = {
  name: 'aws',
  sourceKind: 'PROVIDER_API',
  provider: 'aws',
  pricingModels: ['ON_DEMAND', 'RESERVED_1Y', 'RESERVED_3Y'],
  defaultUrl: DEFAULT_AWS_URL,
  async fetch({ url, now, http, env, regions }): Promise<SourceResult> {
    if (regions === undefined) throw new Error('aws: reads only the regions the catalog has, and was given none (catalog:sync passes them)');
    const maxPages = Number(env.PRICE_SOURCE_MAX_PAGES ?? '500');
    const observedAt = isoDay(now);
    const where = `region index (${url})`;
    const index = regionIndexSchema.safeParse(await http.json(url));
    if (!index.success) throw new SourceShapeError('aws', where, null, describe(index.error));
    const known = new Set(regions);
    const skipped: Record<string, number> = {};
    const files: { region: string; file: string }[] = [];
    for (const [code, entry] of Object.entries(index.data.regions)) {
      if (entry.regionCode !== code) throw new SourceShapeError('aws', where, `regions.${code}`, `regionCode "${entry.regionCode}" is not its key`);
      if (!known.has(`aws:${code}`)) {
        countSkip(skipped, 'region not in the catalog (its offer file is not read)');
        continue;
      }
      let file: string;
      try {
        file = new URL(entry.currentVersionUrl, url).toString();
      } catch {
        throw new SourceShapeError('aws', where, `regions.${code}`, `currentVersionUrl "${entry.currentVersionUrl}" is not a URL`);
      }
      files.push({ region: code, file });
    }
    if (files.length + 1 > maxPages)
      throw new Error(`aws: the region index and ${files.length} offer files are more than ${maxPages} pages (PRICE_SOURCE_MAX_PAGES)`);
    const offers: SyncOfferRow[] = [];
    let rowsRead = 0;
    // One file at a time: each is large, and AWS serves them from one host.
    for (const { region, file } of files) {
      const result = await http.stream(file, (body) => readOfferFile(body, file, region, observedAt));
      rowsRead += result.products;
      offers.push(...result.offers);
      for (const [reason, n] of Object.entries(result.skipped)) skipped[reason] = (skipped[reason] ?? 0) + n;
    }
    return { offers, rowsRead, pages: files.length + 1, skipped };
  },
};
