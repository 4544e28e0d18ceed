import { Field, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Currency } from '../../domain/catalog/catalog.types.js';
import { Decimal, formatAmount } from '../../domain/money/money.js';
import { CurrencyEnum } from './enums.js';

@ObjectType('Money', { description: 'An amount with its currency; the amount is a decimal string with 4 places' })
export class MoneyModel {
  @ApiProperty({ example: '3.9000' })
  @Field()
  amount: string;

  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency' })
  @Field(() => CurrencyEnum)
  currency: Currency;

  static of(amount: Decimal, currency: Currency): MoneyModel {
    return Object.assign(new MoneyModel(), { amount: formatAmount(amount), currency });
  }

  static optional(amount: Decimal | null, currency: Currency): MoneyModel | null {
    return amount === null ? null : MoneyModel.of(amount, currency);
  }
}
