import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { CatalogVersionInfo, Currency } from '../../../domain/catalog/catalog.types.js';
import type { CheapestResult, CleanestOffer, ExcludedOffer, OfferPage } from '../../../domain/compliance/index.js';
import { CurrencyEnum } from '../../../common/models/enums.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { ExchangeRateModel } from '../../../common/models/exchange-rate.model.js';
import type { ExchangeRateUsed } from '../../../domain/money/exchange-rate.js';
import { CatalogVersionRefModel } from '../../catalog/index.js';
import { OfferModel } from '../../catalog/index.js';
import { walkJsonOf } from '../../../common/http/answer-json.js';

@ObjectType('OfferConnection')
export class OfferConnectionModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency' }) @Field(() => CurrencyEnum) currency: Currency;
  @ApiProperty({ type: [OfferModel], description: 'Sorted by comparable price per GPU-hour, then the offer key' })
  @Field(() => [OfferModel])
  items: OfferModel[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as cursor (REST) or after (GraphQL) for the next page; null on the last page' })
  @Field(() => String, { nullable: true })
  nextCursor: string | null;
  @ApiProperty({ type: ExchangeRateModel, nullable: true, description: 'The FX rate prices were converted with; null when no price was converted' })
  @Field(() => ExchangeRateModel, { nullable: true, description: 'The FX rate prices were converted with; null when no price was converted' })
  exchangeRate: ExchangeRateModel | null;

  static of(version: CatalogVersionInfo, page: OfferPage, nextCursor: string | null, exchangeRate: ExchangeRateUsed | null = null): OfferConnectionModel {
    const m = new OfferConnectionModel();
    m.catalogVersion = CatalogVersionRefModel.of(version);
    m.currency = page.currency;
    m.items = page.items.map((q) => OfferModel.of(q));
    m.nextCursor = nextCursor;
    m.exchangeRate = ExchangeRateModel.of(exchangeRate);
    return m;
  }
}

@ObjectType('ExcludedOffer', { description: 'An offer the policy excluded, with every reason' })
export class ExcludedOfferModel {
  @ApiProperty({ type: OfferModel }) @Field(() => OfferModel) offer: OfferModel;
  @ApiProperty({ type: [String], example: ['region us-east-1 is in US, outside EEA'] }) @Field(() => [String]) reasons: string[];
  @ApiProperty({ type: [String], example: ['RESIDENCY'], description: 'The rules behind the reasons' }) @Field(() => [String]) rules: string[];

  static of(e: ExcludedOffer): ExcludedOfferModel {
    const m = new ExcludedOfferModel();
    m.offer = OfferModel.of(e, { withTotals: true });
    m.reasons = e.reasons.map((r) => r.message);
    m.rules = e.reasons.map((r) => r.rule);
    return m;
  }
}

@ObjectType('CleanestOffer', { description: 'The compliant offer with the least g CO2e per GPU-hour, against the cheapest (docs/carbon.md)' })
export class CleanestOfferModel {
  @ApiProperty({ type: OfferModel }) @Field(() => OfferModel) offer: OfferModel;
  @ApiProperty({ description: 'It is also the cheapest compliant offer' }) @Field() isCheapest: boolean;
  @ApiProperty({ type: MoneyModel, description: 'Its price per GPU-hour minus the cheapest offer’s (0 when it is the cheapest)' })
  @Field(() => MoneyModel)
  premiumPerGpuHour: MoneyModel;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '12.5',
    description: 'That premium against the cheapest offer’s price, percent; null when that price is 0',
  })
  @Field(() => String, { nullable: true })
  premiumPercent: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'g CO2e per GPU-hour it saves against the cheapest offer; null when the cheapest has no figure' })
  @Field(() => Float, { nullable: true })
  carbonSavedPerGpuHour: number | null;

  static of(c: CleanestOffer, currency: Currency): CleanestOfferModel {
    const m = new CleanestOfferModel();
    m.offer = OfferModel.of(c.offer, { passes: c.offer.passes, withTotals: true });
    m.isCheapest = c.isCheapest;
    m.premiumPerGpuHour = MoneyModel.of(c.premiumPerGpuHour, currency);
    m.premiumPercent = c.premiumPercent === null ? null : c.premiumPercent.toDecimalPlaces(2).toString();
    m.carbonSavedPerGpuHour = c.carbonSavedPerGpuHour === null ? null : Number(c.carbonSavedPerGpuHour.toFixed(3));
    return m;
  }
}

const ITEMS_ORDER = 'Compliant offers: CONFIRMED availability first, then UNCONFIRMED (flagged in warnings), cheapest first within each; `complies` says why';

@ObjectType('CheapestOffersResult')
export class CheapestOffersResultModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency' }) @Field(() => CurrencyEnum) currency: Currency;
  @ApiProperty({ type: [OfferModel], description: ITEMS_ORDER }) @Field(() => [OfferModel], { description: ITEMS_ORDER }) items: OfferModel[];
  @ApiProperty({ type: [ExcludedOfferModel], description: 'With explain: cheaper offers the policy excluded (all failing offers when nothing complies)' })
  @Field(() => [ExcludedOfferModel])
  excluded: ExcludedOfferModel[];
  @ApiProperty({ description: 'How many cheaper offers were excluded (the list may be capped)' }) @Field(() => Int) excludedCount: number;
  @ApiProperty({ type: [ExcludedOfferModel], description: 'When nothing complies: the offers failing the fewest rules' })
  @Field(() => [ExcludedOfferModel])
  nearestMisses: ExcludedOfferModel[];
  @ApiProperty({
    type: CleanestOfferModel,
    nullable: true,
    description: 'The compliant offer with the least g CO2e per GPU-hour and its premium over the cheapest; null when nothing complies or no figure is sourced',
  })
  @Field(() => CleanestOfferModel, { nullable: true, description: 'The compliant offer with the least g CO2e per GPU-hour and its premium over the cheapest' })
  cleanest: CleanestOfferModel | null;
  @ApiProperty({
    type: [String],
    description:
      'About the prices of the items: no CONFIRMED offer meets the query (first), ESTIMATE prices used (includeEstimates), prices older than STALE_PRICE_DAYS, availability UNCONFIRMED, an FX rate older than STALE_FX_DAYS',
  })
  @Field(() => [String], {
    description:
      'About the prices of the items: no CONFIRMED offer meets the query (first), ESTIMATE prices used (includeEstimates), prices older than STALE_PRICE_DAYS, availability UNCONFIRMED, an FX rate older than STALE_FX_DAYS',
  })
  warnings: string[];
  @ApiProperty({ type: ExchangeRateModel, nullable: true, description: 'The FX rate prices were converted with; null when no price was converted' })
  @Field(() => ExchangeRateModel, { nullable: true, description: 'The FX rate prices were converted with; null when no price was converted' })
  exchangeRate: ExchangeRateModel | null;

  static of(version: CatalogVersionInfo, r: CheapestResult, warnings: string[] = [], exchangeRate: ExchangeRateUsed | null = null): CheapestOffersResultModel {
    const m = new CheapestOffersResultModel();
    m.catalogVersion = CatalogVersionRefModel.of(version);
    m.currency = r.currency;
    m.items = r.items.map((i) => OfferModel.of(i, { passes: i.passes, withTotals: true }));
    m.excluded = r.excluded.map(ExcludedOfferModel.of);
    m.excludedCount = r.excludedCount;
    m.nearestMisses = r.nearestMisses.map(ExcludedOfferModel.of);
    m.cleanest = r.cleanest ? CleanestOfferModel.of(r.cleanest, r.currency) : null;
    m.warnings = warnings;
    m.exchangeRate = ExchangeRateModel.of(exchangeRate);
    return m;
  }
}

// The REST serialiser looks for offers in these answers (answer-json.ts).
walkJsonOf(OfferConnectionModel, CheapestOffersResultModel, ExcludedOfferModel, CleanestOfferModel);
