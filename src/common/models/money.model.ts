import { Field, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Currency } from '../../domain/catalog/catalog.types.js';
import { Decimal, formatAmount, formatCatalogAmount, formatTotal } from '../../domain/money/money.js';
import { CurrencyEnum } from './enums.js';

@ObjectType('Money', {
  description: 'An amount with its currency; the amount is a decimal string: 4 places for prices and unit costs, 2 (cents) for totals such as a month’s cost',
})
export class MoneyModel {
  @ApiProperty({ example: '3.9000', description: 'Decimal string: 4 places for prices and unit costs, 2 (cents) for totals' })
  @Field()
  amount: string;

  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency' })
  @Field(() => CurrencyEnum)
  currency: Currency;

  static of(amount: Decimal, currency: Currency): MoneyModel {
    return MoneyModel.written(formatAmount(amount), currency);
  }

  /** A total (a month's cost, a tier's cost): in cents, as an invoice shows it. */
  static ofTotal(amount: Decimal, currency: Currency): MoneyModel {
    return MoneyModel.written(formatTotal(amount), currency);
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
