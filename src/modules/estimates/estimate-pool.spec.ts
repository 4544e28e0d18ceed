// The estimate pool's refusals as the API documents them (docs/api-conventions.md, errors):
// over the time budget 422 ESTIMATE.TIME_BUDGET_EXCEEDED, every worker busy 503 ESTIMATE.BUSY,
// over REST (problem+json) and GraphQL (extensions.code) alike; anything else stays what it is.
import { GraphQLError } from 'graphql';
import { PoolBusy, TimeBudgetExceeded } from '../../common/budgeted-pool.js';
import { formatGraphqlError } from '../../common/errors/graphql-errors.js';
import { toProblem } from '../../common/errors/problem-details.filter.js';
import { poolError } from './estimate-pool.js';

const asGraphql = (error: unknown) => formatGraphqlError({ message: 'x', extensions: {} }, new GraphQLError('x', { originalError: error as Error })).extensions;

describe(poolError.name, () => {
  it('answers an estimate over its time budget 422 with the budget in words, on REST and GraphQL', () => {
    const error = poolError(new TimeBudgetExceeded(5000));
    expect(toProblem(error)).toMatchObject({
      status: 422,
      code: 'ESTIMATE.TIME_BUDGET_EXCEEDED',
      detail: 'The estimate did not finish within 5000 ms; allow fewer GPUs or precisions',
      errors: [{ field: 'gpus', message: 'planning took longer than 5000 ms' }],
    });
    expect(asGraphql(error)).toMatchObject({ code: 'UNPROCESSABLE', errorCode: 'ESTIMATE.TIME_BUDGET_EXCEEDED' });
  });

  it('answers a full pool 503 ESTIMATE.BUSY', () => {
    const error = poolError(new PoolBusy());
    expect(toProblem(error)).toMatchObject({ status: 503, code: 'ESTIMATE.BUSY' });
    expect(asGraphql(error)).toMatchObject({ errorCode: 'ESTIMATE.BUSY' });
  });

  it('leaves any other error as it is (a 500 without its message)', () => {
    const other = new TypeError('boom');
    expect(poolError(other)).toBe(other);
    expect(toProblem(poolError(other))).toMatchObject({ status: 500, code: 'INTERNAL' });
  });
});
