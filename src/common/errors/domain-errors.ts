// The domain's own errors as AppErrors, for every feature that calls the domain: a policy, a
// requirement or discounts the domain refuses is a 400 naming the field as the API spells it; a
// currency the catalog version has no FX rate for is a 422.
import { PolicyError } from '../../domain/compliance/index.js';
import { MissingFxRateError } from '../../domain/money/money.js';
import { AppError, badInput } from './app-error.js';

/** Domain field names that the API spells differently. */
const API_FIELD: Record<string, string> = { minSlaPercent: 'minSla', after: 'cursor' };

/** The AppError for a domain error (others pass through); `prefix` places the field ("policy."), `names` renames it. */
export function toAppError(error: unknown, prefix = '', names: Readonly<Record<string, string>> = {}): unknown {
  if (error instanceof PolicyError) {
    const known = (map: Readonly<Record<string, string>>) => (Object.hasOwn(map, error.field) ? map[error.field] : undefined);
    const field = `${prefix}${known(names) ?? known(API_FIELD) ?? error.field}`;
    return badInput('REQUEST.INVALID', [{ field, message: error.message }]);
  }
  if (error instanceof MissingFxRateError) {
    return new AppError('CATALOG.MISSING_FX_RATE', 'UNPROCESSABLE', `${error.message}; ask for another currency`, [
      { field: 'currency', message: error.message },
    ]);
  }
  return error;
}
