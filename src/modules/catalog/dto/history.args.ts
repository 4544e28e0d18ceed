// Price history arguments. HistoryArgs and its GraphQL subclasses serve both transports; the
// offer id and GPU slug come from the path over REST (OfferIdParam, GpuParam) and are arguments
// over GraphQL, read with the same definitions.
import { ArgsType } from '@nestjs/graphql';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { PRICING_MODELS, type Currency, type PricingModel } from '../../../domain/catalog/catalog.types.js';
import { GPU_SLUG, OFFER_ID } from '../../../common/inputs/input-bounds.js';
import { field, InputField, QueryField } from '../../../common/inputs/input-field.js';
import { CommaList } from '../../../common/inputs/query-string.js';
import { CURRENCY } from '../../../common/inputs/version-selector.input.js';
import { PricingModelEnum } from '../../../common/models/enums.js';

const OFFER = field.string({ ...OFFER_ID, required: true, description: 'Offer id (stable across versions)' });
const GPU = field.string({ ...GPU_SLUG, required: true, description: 'GPU model slug' });

@ArgsType()
export class HistoryArgs {
  @InputField(CURRENCY) currency?: Currency;

  // REST reads the list comma-separated; an enum value holds no comma, so GraphQL's list is unchanged.
  @CommaList()
  @ApiPropertyOptional({ style: 'form', explode: false } as ApiPropertyOptions)
  @InputField(field.list(field.enum<PricingModel>(PRICING_MODELS, PricingModelEnum), { description: 'GPU history only: pricing models (default all)' }))
  pricingModels?: PricingModel[];
}

@ArgsType()
export class OfferHistoryArgs extends HistoryArgs {
  @InputField(OFFER) offerId: string;
}

@ArgsType()
export class GpuHistoryArgs extends HistoryArgs {
  @InputField(GPU) gpu: string;
}

export class OfferIdParam {
  @QueryField(OFFER) offerId: string;
}

export class GpuParam {
  @QueryField(GPU) gpu: string;
}
