import { Body, Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { CallerRequest } from '../auth/index.js';
import { NoParameters } from '../../common/inputs/no-parameters.input.js';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { EstimateInput } from './dto/estimate.input.js';
import { toEstimateModel } from './models/estimate.mapper.js';
import { EstimateModel } from './models/estimate.model.js';
import { EstimatesService } from './estimates.service.js';
import { requesterOf } from './prometheus-queries.js';
import { parsedTextsOf } from './estimate-bodies.js';

@ApiTags('estimates')
@Controller('v1/estimates')
export class EstimatesController {
  constructor(private readonly estimates: EstimatesService) {}

  // POST because the input is a document, not because anything is created: nothing is stored.
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Monthly cost of an inference workload: right-sizing and the blended reserved/on-demand/spot/serverless plan. Computes, stores nothing.',
  })
  @ApiOkResponse({ type: EstimateModel })
  @ApiUnprocessableEntityResponse({ description: 'The model fits no allowed GPU, or no compliant offer can serve it' })
  // The whole input is the body: a query parameter is refused as unknown.
  async estimate(@Body() input: EstimateInput, @Query() _none: NoParameters, @Req() req: CallerRequest): Promise<EstimateModel> {
    return toEstimateModel(await this.estimates.estimate(input, requesterOf(req), parsedTextsOf(req)));
  }
}
