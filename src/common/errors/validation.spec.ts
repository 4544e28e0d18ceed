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
});
