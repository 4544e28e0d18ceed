import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { prefersCsv } from '../../common/http/content-negotiation.js';
import { CheapestOffersQuery, ListOffersQuery } from './dto/offers.query.js';
import { CheapestOffersResultModel, OfferConnectionModel } from './models/offers-result.model.js';
import { offersCsv } from './offers-csv.js';
import { searchFromCheapestQuery, searchFromListQuery } from './offer-search.js';
import { OffersService } from './offers.service.js';

@ApiTags('offers')
@Controller('v1/offers')
export class OffersController {
  constructor(private readonly offers: OffersService) {}

  @Get()
  @ApiOperation({ summary: 'Offers, filtered, sorted by comparable price per GPU-hour, cursor-paginated; also text/csv (FOCUS-style columns)' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: OfferConnectionModel })
  async list(
    @Query() query: ListOffersQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<OfferConnectionModel | string> {
    const { version, page, nextCursor, exchangeRate } = await this.offers.list(searchFromListQuery(query), { limit: query.limit, cursor: query.cursor });
    const model = OfferConnectionModel.of(version, page, nextCursor, exchangeRate);
    if (prefersCsv(req.headers.accept)) {
      void res.type('text/csv; charset=utf-8');
      void res.header('X-Catalog-Version', version.label);
      if (nextCursor) void res.header('X-Next-Cursor', nextCursor);
      return offersCsv(model);
    }
    return model;
  }

  @Get('cheapest')
  @ApiOperation({ summary: 'The cheapest offers that comply with a policy, and (explain) the cheaper ones it excluded, with reasons' })
  @ApiOkResponse({ type: CheapestOffersResultModel })
  async cheapest(@Query() query: CheapestOffersQuery): Promise<CheapestOffersResultModel> {
    const { version, result, warnings, exchangeRate } = await this.offers.cheapest(searchFromCheapestQuery(query), {
      limit: query.limit,
      explain: query.explain,
    });
    return CheapestOffersResultModel.of(version, result, warnings, exchangeRate);
  }
}
