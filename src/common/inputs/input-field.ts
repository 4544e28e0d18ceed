// One definition per input field. A field is described once, as a spec (its kind, its bounds
// from input-bounds.ts, its description), and its class-validator rules, its OpenAPI property and
// its GraphQL field are all derived from that spec here, so the three cannot disagree
// (docs/api-conventions.md#validation).
//
// - InputField: for the classes that are GraphQL inputs and REST JSON bodies (the same class).
// - QueryField: for REST query-string classes, the transport adapter: the same spec's rules and
//   OpenAPI parameter, plus query-string parsing (numbers, booleans, comma-separated lists;
//   query-string.ts), and no GraphQL field.
import { applyDecorators, type Type } from '@nestjs/common';
import { Field, Float, Int, type ReturnTypeFuncValue } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type as TransformTo } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  buildMessage,
  type ValidationOptions,
} from 'class-validator';
import { DATE_TIME_RULE, toDateTime } from './date-time.js';
import { rememberQueryField, ruleCount } from './fast-query.js';
import { CommaList, QueryBoolean, QueryNumber } from './query-string.js';

interface Doc {
  description?: string;
  example?: unknown;
  /** What the service uses when the field is absent: documented (OpenAPI `default`, GraphQL description), never filled in. */
  default?: string | number | boolean;
  /** Fields are optional unless this says otherwise. */
  required?: boolean;
}

export interface IntSpec extends Doc {
  kind: 'int';
  min: number;
  max: number;
}
export interface NumberSpec extends Doc {
  kind: 'number';
  min: number;
  max: number;
  /** `max` itself is refused (batchShare < 1). */
  exclusiveMax?: boolean;
}
/** Money: a decimal string, never a float (docs/api-conventions.md#money-units-and-currency). */
export interface DecimalSpec extends Doc {
  kind: 'decimal';
  integerDigits: number;
  fractionDigits: number;
  example: string;
}
export interface StringSpec extends Doc {
  kind: 'string';
  minLength?: number;
  maxLength?: number;
  pattern?: RegExp;
  patternMessage?: string;
}
export interface EnumSpec<V extends string = string> extends Doc {
  kind: 'enum';
  values: readonly V[];
  /** The registered GraphQL enum of the same values (common/models/enums.ts, policy-enums.ts). */
  graphqlEnum: object;
}
export interface BooleanSpec extends Doc {
  kind: 'boolean';
}
export interface DateTimeSpec extends Doc {
  kind: 'dateTime';
}
export interface ObjectSpec<C = unknown> extends Doc {
  kind: 'object';
  type: () => Type<C>;
}
export type ItemSpec = IntSpec | NumberSpec | DecimalSpec | StringSpec | EnumSpec | ObjectSpec;
export interface ListSpec<I extends ItemSpec = ItemSpec> extends Doc {
  kind: 'list';
  of: I;
  minItems?: number;
  maxItems?: number;
}
export type FieldSpec = ItemSpec | BooleanSpec | DateTimeSpec | ListSpec;

type ItemValue<S> = S extends IntSpec | NumberSpec
  ? number
  : S extends DecimalSpec | StringSpec
    ? string
    : S extends EnumSpec<infer V>
      ? V
      : S extends ObjectSpec<infer C>
        ? C
        : never;
/** The property type a spec validates: a decorated property of another type does not compile. */
export type ValueOf<S extends FieldSpec> =
  S extends ListSpec<infer I> ? ItemValue<I>[] : S extends BooleanSpec ? boolean : S extends DateTimeSpec ? Date : ItemValue<S>;
export type FieldDecorator<V> = <K extends string>(target: { [P in K]?: V | null }, key: K) => void;

type Bounds<S> = Omit<S, 'kind'>;

/** Spec constructors: `field.int({ min: 1, max: 500, default: 50 })`. */
export const field = {
  int: (s: Bounds<IntSpec>): IntSpec => ({ kind: 'int', ...s }),
  number: (s: Bounds<NumberSpec>): NumberSpec => ({ kind: 'number', ...s }),
  decimal: (s: Bounds<DecimalSpec>): DecimalSpec => ({ kind: 'decimal', ...s }),
  string: (s: Bounds<StringSpec> = {}): StringSpec => ({ kind: 'string', ...s }),
  enum: <V extends string>(values: readonly V[], graphqlEnum: object, s: Doc = {}): EnumSpec<V> => ({ kind: 'enum', values, graphqlEnum, ...s }),
  boolean: (s: Doc = {}): BooleanSpec => ({ kind: 'boolean', ...s }),
  dateTime: (s: Doc = {}): DateTimeSpec => ({ kind: 'dateTime', ...s }),
  object: <C>(type: () => Type<C>, s: Doc = {}): ObjectSpec<C> => ({ kind: 'object', type, ...s }),
  // Every list has a cap (listBoundErrors reads it before any per-element work): a list of enum
  // values needs no more entries than the enum has.
  list: <I extends ItemSpec>(of: I, s: Omit<ListSpec<I>, 'kind' | 'of'> = {}): ListSpec<I> => ({
    kind: 'list',
    of,
    ...s,
    maxItems: s.maxItems ?? (of.kind === 'enum' ? of.values.length : MAX_LIST_ITEMS),
  }),
};

/** Rules across the fields of an input class, by class name: what its OpenAPI schema states beside its properties. */
const classRules = new Map<string, Record<string, unknown>[]>();

function classRule(rule: Record<string, unknown>): ClassDecorator {
  return (target) => {
    classRules.set(target.name, [...(classRules.get(target.name) ?? []), rule]);
  };
}

/**
 * Exactly one of these fields must be given. The service checks it where the input is used (its
 * message names the fields); this states it in the OpenAPI schema (`oneOf` of `required`), so
 * that a client generating bodies from the schema sends only bodies the service accepts.
 */
export const ExactlyOneOf = (...fields: string[]): ClassDecorator => classRule({ oneOf: fields.map((f) => ({ required: [f] })) });

/** At least one of these fields must be given (`anyOf` of `required`), stated as ExactlyOneOf is. */
export const AtLeastOneOf = (...fields: string[]): ClassDecorator => classRule({ anyOf: fields.map((f) => ({ required: [f] })) });

/** At most one of these fields may be given (`not` any two of them), stated as ExactlyOneOf is. */
export const AtMostOneOf = (...fields: string[]): ClassDecorator => {
  const pairs = fields.flatMap((a, i) => fields.slice(i + 1).map((b) => [a, b]));
  // Each pair names its properties too (any value): linters read `required` inside `not` against its own schema.
  const both = (pair: string[]) => ({ required: pair, properties: Object.fromEntries(pair.map((f) => [f, true])) });
  return classRule({ not: pairs.length === 1 ? { required: pairs[0] } : { anyOf: pairs.map(both) } });
};

/**
 * Exactly one of `fields` of the nested object `inside`, or none of them when `instead` (a field
 * of another nested object: `object.field`) is given, which stands in for them. Stated as
 * ExactlyOneOf is, in the class that holds both objects: a oneOf of the two cases.
 */
export const ExactlyOneOfOrInstead = (inside: string, fields: string[], instead: `${string}.${string}`): ClassDecorator => {
  const [object = '', member = ''] = instead.split('.');
  // Each `required` names its property beside it, as linters ask of a schema inside oneOf or not.
  const given = { required: [object], properties: { [object]: { required: [member], properties: { [member]: {} } } } };
  const one = fields.map((f) => ({ required: [f], properties: { [f]: {} } }));
  return classRule({
    oneOf: [
      { properties: { [inside]: { oneOf: one } }, not: given },
      { ...given, properties: { ...given.properties, [inside]: { not: { anyOf: one } } } },
    ],
  });
};

/** The cross-field rules of an input class (by its schema name), for the OpenAPI document. */
export function classRulesOf(name: string): readonly Record<string, unknown>[] {
  return classRules.get(name) ?? [];
}

/** The cap of a list that states none (field.list): no input list needs more. */
export const MAX_LIST_ITEMS = 500;

/** The specs of each input class's fields, by property: what listBoundErrors walks. */
const inputSpecs = new WeakMap<object, Map<string, FieldSpec>>();

function rememberInputField(target: object, key: string, spec: FieldSpec): void {
  const type = target.constructor;
  let specs = inputSpecs.get(type);
  if (!specs) inputSpecs.set(type, (specs = new Map<string, FieldSpec>()));
  specs.set(key, spec);
}

/**
 * The lists of a raw input (before class-transformer) that are longer than their field allows,
 * with the nested input classes walked the same way. Checked before validation, so that a list of
 * 100,000 elements costs one length comparison, not 100,000 transformed and validated elements
 * (and 100,000 error messages). Classes inherit their parents' fields.
 */
export function listBoundErrors(type: unknown, value: unknown, prefix = ''): { field: string; message: string }[] {
  if (typeof type !== 'function' || value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const errors: { field: string; message: string }[] = [];
  for (let t: unknown = type; typeof t === 'function' && t !== Function.prototype; t = Object.getPrototypeOf(t)) {
    for (const [key, spec] of inputSpecs.get(t) ?? []) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const v = (value as Record<string, unknown>)[key];
      const field = prefix ? `${prefix}.${key}` : key;
      if (spec.kind === 'object') errors.push(...listBoundErrors(spec.type(), v, field));
      if (spec.kind !== 'list' || !Array.isArray(v)) continue;
      if (spec.maxItems !== undefined && v.length > spec.maxItems) {
        errors.push({ field, message: `must contain no more than ${spec.maxItems} elements` });
        continue;
      }
      const of = spec.of;
      if (of.kind === 'object') v.forEach((item, i) => errors.push(...listBoundErrors(of.type(), item, `${field}.${i}`)));
    }
  }
  return errors;
}

/** A field of a GraphQL input that is also a REST JSON body (or a class both transports read). */
export function InputField<S extends FieldSpec>(spec: S): FieldDecorator<ValueOf<S>> {
  const openApi = { ...openApiSchema(spec), ...openApiDoc(spec) } as ApiPropertyOptions;
  const decorate = applyDecorators(
    ...validationRules(spec),
    spec.required ? ApiProperty(openApi) : ApiPropertyOptional(openApi),
    Field(() => graphqlType(spec), { nullable: !spec.required, description: graphqlDescription(spec) }),
  );
  return (target, key) => {
    decorate(target, key);
    rememberInputField(target, key, spec);
  };
}

/** A REST query parameter read with the same spec: parsed from the query string, no GraphQL field. */
export function QueryField<S extends FieldSpec>(spec: S): FieldDecorator<ValueOf<S>> {
  const list = spec.kind === 'list';
  const openApi: ApiPropertyOptions = {
    ...openApiSchema(spec),
    ...openApiDoc(spec),
    // `gpu=a,b`: OpenAPI's form style without explode is exactly a comma-separated list.
    ...(list ? { style: 'form', explode: false } : {}),
  } as ApiPropertyOptions;
  const decorate = applyDecorators(...queryParsing(spec), ...validationRules(spec), spec.required ? ApiProperty(openApi) : ApiPropertyOptional(openApi));
  const pattern = spec.kind === 'decimal' ? decimalPattern(spec) : spec.kind === 'list' && spec.of.kind === 'decimal' ? decimalPattern(spec.of) : undefined;
  return (target, key) => {
    const type = target.constructor as new () => unknown;
    const before = ruleCount(type, key);
    decorate(target, key);
    // What the fast query reader (fast-query.ts) needs to read this parameter itself.
    rememberQueryField(target, key, spec, ruleCount(type, key) - before, pattern);
  };
}

/** The regular expression of a decimal spec: no sign, no exponent, no leading point. */
export function decimalPattern(spec: Pick<DecimalSpec, 'integerDigits' | 'fractionDigits'>): RegExp {
  return new RegExp(`^\\d{1,${spec.integerDigits}}(\\.\\d{1,${spec.fractionDigits}})?$`);
}

// ---- class-validator -----------------------------------------------------------------------

/** The exclusive counterpart of @Max, which class-validator lacks. */
export function IsBelow(limit: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBelow',
      constraints: [limit],
      validator: {
        validate: (value: unknown) => typeof value === 'number' && value < limit,
        defaultMessage: buildMessage((each) => `${each}$property must be less than $constraint1`, options),
      },
    },
    options,
  );
}

function itemRules(spec: ItemSpec, each: boolean): PropertyDecorator[] {
  const o: ValidationOptions = each ? { each: true } : {};
  switch (spec.kind) {
    case 'int':
      return [IsInt(o), Min(spec.min, o), Max(spec.max, o)];
    case 'number':
      return [IsNumber({ allowNaN: false, allowInfinity: false }, o), Min(spec.min, o), spec.exclusiveMax ? IsBelow(spec.max, o) : Max(spec.max, o)];
    case 'decimal':
      return [Matches(decimalPattern(spec), { ...o, message: `${each ? 'each value ' : ''}must be a decimal number such as ${spec.example}` })];
    case 'string':
      return [
        IsString(o),
        ...(spec.minLength !== undefined || spec.maxLength !== undefined ? [Length(spec.minLength ?? 0, spec.maxLength, o)] : []),
        ...(spec.pattern ? [Matches(spec.pattern, { ...o, ...(spec.patternMessage ? { message: spec.patternMessage } : {}) })] : []),
      ];
    case 'enum':
      return [IsIn([...spec.values], o)];
    case 'object':
      return [ValidateNested(o), TransformTo(spec.type)];
  }
}

function validationRules(spec: FieldSpec): PropertyDecorator[] {
  // A missing required field gets one message, "is required" (the flattening drops the type and
  // range messages that would follow it: common/errors/validation.ts).
  const presence = spec.required ? [IsDefined({ message: 'is required' })] : [IsOptional()];
  switch (spec.kind) {
    case 'boolean':
      return [...presence, IsBoolean()];
    case 'dateTime':
      return [...presence, Transform(({ value }: { value: unknown }) => toDateTime(value)), IsDate({ message: DATE_TIME_RULE })];
    case 'object':
      return [...presence, IsObject(), ...itemRules(spec, false)];
    case 'list':
      return [
        ...presence,
        IsArray(),
        // class-validator's own message says "at least 1 elements".
        ...(spec.minItems !== undefined
          ? [ArrayMinSize(spec.minItems, { message: `must contain at least ${spec.minItems} element${spec.minItems === 1 ? '' : 's'}` })]
          : []),
        ...(spec.maxItems !== undefined ? [ArrayMaxSize(spec.maxItems)] : []),
        ...itemRules(spec.of, true),
      ];
    default:
      return [...presence, ...itemRules(spec, false)];
  }
}

function queryParsing(spec: FieldSpec): PropertyDecorator[] {
  switch (spec.kind) {
    case 'int':
    case 'number':
      return [QueryNumber()];
    case 'boolean':
      return [QueryBoolean()];
    case 'list':
      return [CommaList()];
    default:
      return [];
  }
}

// ---- OpenAPI -------------------------------------------------------------------------------

function itemSchema(spec: ItemSpec): Record<string, unknown> {
  switch (spec.kind) {
    case 'int':
      return { type: 'integer', minimum: spec.min, maximum: spec.max };
    case 'number':
      return { type: 'number', minimum: spec.min, maximum: spec.max, ...(spec.exclusiveMax ? { exclusiveMaximum: true } : {}) };
    case 'decimal':
      return { type: 'string', pattern: decimalPattern(spec).source };
    case 'string':
      return { type: 'string', minLength: spec.minLength, maxLength: spec.maxLength, pattern: spec.pattern?.source };
    case 'enum':
      return { type: 'string', enum: [...spec.values] };
    case 'object':
      // Swagger resolves a lazy type only if the function's name is `type`, as this arrow's is.
      return { type: () => spec.type() };
  }
}

function openApiSchema(spec: FieldSpec): ApiPropertyOptions {
  switch (spec.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'dateTime':
      return { type: 'string', format: 'date-time' };
    case 'list':
      return spec.of.kind === 'object'
        ? { ...itemSchema(spec.of), isArray: true, minItems: spec.minItems, maxItems: spec.maxItems }
        : { type: 'array', items: withoutUndefined(itemSchema(spec.of)), minItems: spec.minItems, maxItems: spec.maxItems };
    default:
      return itemSchema(spec);
  }
}

function openApiDoc(spec: FieldSpec): ApiPropertyOptions {
  return withoutUndefined({
    description: spec.description,
    example: spec.example,
    default: spec.default,
    required: spec.required ?? false,
  });
}

function withoutUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ---- GraphQL -------------------------------------------------------------------------------

function graphqlType(spec: FieldSpec): ReturnTypeFuncValue {
  switch (spec.kind) {
    case 'int':
      return Int;
    case 'number':
      return Float;
    case 'decimal':
    case 'string':
      return String;
    case 'enum':
      return spec.graphqlEnum as ReturnTypeFuncValue;
    case 'boolean':
      return Boolean;
    case 'dateTime':
      return Date;
    case 'object':
      return spec.type();
    case 'list':
      return [graphqlType(spec.of)] as ReturnTypeFuncValue;
  }
}

/**
 * GraphQL has no way to state bounds, so its description says them, in words derived from the
 * same spec: "From 0 to less than 1. Default: 0."
 */
export function graphqlDescription(spec: FieldSpec): string | undefined {
  const parts = [spec.description, boundsText(spec), spec.default === undefined ? undefined : `Default: ${String(spec.default)}.`].filter(
    (p): p is string => !!p,
  );
  return parts.length ? parts.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join(' ') : undefined;
}

function boundsText(spec: FieldSpec): string | undefined {
  switch (spec.kind) {
    case 'int':
    case 'number':
      return rangeText(spec);
    case 'decimal':
      return `A decimal string such as "${spec.example}": up to ${spec.integerDigits} digits, and up to ${spec.fractionDigits} after the point`;
    case 'string':
      return lengthText(spec);
    case 'list': {
      const count =
        spec.minItems !== undefined && spec.minItems === spec.maxItems
          ? `Exactly ${spec.minItems} values`
          : spec.maxItems !== undefined
            ? spec.minItems
              ? `${spec.minItems} to ${spec.maxItems} values`
              : `At most ${spec.maxItems} values`
            : spec.minItems !== undefined
              ? `At least ${spec.minItems} value${spec.minItems === 1 ? '' : 's'}`
              : undefined;
      const item = spec.of.kind === 'int' || spec.of.kind === 'number' ? `each ${rangeText(spec.of).replace(/^From/, 'from')}` : undefined;
      return [count, item].filter(Boolean).join(', ') || undefined;
    }
    default:
      return undefined;
  }
}

/** "1 to 100 characters", "At most 64 characters": a string spec's lengths in words. */
function lengthText({ minLength, maxLength }: StringSpec): string | undefined {
  if (maxLength === undefined) return minLength ? `At least ${minLength} character${minLength === 1 ? '' : 's'}` : undefined;
  return minLength ? `${minLength} to ${maxLength} characters` : `At most ${maxLength} characters`;
}

/** "From 0 to less than 100": a number spec's bounds in words. */
export function rangeText(spec: IntSpec | NumberSpec): string {
  return `From ${spec.min} to ${spec.kind === 'number' && spec.exclusiveMax ? 'less than ' : ''}${spec.max}`;
}
