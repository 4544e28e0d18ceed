import { Field, Float, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { jurisdictionsOf } from '../../../domain/compliance/jurisdictions.js';
import type { GpuModel, Provider, ProviderKind, Region } from '../../../domain/catalog/catalog.types.js';
import { ProviderKindEnum } from '../../../common/models/enums.js';
import { CatalogVersionRefModel } from './catalog-version.model.js';

@ObjectType('Provider')
export class ProviderModel {
  @ApiProperty({ example: 'aws' }) @Field() slug: string;
  @ApiProperty() @Field() name: string;
  @ApiProperty({ enum: ProviderKindEnum, enumName: 'ProviderKind' }) @Field(() => ProviderKindEnum) kind: ProviderKind;
  @ApiProperty({ example: 'US', description: 'ISO country of the operator headquarters' }) @Field() headquartersCountry: string;
  @ApiProperty({ example: ['EU', 'EEA'], description: 'Jurisdictions of the headquarters country' }) @Field(() => [String]) headquartersJurisdictions: string[];
  @ApiProperty({ nullable: true, type: String, example: '99.99', description: 'Published SLA, percent' }) @Field(() => String, { nullable: true }) slaPercent:
    string | null;
  @ApiProperty({ type: [String] }) @Field(() => [String]) certifications: string[];
  @ApiProperty({ nullable: true, type: String, example: '0.09' }) @Field(() => String, { nullable: true }) egressUsdPerGb: string | null;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) website: string | null;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) source: string | null;

  static of(p: Provider): ProviderModel {
    return Object.assign(new ProviderModel(), {
      ...p,
      headquartersJurisdictions: jurisdictionsOf(p.headquartersCountry),
      slaPercent: p.slaPercent?.toString() ?? null,
      egressUsdPerGb: p.egressUsdPerGb?.toString() ?? null,
    });
  }
}

@ObjectType('Region')
export class RegionModel {
  @ApiProperty({ example: 'aws:eu-central-1' }) @Field() code: string;
  @ApiProperty({ example: 'aws' }) @Field() provider: string;
  @ApiProperty() @Field() name: string;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) city: string | null;
  @ApiProperty({ example: 'DE' }) @Field() country: string;
  @ApiProperty({ example: ['EU', 'EEA', 'GDPR_ADEQUATE'], description: 'Derived from the country' }) @Field(() => [String]) jurisdictions: string[];

  static of(r: Region): RegionModel {
    return Object.assign(new RegionModel(), {
      code: r.code,
      provider: r.providerSlug,
      name: r.name,
      city: r.city,
      country: r.country,
      jurisdictions: jurisdictionsOf(r.country),
    });
  }
}

@ObjectType('GpuModel')
export class GpuModelModel {
  @ApiProperty({ example: 'h100-sxm-80gb' }) @Field() slug: string;
  @ApiProperty() @Field() vendor: string;
  @ApiProperty() @Field() name: string;
  @ApiProperty() @Field(() => Float) memoryGb: number;
  @ApiProperty() @Field(() => Float) memoryBandwidthGbps: number;
  @ApiProperty({ description: 'Dense FP16/BF16 peak, TFLOPS' }) @Field(() => Float) fp16Tflops: number;
  @ApiProperty({ description: 'Dense INT8 peak, TOPS' }) @Field(() => Float) int8Tops: number;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) fp8Tflops: number | null;
  @ApiProperty() @Field() fp8Support: boolean;
  @ApiProperty({ nullable: true, type: String }) @Field(() => String, { nullable: true }) source: string | null;

  static of(g: GpuModel): GpuModelModel {
    return Object.assign(new GpuModelModel(), {
      ...g,
      memoryGb: g.memoryGb.toNumber(),
      memoryBandwidthGbps: g.memoryBandwidthGbps.toNumber(),
      fp16Tflops: g.fp16Tflops.toNumber(),
      int8Tops: g.int8Tops.toNumber(),
      fp8Tflops: g.fp8Tflops?.toNumber() ?? null,
    });
  }
}

@ObjectType('ProviderList')
export class ProviderListModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ type: [ProviderModel] }) @Field(() => [ProviderModel]) items: ProviderModel[];
}

@ObjectType('RegionList')
export class RegionListModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ type: [RegionModel] }) @Field(() => [RegionModel]) items: RegionModel[];
}

@ObjectType('GpuModelList')
export class GpuModelListModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ type: [GpuModelModel] }) @Field(() => [GpuModelModel]) items: GpuModelModel[];
}
