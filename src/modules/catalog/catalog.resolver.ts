import { UseInterceptors } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { CatalogService } from './catalog.service.js';
import { GpuHistoryArgs, OfferHistoryArgs } from './dto/history.args.js';
import { GpuPriceHistoryModel, OfferPriceHistoryModel, PricePointModel, ProviderPriceSeriesModel } from './models/price-history.model.js';
import { PriceHistoryService } from './price-history.service.js';
import { VersionArgs } from '../../common/inputs/version-selector.input.js';
import { DiffArgs } from './dto/diff.args.js';
import { CatalogDiffModel } from './models/catalog-diff.model.js';
import { CatalogVersionModel } from './models/catalog-version.model.js';
import { ReferenceFigureListModel } from './models/reference-figure.model.js';
import { GpuModelModel, ProviderModel, RegionModel } from './models/reference.model.js';
import { FieldShare } from '../../common/graphql-limits.js';

@Resolver()
@UseInterceptors(FieldShare)
export class CatalogResolver {
  constructor(
    private readonly catalog: CatalogService,
    private readonly history: PriceHistoryService,
  ) {}

  @Query(() => [CatalogVersionModel], { description: 'Catalog versions, newest first' })
  async catalogVersions(): Promise<CatalogVersionModel[]> {
    return (await this.catalog.listVersions()).map(CatalogVersionModel.of);
  }

  @Query(() => CatalogDiffModel, { description: 'Offers added, removed and changed between two versions' })
  async catalogDiff(@Args() args: DiffArgs): Promise<CatalogDiffModel> {
    const { from, to, diff } = await this.catalog.diff(args.from, args.to);
    return CatalogDiffModel.of(from, to, diff);
  }

  @Query(() => OfferPriceHistoryModel, { description: 'Price of one offer in every published version' })
  async offerPriceHistory(@Args() args: OfferHistoryArgs): Promise<OfferPriceHistoryModel> {
    const { offerId } = args;
    const currency = args.currency ?? 'USD';
    const points = await this.history.offerHistory(offerId, currency);
    return { offerId, currency, points: points.map((p) => PricePointModel.of(p, currency)) };
  }

  @Query(() => GpuPriceHistoryModel, { description: 'Cheapest price per GPU-hour of a GPU model per provider, in every published version' })
  async gpuPriceHistory(@Args() args: GpuHistoryArgs): Promise<GpuPriceHistoryModel> {
    const { gpu } = args;
    const currency = args.currency ?? 'USD';
    const series = await this.history.gpuHistory(gpu, currency, args.pricingModels ?? null);
    return { gpu, currency, providers: series.map((s) => ProviderPriceSeriesModel.of(s, currency)) };
  }

  @Query(() => ReferenceFigureListModel, {
    description: 'Figures quoted by articles and analysts (never offers), each next to the matching list prices of the version, with the deviation',
  })
  async referenceFigures(@Args() args: VersionArgs): Promise<ReferenceFigureListModel> {
    const { version, comparisons } = await this.catalog.referenceFigures(args);
    return ReferenceFigureListModel.of(version, comparisons);
  }

  @Query(() => [ProviderModel])
  async providers(@Args() args: VersionArgs): Promise<ProviderModel[]> {
    return (await this.catalog.snapshot(args)).content.providers.map(ProviderModel.of);
  }

  @Query(() => [RegionModel])
  async regions(@Args() args: VersionArgs): Promise<RegionModel[]> {
    return (await this.catalog.snapshot(args)).content.regions.map(RegionModel.of);
  }

  @Query(() => [GpuModelModel])
  async gpus(@Args() args: VersionArgs): Promise<GpuModelModel[]> {
    return (await this.catalog.snapshot(args)).content.gpus.map(GpuModelModel.of);
  }
}
