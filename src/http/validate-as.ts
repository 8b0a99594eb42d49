import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ValidationFailed } from '../shared/validation-failed';
import { flatten } from './validation';

/** Validates a plain object with a DTO's rules, as the validation pipe checks a body; a 400 lists every problem. */
export function validateAs<T extends object>(dto: ClassConstructor<T>, plain: Record<string, unknown>): T {
  const instance = plainToInstance(dto, plain, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  if (errors.length) throw new ValidationFailed(flatten(errors));
  return instance;
}
