import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { Currency } from '../../domain/catalog/catalog.types.js';
import type { ExchangeRateUsed } from '../../domain/money/exchange-rate.js';
import { CurrencyEnum } from './enums.js';

@ObjectType('ExchangeRate', { description: "The FX rate an answer converted prices with (the catalog version's)" })
export class ExchangeRateModel {
  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency', example: 'USD' }) @Field(() => CurrencyEnum) base: Currency;
  @ApiProperty({ enum: CurrencyEnum, enumName: 'Currency', example: 'EUR' }) @Field(() => CurrencyEnum) currency: Currency;
  @ApiProperty({ example: '0.8503', description: 'Units of `currency` that one unit of `base` buys' })
  @Field({ description: 'Units of `currency` that one unit of `base` buys' })
  rate: string;
  @ApiProperty({ example: '2026-08-21', description: 'Date of the rate' }) @Field({ description: 'Date of the rate' }) date: string;
  @ApiProperty({ description: 'Where the rate comes from' }) @Field() source: string;
  @ApiProperty({ description: 'Days from the rate’s date to the answer’s reference date (today, or asOf)' })
  @Field(() => Int, { description: 'Days from the rate’s date to the answer’s reference date (today, or asOf)' })
  ageDays: number;

  static of(used: ExchangeRateUsed | null): ExchangeRateModel | null {
    if (used === null) return null;
    const m = new ExchangeRateModel();
    m.base = used.base;
    m.currency = used.currency;
    m.rate = used.rate;
    m.date = used.date;
    m.source = used.source;
    m.ageDays = used.ageDays;
    return m;
  }
}
