import 'reflect-metadata';
import Ajv, { ValidateFunction } from 'ajv';

const BODY_SCHEMA = Symbol('body-schema');

/**
 * A body's fast check: a JSON Schema compiled once (ajv), at least as strict as the DTO's class-validator rules,
 * and `finish`, which makes the DTO of a body that passed (its transforms), or says undefined to leave the body to
 * class-validator after all.
 */
export interface BodySchema<T> {
  validate: ValidateFunction;
  finish(dto: T): T | undefined;
}

// No coercion, no defaults filled in, nothing removed: the schema only says yes or no to the body as sent.
const ajv = new Ajv({ strict: true, allErrors: false, coerceTypes: false, useDefaults: false });

/**
 * Gives a hot route's DTO a fast path: a body its schema accepts becomes the DTO at once (its field defaults, then
 * the body's fields), without class-transformer and class-validator. A body it refuses goes through them, so a
 * 400 says what it always said. The schema must refuse whatever the DTO's rules refuse.
 */
export function FastBodySchema<T>(schema: object, finish: (dto: T) => T | undefined = (dto) => dto) {
  return (target: new () => T): void => {
    const check: BodySchema<T> = { validate: ajv.compile(schema), finish };
    Reflect.defineMetadata(BODY_SCHEMA, check, target);
  };
}

/** The DTO of `body`, when `type` has a fast path of its own (a subclass does not inherit it) and the body passes it. */
export function fastBody(type: unknown, body: unknown): object | undefined {
  if (typeof type !== 'function') return undefined;
  const check = Reflect.getOwnMetadata(BODY_SCHEMA, type) as BodySchema<object> | undefined;
  if (!check || !check.validate(body)) return undefined;
  return check.finish(Object.assign(new (type as new () => object)(), body));
}
