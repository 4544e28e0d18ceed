import { UseInterceptors } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { CallerRequest } from '../auth/index.js';
import { EstimateInput } from './dto/estimate.input.js';
import { toEstimateModel } from './models/estimate.mapper.js';
import { EstimateModel } from './models/estimate.model.js';
import { EstimatesService } from './estimates.service.js';
import { requesterOf } from './prometheus-queries.js';
import { parsedTextsOf } from './estimate-bodies.js';
import { FieldShare } from '../../common/graphql-limits.js';

@Resolver()
@UseInterceptors(FieldShare)
export class EstimatesResolver {
  constructor(private readonly estimates: EstimatesService) {}

  @Query(() => EstimateModel, { description: 'Monthly cost of an inference workload (read-only: computes, stores nothing)' })
  async estimate(@Args('input') input: EstimateInput, @Context('req') req: CallerRequest): Promise<EstimateModel> {
    // A large body's measurement texts were read in a worker (estimate-bodies.ts): `input` holds their tokens.
    return toEstimateModel(await this.estimates.estimate(input, requesterOf(req), parsedTextsOf(req)));
  }
}
