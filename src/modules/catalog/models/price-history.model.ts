import { Field, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Currency } from '../../../domain/catalog/catalog.types.js';
import { CurrencyEnum } from '../../../common/models/enums.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import type { PricePoint, ProviderSeries } from '../price-history.service.js';
import { CatalogVersionRefModel } from './catalog-version.model.js';
import { OfferKeyModel } from './catalog-diff.model.js';

@ObjectType('PricePoint', { description: 'A price in one published catalog version' })
export class PricePointModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ nullable: true, type: Date }) @Field(() => Date, { nullable: true }) publishedAt: Date | null;
  @ApiProperty({ type: OfferKeyModel, description: 'The offer, with its list price per instance-hour' }) @Field(() => OfferKeyModel) offer: OfferKeyModel;
  @ApiProperty({ type: MoneyModel, description: 'Comparable per GPU-hour, converted with that version’s FX rate' })
  @Field(() => MoneyModel)
  pricePerGpuHour: MoneyModel;

  static of(p: PricePoint, currency: Currency): PricePointModel {
    return Object.assign(new PricePointModel(), {
      catalogVersion: CatalogVersionRefModel.of(p.version),
      publishedAt: p.version.publishedAt,
      offer: OfferKeyModel.of(p.offer),
      pricePerGpuHour: MoneyModel.of(p.pricePerGpuHour, currency),
    });
  }
}

@ObjectType('OfferPriceHistory')
export class OfferPriceHistoryModel {
  @ApiProperty() @Field() offerId: string;
  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency' }) @Field(() => CurrencyEnum) currency: Currency;
  @ApiProperty({ type: [PricePointModel] }) @Field(() => [PricePointModel]) points: PricePointModel[];
}

@ObjectType('ProviderPriceSeries')
export class ProviderPriceSeriesModel {
  @ApiProperty() @Field() provider: string;
  @ApiProperty({ type: [PricePointModel], description: 'The provider’s cheapest offer of the GPU in each published version' })
  @Field(() => [PricePointModel])
  points: PricePointModel[];

  static of(s: ProviderSeries, currency: Currency): ProviderPriceSeriesModel {
    return Object.assign(new ProviderPriceSeriesModel(), { provider: s.provider, points: s.points.map((p) => PricePointModel.of(p, currency)) });
  }
}

@ObjectType('GpuPriceHistory')
export class GpuPriceHistoryModel {
  @ApiProperty() @Field() gpu: string;
  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency' }) @Field(() => CurrencyEnum) currency: Currency;
  @ApiProperty({ type: [ProviderPriceSeriesModel] }) @Field(() => [ProviderPriceSeriesModel]) providers: ProviderPriceSeriesModel[];
}
