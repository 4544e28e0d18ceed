// The OpenAPI description of the health answers, written here rather than left to terminus: its
// @HealthCheck() documents an endpoint by require()-ing @nestjs/swagger at run time (createRequire,
// which a bundler cannot follow), and in the bundled service that loaded a second, unbundled copy
// of @nestjs/swagger with Nest's core, common and rxjs under it, some 480 files and 11 MiB that
// served no request (BENCHMARKS.md, "Memory"). Its examples also named a Redis this service has not.
import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, type SchemaObject } from '@nestjs/swagger';

/** One indicator of a terminus answer: its status and what it reports (`offers`, `message`, ...). */
const indicators = (example: Record<string, unknown>): SchemaObject => ({
  type: 'object',
  example,
  additionalProperties: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['up', 'down'] } },
    additionalProperties: true,
  },
});

function healthSchema(ok: boolean, example: { up: Record<string, unknown>; down: Record<string, unknown> }): SchemaObject {
  // Not ready: what is down is not up as well.
  const up = ok ? example.up : Object.fromEntries(Object.entries(example.up).filter(([name]) => !Object.hasOwn(example.down, name)));
  return {
    type: 'object',
    required: ['status', 'details'],
    properties: {
      status: { type: 'string', enum: ok ? ['ok'] : ['error', 'shutting_down'], example: ok ? 'ok' : 'error' },
      info: { ...indicators(up), nullable: true, description: 'The indicators that are up' },
      error: { ...indicators(ok ? {} : example.down), nullable: true, description: 'The indicators that are down' },
      details: { ...indicators({ ...up, ...(ok ? {} : example.down) }), description: 'Every indicator' },
    },
  };
}

/** 200 with terminus's answer, and with `canFail` a 503 with the indicators that are down. */
export function ApiHealthResponses(example: { up: Record<string, unknown>; down?: Record<string, unknown> }, canFail: boolean): MethodDecorator {
  const down = example.down ?? {};
  const ok = ApiOkResponse({ description: 'Healthy', schema: healthSchema(true, { up: example.up, down }) });
  if (!canFail) return applyDecorators(ok);
  return applyDecorators(
    ok,
    ApiServiceUnavailableResponse({ description: 'Not ready: the indicators that are down say why', schema: healthSchema(false, { up: example.up, down }) }),
  );
}
