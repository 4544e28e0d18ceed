// One ValidationPipe for REST and GraphQL: whitelist, reject unknown fields, transform, and turn
// class-validator's tree of errors into flat { field, message } pairs ("workload.hourlyProfile.3").
import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { badInput, type FieldError } from './app-error.js';

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    // A missing field fails every rule; "is required" is the one that says what to do.
    const messages = constraints.isDefined !== undefined ? [constraints.isDefined] : Object.values(constraints);
    const own = messages.map((message) => ({ field, message: withoutFieldName(message, error.property) }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

// class-validator prefixes messages with the property ("gpuCount must not be less than 1"); the
// field is reported separately, so the message keeps only the rule.
function withoutFieldName(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Deepest nesting of objects and arrays a request may send; real inputs need fewer than 10. */
export const MAX_INPUT_DEPTH = 32;

/** How deeply a value nests, counted without recursion (a 10,000-level body must not overflow the stack). */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The ValidationPipe, after a nesting check that class-transformer's recursion cannot survive. */
class BoundedValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (nestingDepth(value, MAX_INPUT_DEPTH) > MAX_INPUT_DEPTH) {
      throw badInput('REQUEST.TOO_DEEP', [{ field: metadata.data ?? metadata.type, message: `nests deeper than ${MAX_INPUT_DEPTH} levels` }]);
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new BoundedValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => badInput('REQUEST.INVALID', flattenValidationErrors(errors)),
  });
}
