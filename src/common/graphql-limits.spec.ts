import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { buildSchema, parse } from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { lastValueFrom, Observable } from 'rxjs';
import { DATABASE_COST, ESTIMATE_COST, FieldShare, GRAPHQL_FIELD_CONCURRENCY, fieldCost } from './graphql-limits.js';

const schema = buildSchema(`
  type Offer { id: String, provider: String, region: String }
  type Connection { items: [Offer] }
  type Estimate { total: String }
  type Query {
    offers(first: Int, version: String): Connection
    cheapestOffers(limit: Int): Connection
    gpuPriceHistory(gpu: String): Offer
    estimate(x: Int): Estimate
    gpus(asOf: String): [Offer]
  }
`);

const cost = (query: string, variables: Record<string, unknown> = {}) =>
  getComplexity({ schema, query: parse(query), variables, estimators: [fieldCost, simpleEstimator({ defaultComplexity: 1 })] });

describe('fieldCost: the complexity follows the size of the answer and the work behind it', () => {
  it('charges a list its page size times the fields of one entry, aliases adding up', () => {
    // offers: 1 + 10 entries x (items 1 + 3 fields) = 41.
    expect(cost('{ offers(first: 10) { items { id provider region } } }')).toBe(41);
    expect(cost('{ a: offers(first: 10) { items { id provider region } } b: offers(first: 10) { items { id provider region } } }')).toBe(82);
    // The size from a variable, as the request gives it.
    expect(cost('query($n: Int) { cheapestOffers(limit: $n) { items { id } } }', { n: 500 })).toBe(1 + 500 * 2);
  });

  it('charges a list without a size its default page size (offers 50, cheapest 10), and a size below 1 as 1', () => {
    expect(cost('{ offers { items { id } } }')).toBe(1 + 50 * 2);
    expect(cost('{ cheapestOffers { items { id } } }')).toBe(1 + 10 * 2);
    expect(cost('{ offers(first: -1000) { items { id } } }')).toBe(1 + 1 * 2);
  });

  it('adds the estimate and every database read: named fields, and any version or asOf', () => {
    expect(cost('{ estimate(x: 1) { total } }')).toBe(1 + 1 + ESTIMATE_COST);
    expect(cost('{ gpuPriceHistory(gpu: "h100") { id } }')).toBe(1 + 1 + DATABASE_COST);
    expect(cost('{ gpus { id } }')).toBe(2);
    expect(cost('{ gpus(asOf: "2026-01-01T00:00:00Z") { id } }')).toBe(2 + DATABASE_COST);
    expect(cost('{ offers(first: 1, version: "v1") { items { id } } }')).toBe(1 + 2 + DATABASE_COST);
  });
});

describe('FieldShare: top-level fields of one request run at most GRAPHQL_FIELD_CONCURRENCY at a time', () => {
  /** A resolver call as Nest hands it to an interceptor: [root, args, context, info]. */
  const call = (context: object, parent = 'Query'): ExecutionContext => {
    const args = [undefined, {}, context, { parentType: { name: parent } }];
    return {
      getType: () => 'graphql',
      getArgs: () => args,
      getArgByIndex: (i: number) => args[i],
      getClass: () => Object,
      getHandler: () => () => undefined,
      switchToHttp: () => ({}),
      switchToRpc: () => ({}),
      switchToWs: () => ({}),
    } as unknown as ExecutionContext;
  };

  const measured = () => {
    let running = 0;
    let most = 0;
    const handler: CallHandler = {
      handle: () =>
        new Observable((subscriber) => {
          running++;
          most = Math.max(most, running);
          setTimeout(() => {
            running--;
            subscriber.next('done');
            subscriber.complete();
          }, 5);
        }),
    };
    return { handler, most: () => most };
  };

  it('holds thirty aliases of one request to the share, while another request runs beside them', async () => {
    const share = new FieldShare();
    const first = measured();
    const request = {};
    const answers = await Promise.all(Array.from({ length: 30 }, () => lastValueFrom(share.intercept(call(request), first.handler))));
    expect(answers).toEqual(new Array(30).fill('done'));
    expect(first.most()).toBe(GRAPHQL_FIELD_CONCURRENCY);

    // Two requests: each has its own share.
    const both = measured();
    const [a, b] = [{}, {}];
    await Promise.all(Array.from({ length: 10 }, (_, i) => lastValueFrom(share.intercept(call(i % 2 ? a : b), both.handler))));
    expect(both.most()).toBe(2 * GRAPHQL_FIELD_CONCURRENCY);
  });

  it('leaves nested fields and other transports alone', async () => {
    const share = new FieldShare();
    const nested = measured();
    const request = {};
    await Promise.all(Array.from({ length: 6 }, () => lastValueFrom(share.intercept(call(request, 'Offer'), nested.handler))));
    expect(nested.most()).toBe(6);
  });
});
