import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { CatalogDiff } from '../../../domain/catalog/catalog-diff.js';
import type { CatalogVersionInfo, Offer, PricingModel } from '../../../domain/catalog/catalog.types.js';
import { PricingModelEnum } from '../../../common/models/enums.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { CatalogVersionRefModel } from './catalog-version.model.js';

@ObjectType('OfferKey', { description: 'The identity of an offer across versions' })
export class OfferKeyModel {
  @ApiProperty() @Field() id: string;
  @ApiProperty() @Field() provider: string;
  @ApiProperty() @Field() region: string;
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field(() => Int) gpuCount: number;
  @ApiProperty() @Field() instanceType: string;
  @ApiProperty({ enum: PricingModelEnum, enumName: 'PricingModel' }) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty({ type: MoneyModel, description: 'Per instance-hour, list currency' }) @Field(() => MoneyModel) pricePerHour: MoneyModel;

  static of(o: Offer): OfferKeyModel {
    return Object.assign(new OfferKeyModel(), {
      id: o.keyHash,
      provider: o.providerSlug,
      region: o.regionCode,
      gpu: o.gpuSlug,
      gpuCount: o.gpuCount,
      instanceType: o.instanceType,
      pricingModel: o.pricingModel,
      pricePerHour: MoneyModel.of(o.pricePerHour, o.currency),
    });
  }
}

@ObjectType('OfferChange')
export class OfferChangeModel extends OfferKeyModel {
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) oldPricePerHour: MoneyModel;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) newPricePerHour: MoneyModel;
  @ApiProperty({ nullable: true, type: String, example: '-12.5000', description: 'Percent; null when the currency changed' })
  @Field(() => String, { nullable: true })
  changePct: string | null;
  @ApiProperty({ type: [String], description: 'Other fields that changed (source, observedAt, ...)' }) @Field(() => [String]) otherChanges: string[];
}

@ObjectType('ReferenceChange')
export class ReferenceChangeModel {
  @ApiProperty({ example: 'provider' }) @Field() kind: string;
  @ApiProperty() @Field() key: string;
  @ApiProperty({ example: 'changed' }) @Field() change: string;
}

@ObjectType('CatalogDiff')
export class CatalogDiffModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) from: CatalogVersionRefModel;
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) to: CatalogVersionRefModel;
  @ApiProperty({ type: [OfferKeyModel] }) @Field(() => [OfferKeyModel]) added: OfferKeyModel[];
  @ApiProperty({ type: [OfferKeyModel] }) @Field(() => [OfferKeyModel]) removed: OfferKeyModel[];
  @ApiProperty({ type: [OfferChangeModel] }) @Field(() => [OfferChangeModel]) changed: OfferChangeModel[];
  @ApiProperty({ type: [ReferenceChangeModel] }) @Field(() => [ReferenceChangeModel]) referenceChanges: ReferenceChangeModel[];
  @ApiProperty() @Field(() => Int) unchangedOffers: number;

  static of(from: CatalogVersionInfo, to: CatalogVersionInfo, diff: CatalogDiff): CatalogDiffModel {
    return Object.assign(new CatalogDiffModel(), {
      from: CatalogVersionRefModel.of(from),
      to: CatalogVersionRefModel.of(to),
      added: diff.added.map(OfferKeyModel.of),
      removed: diff.removed.map(OfferKeyModel.of),
      changed: diff.changed.map((c) =>
        Object.assign(new OfferChangeModel(), {
          ...OfferKeyModel.of(c.offer),
          oldPricePerHour: MoneyModel.of(c.oldPricePerHour, c.oldCurrency),
          newPricePerHour: MoneyModel.of(c.newPricePerHour, c.offer.currency),
          changePct: c.changePct ? c.changePct.toFixed(4) : null,
          otherChanges: c.otherChanges,
        }),
      ),
      referenceChanges: diff.reference.map((r) => Object.assign(new ReferenceChangeModel(), r)),
      unchangedOffers: diff.unchangedOffers,
    });
  }
}
