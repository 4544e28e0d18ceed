import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { CatalogVersionInfo } from '../../../domain/catalog/catalog.types.js';

@ObjectType('FxRate')
export class FxRateModel {
  @ApiProperty({ example: 'EUR' }) @Field() currency: string;
  @ApiProperty({ example: '0.8650', description: 'units of this currency that one unit of the base buys' }) @Field() rate: string;
}

@ObjectType('FxRates', { description: 'The FX rates a version converts with' })
export class FxRatesModel {
  @ApiProperty() @Field() base: string;
  @ApiProperty({ type: [FxRateModel] }) @Field(() => [FxRateModel]) rates: FxRateModel[];
  @ApiProperty() @Field() date: string;
  @ApiProperty() @Field() source: string;
}

@ObjectType('ProviderObservations', { description: "How fresh one provider's prices are in a version" })
export class ProviderObservationsModel {
  @ApiProperty({ example: 'aws' }) @Field() provider: string;
  @ApiProperty() @Field(() => Int) offers: number;
  @ApiProperty({ example: '2026-07-09', description: "Oldest observedAt of the provider's offers" }) @Field() oldest: string;
  @ApiProperty({ example: '2026-10-10', description: "Newest observedAt of the provider's offers" }) @Field() newest: string;
}

@ObjectType('CatalogVersionRef', { description: 'The catalog version an answer used' })
export class CatalogVersionRefModel {
  @ApiProperty() @Field() id: string;
  @ApiProperty() @Field() label: string;

  static of(v: Pick<CatalogVersionInfo, 'id' | 'label'>): CatalogVersionRefModel {
    const m = new CatalogVersionRefModel();
    m.id = v.id;
    m.label = v.label;
    return m;
  }
}

@ObjectType('CatalogVersion')
export class CatalogVersionModel {
  @ApiProperty() @Field() id: string;
  @ApiProperty() @Field() label: string;
  @ApiProperty() @Field() createdAt: Date;
  @ApiProperty({ nullable: true, type: Date }) @Field(() => Date, { nullable: true }) publishedAt: Date | null;
  @ApiProperty() @Field() current: boolean;
  @ApiProperty() @Field(() => Int) offerCount: number;
  @ApiProperty({ description: 'Offer and reference rows this version added to storage' }) @Field(() => Int) rowsWritten: number;
  @ApiProperty() @Field() source: string;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) notes: string | null;
  @ApiProperty({ description: 'sha256 of the content' }) @Field() checksum: string;
  @ApiProperty({ type: FxRatesModel }) @Field(() => FxRatesModel) fxRates: FxRatesModel;
  @ApiProperty({
    type: [ProviderObservationsModel],
    nullable: true,
    description: 'Per provider: offers and the oldest and newest observation date; null for versions imported before this was recorded',
  })
  @Field(() => [ProviderObservationsModel], {
    nullable: true,
    description: 'Per provider: offers and the oldest and newest observation date; null for versions imported before this was recorded',
  })
  providerObservations: ProviderObservationsModel[] | null;

  static of(v: CatalogVersionInfo): CatalogVersionModel {
    return Object.assign(new CatalogVersionModel(), {
      id: v.id,
      label: v.label,
      createdAt: v.createdAt,
      publishedAt: v.publishedAt,
      current: v.current,
      offerCount: v.offerCount,
      rowsWritten: v.rowsWritten,
      source: v.source,
      notes: v.notes,
      checksum: v.checksum,
      fxRates: Object.assign(new FxRatesModel(), {
        ...v.fxRates,
        rates: Object.entries(v.fxRates.rates).map(([currency, rate]) => Object.assign(new FxRateModel(), { currency, rate })),
      }),
      providerObservations: v.providerObservations?.map((p) => Object.assign(new ProviderObservationsModel(), p)) ?? null,
    });
  }
}

@ObjectType('CatalogVersionList')
export class CatalogVersionListModel {
  @ApiProperty({ type: [CatalogVersionModel] }) @Field(() => [CatalogVersionModel]) items: CatalogVersionModel[];
}
