import { ValidationPipe } from '@nestjs/common';
import { ValidateIf, ValidationError } from 'class-validator';
import { FieldError, ValidationFailed } from './problem';

/** DTO validation: unknown fields and wrong types are 400s listing every offending path. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailed(flatten(errors)),
  });
}

export function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      path,
      message: message.replace(/^property (\S+) should not exist$/, 'is not a known field'),
    }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/** Like IsOptional, but only a missing field is skipped: an explicit null is still checked (and refused). */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
