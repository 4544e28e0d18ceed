// One ValidationPipe for REST and GraphQL: whitelist, reject unknown fields, transform, and turn
// class-validator's tree of errors into flat { field, message } pairs ("workload.hourlyProfile.3").
import { ValidationPipe, type ArgumentMetadata, type ValidationError, type ValidationPipeOptions } from '@nestjs/common';
import * as classTransformer from 'class-transformer';
import * as classValidator from 'class-validator';
import { getMetadataStorage } from 'class-validator';
import { readQueryFast } from '../inputs/fast-query.js';
import { listBoundErrors } from '../inputs/input-field.js';
import { badInput, type FieldError } from './app-error.js';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadatas = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

/**
 * class-validator looks up a class's rules on every validation, and the lookup walks every
 * decorated class of the process (for inheritance) and regroups the rules by property: a tenth of
 * a cheapest query's CPU time (BENCHMARKS.md, "Per-request work"). The rules of a class are fixed
 * once its module has loaded, so both answers are kept per class and options; a rule registered
 * later (a class defined after the first validation) clears what was kept. The validator only
 * reads what the two functions return.
 */
export function memoizeValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { __memoized?: true };
  if (marked.__memoized) return;
  marked.__memoized = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  let lookups = new Map<unknown, Map<string, ValidationMetadatas>>();
  let groups = new WeakMap<ValidationMetadatas, ReturnType<MetadataStorage['groupByPropertyName']>>();
  const forget = () => {
    lookups = new Map();
    groups = new WeakMap();
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, wanted) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${wanted?.join('\u0001') ?? ''}`;
    let byOptions = lookups.get(target);
    if (!byOptions) lookups.set(target, (byOptions = new Map<string, ValidationMetadatas>()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, wanted)));
    return found;
  };
  storage.groupByPropertyName = (metadatas) => {
    let found = groups.get(metadatas);
    if (!found) groups.set(metadatas, (found = group(metadatas)));
    return found;
  };
  storage.addValidationMetadata = (metadata) => {
    forget();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    forget();
    addConstraint(metadata);
  };
}

/**
 * class-validator's rules that judge a value's type, before any bound can (isInt too, when the
 * value is not a number at all: 2.5 is a number that is not whole, and its bounds still apply).
 */
const TYPE_RULES = new Set(['isNumber', 'isString', 'isBoolean', 'isArray', 'isObject', 'isDate']);

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    // A missing field fails every rule; "is required" is the one that says what to do. A value of
    // the wrong type fails its range rules too ("1e-7" is not a number, and so neither at least 0
    // nor at most 100): the type is what is wrong, and the only thing said.
    const typeRules = Object.keys(constraints).filter((rule) => TYPE_RULES.has(rule) || (rule === 'isInt' && typeof error.value !== 'number'));
    const messages =
      constraints.isDefined !== undefined
        ? [constraints.isDefined]
        : typeRules.length
          ? typeRules.map((rule) => constraints[rule] ?? '')
          : Object.values(constraints);
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

/**
 * Names that class-transformer skips without a word: every member of Object.prototype (it skips a
 * key whose name the new instance already holds as a method: toString, valueOf, hasOwnProperty,
 * __defineGetter__, ...; `__proto__` and `constructor` among them) and `prototype`. Sent as a
 * parameter or a key, they would pass as if absent.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Every key of the input named like an object's internals, refused as unknown fields are. */
export function reservedKeys(value: unknown, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const stack: [unknown, string][] = [[value, prefix]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, path] = top;
    if (v === null || typeof v !== 'object') continue;
    for (const key of Object.keys(v)) {
      const field = path ? `${path}.${key}` : key;
      if (RESERVED_KEYS.has(key)) errors.push({ field, message: `property ${key} should not exist` });
      else stack.push([(v as Record<string, unknown>)[key], field]);
    }
  }
  return errors;
}

/**
 * The ValidationPipe, after a nesting check that class-transformer's recursion cannot survive. A
 * REST query that its class's fields accept as they are is read directly (readQueryFast); any
 * other input, and every invalid one, goes through class-transformer and class-validator.
 */
class BoundedValidationPipe extends ValidationPipe {
  constructor(
    private readonly fastQueries: boolean,
    options: ValidationPipeOptions,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom decorator's value (GraphQL's @Context: the request) is the service's own, not input.
    if (metadata.type === 'custom') return value;
    if (this.fastQueries && metadata.type === 'query' && typeof metadata.metatype === 'function') {
      const read = readQueryFast(metadata.metatype as new () => object, value);
      if (read) return read;
    }
    // First the lists' lengths (declared fields only, so no deeper than the input classes): a list
    // of 60,000 elements is refused without a walk over them.
    const tooLong = listBoundErrors(metadata.metatype, value);
    if (tooLong.length) throw invalid(tooLong);
    if (nestingDepth(value, MAX_INPUT_DEPTH) > MAX_INPUT_DEPTH) {
      throw badInput('REQUEST.TOO_DEEP', [{ field: metadata.data ?? metadata.type, message: `nests deeper than ${MAX_INPUT_DEPTH} levels` }]);
    }
    const reserved = reservedKeys(value, '');
    if (reserved.length) throw invalid(reserved);
    return withoutNulls(await super.transform(value, metadata));
  }
}

/**
 * Null means absent (docs/api-conventions.md#validation): JSON and GraphQL may both send `null`
 * for an optional field, and the services read only `undefined` as "not given". Runs on the
 * validated instance, so a null unknown field has been refused and a null required one reported
 * as missing; nulls inside lists stay (the list's rules have judged them). Changes the instance,
 * which class-transformer has just made, in place.
 */
export function withoutNulls<T>(value: T): T {
  if (value === null) return undefined as T;
  if (typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && typeof item === 'object') withoutNulls(item);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (field === null) delete record[key];
    else if (typeof field === 'object') withoutNulls(field);
  }
  return value;
}

/** The most field errors one answer lists; the rest are counted in its detail. */
export const MAX_FIELD_ERRORS = 20;

/** REQUEST.INVALID with at most MAX_FIELD_ERRORS errors: a body of 100,000 bad values gets a short answer. */
export function invalid(errors: FieldError[]): ReturnType<typeof badInput> {
  if (errors.length <= MAX_FIELD_ERRORS) return badInput('REQUEST.INVALID', errors);
  const listed = errors.slice(0, MAX_FIELD_ERRORS);
  const more = errors.length - MAX_FIELD_ERRORS;
  return badInput('REQUEST.INVALID', listed, `${listed.map((e) => `${e.field}: ${e.message}`).join('; ')}; and ${more} more`);
}

/** `fastQueries: false` leaves every query to class-transformer and class-validator (the tests' reference). */
export function createValidationPipe({ fastQueries = true }: { fastQueries?: boolean } = {}): ValidationPipe {
  memoizeValidationMetadata();
  return new BoundedValidationPipe(fastQueries, {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => invalid(flattenValidationErrors(errors)),
    // Handed over rather than left to Nest's dynamic import(): in the service's split bundle
    // (scripts/bundle.mjs) that import gives a CommonJS package's default export only.
    validatorPackage: classValidator,
    transformerPackage: classTransformer,
  });
}
