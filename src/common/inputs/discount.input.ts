// A negotiated discount on a provider's list prices (src/domain/compliance/ranking.ts,
// resolveDiscounts). GraphQL and the REST estimate body send objects; the REST query string
// writes each as `provider:percent`, and QueryDiscounts is that adapter: it reads the text into a
// DiscountInput and checks it with DiscountInput's own rules.
import { applyDecorators } from '@nestjs/common';
import { InputType } from '@nestjs/graphql';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, ValidateBy, validateSync, type ValidationArguments } from 'class-validator';
import { DISCOUNT_BOUNDS, NAME } from './input-bounds.js';
import { field, InputField, rangeText } from './input-field.js';
import { CommaList } from './query-string.js';

export const DISCOUNT = {
  provider: field.string({ ...NAME, required: true, description: 'Provider slug' }),
  percent: field.number({ ...DISCOUNT_BOUNDS.percent, required: true, description: 'Percent off the list price' }),
};

@InputType('DiscountInput', { description: 'A negotiated discount on a provider’s list prices' })
export class DiscountInput {
  @InputField(DISCOUNT.provider) provider: string;
  @InputField(DISCOUNT.percent) percent: number;
}

export const DISCOUNTS = field.list(
  field.object(() => DiscountInput),
  { ...DISCOUNT_BOUNDS.list, description: 'Negotiated discounts on list prices' },
);

const PROVIDER_PERCENT = /^([^:]+):(-?\d+(?:\.\d+)?)$/;

/** `aws:12.5` as { provider: 'aws', percent: 12.5 }; null when the text is not provider:number. */
export function parseProviderPercent(text: string): DiscountInput | null {
  const m = PROVIDER_PERCENT.exec(text);
  return m ? plainToInstance(DiscountInput, { provider: m[1], percent: Number(m[2]) }) : null;
}

/** Why one `provider:percent` text is refused, in DiscountInput's words; null when it is a valid discount. */
function discountProblem(text: unknown): string | null {
  const discount = typeof text === 'string' ? parseProviderPercent(text) : null;
  if (!discount) return `${String(text)} is not provider:percent, e.g. aws:12`;
  const errors = validateSync(discount);
  return errors.length ? `${String(text)}: ${errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; ')}` : null;
}

/** REST: `discounts=aws:12,azure:5`, each item a DiscountInput written provider:percent. */
export function QueryDiscounts(): PropertyDecorator {
  const openApi = {
    type: 'array',
    items: { type: 'string', pattern: PROVIDER_PERCENT.source },
    maxItems: DISCOUNT_BOUNDS.list.maxItems,
    style: 'form',
    explode: false,
    example: ['aws:12', 'azure:5'],
    description: `Negotiated discounts written provider:percent (aws:12), comma-separated; each percent ${rangeText(DISCOUNT.percent).toLowerCase()}`,
  } as ApiPropertyOptions;
  return applyDecorators(
    CommaList(),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(DISCOUNT_BOUNDS.list.maxItems),
    ValidateBy({
      name: 'isProviderPercent',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every((v) => discountProblem(v) === null),
        defaultMessage: ({ value }: ValidationArguments) =>
          (Array.isArray(value) ? value : [value]).map(discountProblem).find((p) => p !== null) ?? 'must be provider:percent values',
      },
    }),
    ApiPropertyOptional(openApi),
  );
}
