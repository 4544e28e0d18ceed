import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { CatalogVersionInfo, ReferenceMetric } from '../../../domain/catalog/catalog.types.js';
import { figureValueText, type ComparisonStatus, type FigureComparison } from '../../../domain/catalog/reference-figures.js';
import { formatAmount, type Decimal } from '../../../domain/money/money.js';
import { ReferenceMetricEnum } from '../../../common/models/enums.js';
import { CatalogVersionRefModel } from './catalog-version.model.js';

const STATUSES: ComparisonStatus[] = ['COMPARED', 'NO_LIST_PRICE', 'NOT_COMPARABLE'];

@ObjectType('ReferenceListExample', { description: 'The list offer a figure was compared with' })
export class ReferenceListExampleModel {
  @ApiProperty({ description: 'Offer id' }) @Field() offerId: string;
  @ApiProperty({ example: 'aws' }) @Field() provider: string;
  @ApiProperty({ example: 'aws:us-east-1' }) @Field() region: string;
  @ApiProperty({ example: 'p5.48xlarge' }) @Field() instanceType: string;
  @ApiProperty({ example: '6.8800', description: "Price per GPU-hour in the figure's currency, or discount percent" }) @Field() value: string;
  @ApiProperty({ example: '2026-07-09' }) @Field() observedAt: string;
  @ApiProperty() @Field() source: string;
}

@ObjectType('ReferenceFigure', { description: 'A figure quoted by an article or analyst, never an offer, next to the list prices it speaks of' })
export class ReferenceFigureModel {
  @ApiProperty({ example: 'article-2026-03-aws-h100-on-demand' }) @Field() key: string;
  @ApiProperty({ example: 'AWS H100 on-demand (P5, after the June-2025 price cut)' }) @Field() claim: string;
  @ApiProperty({ enum: ReferenceMetricEnum, enumName: 'ReferenceMetric' }) @Field(() => ReferenceMetricEnum) metric: ReferenceMetric;
  @ApiProperty({ example: '3.90' }) @Field() value: string;
  @ApiProperty({ nullable: true, type: String, description: 'Upper end of a range figure' }) @Field(() => String, { nullable: true }) valueHigh: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'USD' }) @Field(() => String, { nullable: true }) currency: string | null;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) provider: string | null;
  @ApiProperty({ type: [String] }) @Field(() => [String]) gpus: string[];
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) pricingModel: string | null;
  @ApiProperty({ description: 'Where the figure was published' }) @Field() source: string;
  @ApiProperty({ example: '2026-03-27' }) @Field() publishedOn: string;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) note: string | null;
  @ApiProperty({ enum: STATUSES, description: 'COMPARED; NO_LIST_PRICE (nothing in this version to compare); NOT_COMPARABLE (no list price measures it)' })
  @Field()
  status: string;
  @ApiProperty({ description: 'LIST offers (or on-demand pairs, for discounts) compared' }) @Field(() => Int) matches: number;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) listLow: string | null;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) listMedian: string | null;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) listHigh: string | null;
  @ApiProperty({ type: ReferenceListExampleModel, nullable: true, description: 'The cheapest list offer (smallest discount) compared' })
  @Field(() => ReferenceListExampleModel, { nullable: true })
  cheapest: ReferenceListExampleModel | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '76.41',
    description: 'Prices and egress: (list − figure) / figure × 100, 0 inside a range. Discounts: median list discount minus the figure, percentage points',
  })
  @Field(() => String, { nullable: true })
  deviation: string | null;
  @ApiProperty({ example: 'AWS H100 on-demand: figure 3.90 USD/GPU-h; cheapest list p5.48xlarge aws:us-east-1 6.8800 USD/GPU-h (+76%)' })
  @Field()
  summary: string;

  static of(c: FigureComparison): ReferenceFigureModel {
    const f = c.figure;
    const d = (v: Decimal | null): string | null => (v === null ? null : formatAmount(v));
    return Object.assign(new ReferenceFigureModel(), {
      key: f.key,
      claim: f.claim,
      metric: f.metric,
      value: figureValueText(f, f.value),
      valueHigh: f.valueHigh ? figureValueText(f, f.valueHigh) : null,
      currency: f.currency,
      provider: f.provider,
      gpus: f.gpus,
      pricingModel: f.pricingModel,
      source: f.source,
      publishedOn: f.publishedOn,
      note: f.note,
      status: c.status,
      matches: c.matches,
      listLow: d(c.listLow),
      listMedian: d(c.listMedian),
      listHigh: d(c.listHigh),
      cheapest: c.cheapest
        ? Object.assign(new ReferenceListExampleModel(), {
            offerId: c.cheapest.offer.keyHash,
            provider: c.cheapest.offer.providerSlug,
            region: c.cheapest.offer.regionCode,
            instanceType: c.cheapest.offer.instanceType,
            value: formatAmount(c.cheapest.value),
            observedAt: c.cheapest.offer.observedAt,
            source: c.cheapest.offer.sourceUrl,
          })
        : null,
      deviation: c.deviation ? c.deviation.toDecimalPlaces(2).toFixed(2) : null,
      summary: c.summary,
    });
  }
}

@ObjectType('ReferenceFigureList')
export class ReferenceFigureListModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ type: [ReferenceFigureModel] }) @Field(() => [ReferenceFigureModel]) items: ReferenceFigureModel[];

  static of(version: CatalogVersionInfo, comparisons: FigureComparison[]): ReferenceFigureListModel {
    return Object.assign(new ReferenceFigureListModel(), {
      catalogVersion: CatalogVersionRefModel.of(version),
      items: comparisons.map(ReferenceFigureModel.of),
    });
  }
}
