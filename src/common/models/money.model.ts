import { Field, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Currency } from '../../domain/catalog/catalog.types.js';
import { Decimal, formatAmount, formatCatalogAmount } from '../../domain/money/money.js';
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
    return MoneyModel.written(formatAmount(amount), currency);
  }

  /** An amount the catalog holds while a version is loaded (formatCatalogAmount: rounded once). */
  static ofCatalog(amount: Decimal, currency: Currency): MoneyModel {
    return MoneyModel.written(formatCatalogAmount(amount), currency);
  }

  private static written(amount: string, currency: Currency): MoneyModel {
    // Stores into a new instance, not Object.assign: in V8 that copy is many times slower, and
    // every price of every answer passes here.
    const m = new MoneyModel();
    m.amount = amount;
    m.currency = currency;
    return m;
  }
}
