// Which catalog version a read answers from, and the currency of its prices: the same fields on
// every catalog-backed read, REST and GraphQL (docs/api-conventions.md#catalog-versions-and-pinning).
import { ArgsType } from '@nestjs/graphql';
import { CURRENCIES, type Currency } from '../../domain/catalog/catalog.types.js';
import { CurrencyEnum } from '../models/enums.js';
import { VERSION_REF } from './input-bounds.js';
import { field, InputField } from './input-field.js';

export const VERSION_SELECTOR = {
  version: field.string({ ...VERSION_REF, description: 'Catalog version id or label; default: the current version' }),
  asOf: field.dateTime({ description: 'Answer from the version that was current at this time' }),
};

export const CURRENCY = field.enum<Currency>(CURRENCIES, CurrencyEnum, { default: 'USD', description: 'Currency of the prices in the answer' });

/**
 * `version` (id or label) or `asOf`. One class for REST query strings and GraphQL arguments:
 * neither field needs query-string parsing beyond the date, which both transports share.
 */
@ArgsType()
export class VersionArgs {
  @InputField(VERSION_SELECTOR.version) version?: string;
  @InputField(VERSION_SELECTOR.asOf) asOf?: Date;
}
