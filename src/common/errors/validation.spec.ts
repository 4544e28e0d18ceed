import type { ValidationError } from '@nestjs/common';
import { flattenValidationErrors } from './validation.js';

const error = (property: string, value: unknown, constraints: Record<string, string>, children: ValidationError[] = []): ValidationError => ({
  property,
  value,
  constraints,
  children,
});

describe('flattenValidationErrors', () => {
  it('says only "is required" for a missing required field, not the type and range rules it also fails', () => {
    const missing = error('avgInputTokens', undefined, {
      isDefined: 'is required',
      isInt: 'avgInputTokens must be an integer number',
      min: 'avgInputTokens must not be less than 1',
    });
    expect(flattenValidationErrors([error('workload', {}, {}, [missing])])).toEqual([{ field: 'workload.avgInputTokens', message: 'is required' }]);
  });

  it('keeps every rule a present value breaks, without the field name in the message', () => {
    const bad = error('gpuCount', 0, { isInt: 'gpuCount must be an integer number', min: 'gpuCount must not be less than 1' });
    expect(flattenValidationErrors([bad])).toEqual([
      { field: 'gpuCount', message: 'must be an integer number' },
      { field: 'gpuCount', message: 'must not be less than 1' },
    ]);
  });

  it('says only the type for a value of the wrong type, whose bounds cannot be judged', () => {
    // minSla=1e-7 in a query string stays the text "1e-7" (no exponents): not "at least 0, at most 100".
    const text = error('minSla', '1e-7', {
      isNumber: 'minSla must be a number conforming to the specified constraints',
      min: 'minSla must not be less than 0',
      max: 'minSla must not be greater than 100',
    });
    expect(flattenValidationErrors([text])).toEqual([{ field: 'minSla', message: 'must be a number conforming to the specified constraints' }]);
    const notWhole = error('gpuCount', 'two', { isInt: 'gpuCount must be an integer number', min: 'gpuCount must not be less than 1' });
    expect(flattenValidationErrors([notWhole])).toEqual([{ field: 'gpuCount', message: 'must be an integer number' }]);
  });
});
