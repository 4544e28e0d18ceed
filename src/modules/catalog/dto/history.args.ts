import { ArgsType, Field } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { CURRENCIES, PRICING_MODELS, type Currency, type PricingModel } from '../../../domain/catalog/catalog.types.js';
import { CurrencyEnum, PricingModelEnum } from '../../../common/models/enums.js';
import { CommaList } from '../../offers/dto/list-param.js';

@ArgsType()
export class HistoryArgs {
  @ApiPropertyOptional({ enum: CURRENCIES, default: 'USD' })
  @Field(() => CurrencyEnum, { nullable: true })
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiPropertyOptional({ type: String, description: 'GPU history only: pricing model(s), comma-separated (default all)' })
  @Field(() => [PricingModelEnum], { nullable: true })
  @IsOptional()
  @CommaList()
  @IsIn(PRICING_MODELS, { each: true })
  pricingModels?: PricingModel[];
}

@ArgsType()
export class OfferHistoryArgs extends HistoryArgs {
  @Field({ description: 'Offer id (stable across versions)' })
  @IsString()
  @Matches(/^[0-9a-f]{32}$/, { message: 'must be an offer id (32 hex characters)' })
  offerId: string;
}

@ArgsType()
export class GpuHistoryArgs extends HistoryArgs {
  @Field({ description: 'GPU model slug' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[a-z0-9][a-z0-9-]*$/, { message: 'must be a GPU slug' })
  gpu: string;
}

export class OfferIdParam {
  @IsString()
  @Matches(/^[0-9a-f]{32}$/, { message: 'must be an offer id (32 hex characters)' })
  offerId: string;
}

export class GpuParam {
  @IsString()
  @Length(1, 64)
  @Matches(/^[a-z0-9][a-z0-9-]*$/, { message: 'must be a GPU slug' })
  gpu: string;
}
