import { ArgumentMetadata, PipeTransform, ValidationPipe } from '@nestjs/common';
import { ValidateIf, ValidationError } from 'class-validator';
import { isPlainObject } from '../shared/json-merge-patch';
import { freeFormFields } from './free-form-json';
import { fastBody } from './body-schema';
import { FieldError, ValidationFailed } from '../shared/validation-failed';
import { performance } from 'node:perf_hooks';

/**
 * DTO validation: unknown fields and wrong types are 400s listing every offending path. A body whose DTO has a fast
 * path (`FastBodySchema`) and passes it skips class-validator; any other goes through it.
 */
export function createValidationPipe(): PipeTransform {
  const checked = classValidatorPipe();
  return {
    transform: (value: unknown, metadata: ArgumentMetadata) =>
      (metadata.type === 'body' && fastBody(metadata.metatype, value)) || checked.transform(value, metadata),
  };
}

function classValidatorPipe(): ValidationPipe {
  return new FreeFormAwareValidationPipe({
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

/** How long making and checking a DTO may run before the rest waits for a later turn of the event loop (ms). */
const LONG_TURN_MS = 10;

/**
 * Validates a body's typed fields as usual, and carries its free-form JSON fields past class-transformer. When
 * making the DTO ran long, checking it waits for a timer, and when checking it did, so does the route: a body of
 * thousands of values (a workflow of 100 steps that each need all earlier ones) took tens of milliseconds for
 * each, and a timer lets the timers that fell due meanwhile (health probes, leases) go first.
 */
class FreeFormAwareValidationPipe extends ValidationPipe {
  /**
   * When the DTO being made (then checked) began. ValidationPipe calls validate() in the same turn as it makes the
   * DTO, so that time is this request's; after a wait, another request may have set it, which only makes the
   * next wait more or less likely.
   */
  private making = 0;

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    this.making = performance.now();
    const dto = await this.transformFreeForm(value, metadata);
    if (performance.now() - this.making > LONG_TURN_MS) await nextTimer();
    return dto;
  }

  protected override async validate(
    object: object,
    options?: Parameters<ValidationPipe['validate']>[1],
  ): Promise<ValidationError[]> {
    if (performance.now() - this.making > LONG_TURN_MS) await nextTimer();
    this.making = performance.now();
    return super.validate(object, options);
  }

  private async transformFreeForm(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const fields = metadata.type === 'body' ? freeFormFields(metadata.metatype) : [];
    if (fields.length === 0 || !isPlainObject(value)) return super.transform(value, metadata);
    const typed: Record<string, unknown> = { ...value };
    const carried = new Map<string, Record<string, unknown>>();
    const errors: FieldError[] = [];
    for (const { name, message } of fields) {
      if (!Object.hasOwn(typed, name)) continue;
      const field = typed[name];
      delete typed[name];
      if (isPlainObject(field)) carried.set(name, field);
      else errors.push({ path: name, message });
    }
    let dto: Record<string, unknown>;
    try {
      dto = await super.transform(typed, metadata);
    } catch (error) {
      if (error instanceof ValidationFailed) throw new ValidationFailed([...error.errors, ...errors], error.message);
      throw error;
    }
    if (errors.length > 0) throw new ValidationFailed(errors);
    for (const [name, field] of carried) dto[name] = field;
    return dto;
  }
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

function nextTimer(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A string with something other than white space in it: names, tasks, the agent a step names. */
export const NOT_BLANK = /\S/;

/** Like IsOptional, but only a missing field is skipped: an explicit null is still checked (and refused). */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/** Names are compared in Unicode NFC, so look-alike spellings (composed or decomposed) are one name. */
export function normalizeText({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.normalize('NFC') : value;
}
