import { redactUrl } from './logger.options.js';

describe(redactUrl.name, () => {
  it('hides credential-like query values and anything shaped like an API key, and keeps the rest', () => {
    expect(redactUrl('/v1/offers?gpu=h100-sxm-80gb&api_key=gca_abc-DEF_123&limit=5')).toBe('/v1/offers?gpu=h100-sxm-80gb&api_key=[REDACTED]&limit=5');
    expect(redactUrl('/v1/gpus?token=s3cret&x-api-key=k')).toBe('/v1/gpus?token=[REDACTED]&x-api-key=[REDACTED]');
    expect(redactUrl('/v1/gpus?note=gca_leaked')).toBe('/v1/gpus?note=[REDACTED]');
    expect(redactUrl('/v1/gpus/gca_inpath/price-history')).toBe('/v1/gpus/[REDACTED]/price-history');
    expect(redactUrl('/v1/gpus/gca%5Fencoded/price-history')).toBe('/v1/gpus/[REDACTED]/price-history');
    expect(redactUrl('/v1/offers?gpu=l4-24gb&keyword=x')).toBe('/v1/offers?gpu=l4-24gb&keyword=x');
    expect(redactUrl('/health/live')).toBe('/health/live');
  });
});
