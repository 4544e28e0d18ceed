import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogService } from './catalog.service.js';
import { GpuParam, HistoryArgs, OfferIdParam } from './dto/history.args.js';
import { GpuPriceHistoryModel, OfferPriceHistoryModel, PricePointModel, ProviderPriceSeriesModel } from './models/price-history.model.js';
import { PriceHistoryService } from './price-history.service.js';
import { KeepAnswersAtOnce } from '../../common/http/keep-answers.js';
import { VersionArgs } from '../../common/inputs/version-selector.input.js';
import { NoParameters } from '../../common/inputs/no-parameters.input.js';
import { DiffArgs } from './dto/diff.args.js';
import { CatalogDiffModel } from './models/catalog-diff.model.js';
import { CatalogVersionListModel, CatalogVersionModel, CatalogVersionRefModel } from './models/catalog-version.model.js';
import { ReferenceFigureListModel } from './models/reference-figure.model.js';
import { GpuModelListModel, GpuModelModel, ProviderListModel, ProviderModel, RegionListModel, RegionModel } from './models/reference.model.js';

@ApiTags('catalog')
@Controller('v1')
export class CatalogController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly history: PriceHistoryService,
  ) {}

  @Get('catalog/versions')
  @ApiOperation({ summary: 'Catalog versions, newest first; `current` marks the one answering by default' })
  @ApiOkResponse({ type: CatalogVersionListModel })
  // The query is read only to be refused when it names anything.
  async versions(@Query() _none: NoParameters): Promise<CatalogVersionListModel> {
    return { items: (await this.catalog.listVersions()).map(CatalogVersionModel.of) };
  }

  @Get('catalog/diff')
  @ApiOperation({ summary: 'Offers added, removed and changed between two versions' })
  @ApiOkResponse({ type: CatalogDiffModel })
  async diff(@Query() args: DiffArgs): Promise<CatalogDiffModel> {
    const { from, to, diff } = await this.catalog.diff(args.from, args.to);
    return CatalogDiffModel.of(from, to, diff);
  }

  @Get('providers')
  @ApiOperation({ summary: 'Providers of a catalog version' })
  @ApiOkResponse({ type: ProviderListModel })
  async providers(@Query() args: VersionArgs): Promise<ProviderListModel> {
    const { version, content } = await this.catalog.snapshot(args);
    return { catalogVersion: CatalogVersionRefModel.of(version), items: content.providers.map(ProviderModel.of) };
  }

  @Get('regions')
  @ApiOperation({ summary: 'Regions of a catalog version, with the jurisdictions derived from their country' })
  @ApiOkResponse({ type: RegionListModel })
  async regions(@Query() args: VersionArgs): Promise<RegionListModel> {
    const { version, content } = await this.catalog.snapshot(args);
    return { catalogVersion: CatalogVersionRefModel.of(version), items: content.regions.map(RegionModel.of) };
  }

  @Get('reference-figures')
  @ApiOperation({
    summary: 'Figures quoted by articles and analysts (never offers), each next to the matching list prices of the version, with the deviation',
  })
  @ApiOkResponse({ type: ReferenceFigureListModel })
  async referenceFigures(@Query() args: VersionArgs): Promise<ReferenceFigureListModel> {
    const { version, comparisons } = await this.catalog.referenceFigures(args);
    return ReferenceFigureListModel.of(version, comparisons);
  }

  @Get('offers/:offerId/history')
  @KeepAnswersAtOnce()
  @ApiOperation({ summary: 'Price of one offer (by its id) in every published version' })
  @ApiOkResponse({ type: OfferPriceHistoryModel })
  async offerHistory(@Param() { offerId }: OfferIdParam, @Query() args: HistoryArgs): Promise<OfferPriceHistoryModel> {
    const currency = args.currency ?? 'USD';
    const points = await this.history.offerHistory(offerId, currency);
    return { offerId, currency, points: points.map((p) => PricePointModel.of(p, currency)) };
  }

  @Get('gpus/:gpu/price-history')
  @KeepAnswersAtOnce()
  @ApiOperation({ summary: 'Cheapest comparable price per GPU-hour of a GPU model, per provider, in every published version' })
  @ApiOkResponse({ type: GpuPriceHistoryModel })
  async gpuHistory(@Param() { gpu }: GpuParam, @Query() args: HistoryArgs): Promise<GpuPriceHistoryModel> {
    const currency = args.currency ?? 'USD';
    const series = await this.history.gpuHistory(gpu, currency, args.pricingModels ?? null);
    return { gpu, currency, providers: series.map((s) => ProviderPriceSeriesModel.of(s, currency)) };
  }

  @Get('gpus')
  @ApiOperation({ summary: 'GPU models of a catalog version' })
  @ApiOkResponse({ type: GpuModelListModel })
  async gpus(@Query() args: VersionArgs): Promise<GpuModelListModel> {
    const { version, content } = await this.catalog.snapshot(args);
    return { catalogVersion: CatalogVersionRefModel.of(version), items: content.gpus.map(GpuModelModel.of) };
  }
}
