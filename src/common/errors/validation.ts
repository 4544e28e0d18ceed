// One ValidationPipe for REST and GraphQL: whitelist, reject unknown fields, transform, and turn
// class-validator's tree of errors into flat { field, message } pairs ("workload.hourlyProfile.3").
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { badInput, type FieldError } from './app-error.js';

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message: withoutFieldName(message, error.property) }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

// class-validator prefixes messages with the property ("gpuCount must not be less than 1"); the
// field is reported separately, so the message keeps only the rule.
function withoutFieldName(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => badInput('REQUEST.INVALID', flattenValidationErrors(errors)),
  });
}
