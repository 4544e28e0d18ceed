// Price history for dashboards, across published versions: one offer's price, or the cheapest
// comparable price per GPU-hour of a GPU model per provider. Read from the stored rows and their
// version ranges, so no version's full content has to be loaded.
import { Injectable } from '@nestjs/common';
import type { CatalogVersionInfo, Currency, Offer, PricingModel } from '../../domain/catalog/catalog.types.js';
import { comparablePricePerGpuHour } from '../../domain/compliance/index.js';
import type { Decimal } from '../../domain/money/money.js';
import { unknownIdentifierMessage } from '../../domain/closest-names.js';
import { badInput, notFound } from '../../common/errors/app-error.js';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogService } from './catalog.service.js';

export interface PricePoint {
  version: CatalogVersionInfo;
  offer: Offer;
  /** Comparable (reserved upfront amortized), converted with that version's FX rates. */
  pricePerGpuHour: Decimal;
}

export interface ProviderSeries {
  provider: string;
  points: PricePoint[];
}

const inRange = (seq: number, row: { validFrom: number; validTo: number | null }): boolean =>
  seq >= row.validFrom && (row.validTo === null || seq < row.validTo);

@Injectable()
export class PriceHistoryService {
  constructor(
    private readonly repository: CatalogRepository,
    private readonly catalog: CatalogService,
  ) {}

  private async publishedVersions(): Promise<CatalogVersionInfo[]> {
    return (await this.repository.findVersions()).filter((v) => v.publishedAt !== null).sort((a, b) => a.seq - b.seq);
  }

  async offerHistory(offerId: string, currency: Currency): Promise<PricePoint[]> {
    const [rows, versions] = await Promise.all([this.repository.findOfferHistory(offerId), this.publishedVersions()]);
    if (rows.length === 0) throw notFound('CATALOG.OFFER_NOT_FOUND', `no offer ${offerId} in any catalog version`);
    return versions.flatMap((version) => {
      const row = rows.find((r) => inRange(version.seq, r));
      return row ? [{ version, offer: row.offer, pricePerGpuHour: comparablePricePerGpuHour({ offer: row.offer, currency, fxRates: version.fxRates }) }] : [];
    });
  }

  async gpuHistory(gpuSlug: string, currency: Currency, pricingModels: PricingModel[] | null): Promise<ProviderSeries[]> {
    const [rows, versions] = await Promise.all([this.repository.findGpuOfferRows(gpuSlug), this.publishedVersions()]);
    if (rows.length === 0) {
      // A GPU the current version does not know is a mistyped identifier (400 with suggestions, as
      // on every endpoint); a known one that was never offered has no history (404).
      const { index } = await this.catalog.indexedSnapshot();
      if (!index.gpuBySlug.has(gpuSlug.toLowerCase())) {
        throw badInput('REQUEST.INVALID', [{ field: 'gpu', message: unknownIdentifierMessage('GPU model', gpuSlug, index.gpuBySlug.keys()) }]);
      }
      throw notFound('CATALOG.GPU_NOT_FOUND', `no offers for GPU ${gpuSlug} in any catalog version`);
    }
    const wanted = rows.filter((r) => !pricingModels || pricingModels.includes(r.offer.pricingModel));
    const series = new Map<string, PricePoint[]>();
    for (const version of versions) {
      const cheapest = new Map<string, PricePoint>();
      for (const row of wanted) {
        if (!inRange(version.seq, row)) continue;
        const price = comparablePricePerGpuHour({ offer: row.offer, currency, fxRates: version.fxRates });
        const best = cheapest.get(row.offer.providerSlug);
        if (!best || price.lt(best.pricePerGpuHour)) cheapest.set(row.offer.providerSlug, { version, offer: row.offer, pricePerGpuHour: price });
      }
      for (const [provider, point] of cheapest) series.set(provider, [...(series.get(provider) ?? []), point]);
    }
    return [...series.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([provider, points]) => ({ provider, points }));
  }
}
