import { UseInterceptors } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { CheapestOffersArgs, OffersArgs } from './dto/offers.input.js';
import { CheapestOffersResultModel, OfferConnectionModel } from './models/offers-result.model.js';
import { searchFromCheapestArgs, searchFromOffersArgs } from './offer-search.js';
import { OffersService } from './offers.service.js';
import { FieldShare } from '../../common/graphql-limits.js';

@Resolver()
@UseInterceptors(FieldShare)
export class OffersResolver {
  constructor(private readonly service: OffersService) {}

  @Query(() => OfferConnectionModel, { description: 'Offers, filtered, sorted by comparable price per GPU-hour, cursor-paginated' })
  async offers(@Args() args: OffersArgs): Promise<OfferConnectionModel> {
    const { version, page, nextCursor, exchangeRate } = await this.service.list(searchFromOffersArgs(args), { limit: args.first, cursor: args.after });
    return OfferConnectionModel.of(version, page, nextCursor, exchangeRate);
  }

  @Query(() => CheapestOffersResultModel, { description: 'The cheapest compliant offers and, with explain, the cheaper ones excluded and why' })
  async cheapestOffers(@Args() args: CheapestOffersArgs): Promise<CheapestOffersResultModel> {
    const { version, result, warnings, exchangeRate } = await this.service.cheapest(searchFromCheapestArgs(args), { limit: args.limit, explain: args.explain });
    return CheapestOffersResultModel.of(version, result, warnings, exchangeRate);
  }
}
