import type { FastifyRequest } from 'fastify';
import { routeOf } from './route-pattern.js';

/** A request whose routeOptions getter counts its reads, as Fastify's builds a new object on each. */
function requestFor(url: string | undefined): { request: FastifyRequest; reads: () => number } {
  let reads = 0;
  const request = {
    routePattern: null,
    get routeOptions() {
      reads++;
      return { url };
    },
  } as unknown as FastifyRequest;
  return { request, reads: () => reads };
}

describe('routeOf', () => {
  it('reads routeOptions once however often the hooks ask', () => {
    const { request, reads } = requestFor('/v1/offers/cheapest');
    expect([routeOf(request), routeOf(request), routeOf(request), routeOf(request)]).toEqual(Array(4).fill('/v1/offers/cheapest'));
    expect(reads()).toBe(1);
  });

  it('is undefined for an unmatched request, also on later reads, without reading again', () => {
    const { request, reads } = requestFor(undefined);
    expect(routeOf(request)).toBeUndefined();
    expect(routeOf(request)).toBeUndefined();
    expect(reads()).toBe(1);
  });

  it('keeps each request to its own pattern', () => {
    const a = requestFor('/v1/gpus');
    const b = requestFor('/graphql');
    expect(routeOf(a.request)).toBe('/v1/gpus');
    expect(routeOf(b.request)).toBe('/graphql');
    expect(routeOf(a.request)).toBe('/v1/gpus');
  });
});
