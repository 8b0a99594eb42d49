import 'reflect-metadata';
import { Allow } from 'class-validator';

const FREE_FORM_FIELDS = Symbol('free-form-json-fields');

export interface FreeFormField {
  name: string;
  /** Said when the field is there but not a JSON object. */
  message: string;
}

/**
 * Marks a DTO property as a free-form JSON object (such as a run's `context`): the validation pipe takes it out
 * of the body before class-transformer sees it and puts it back as received, so every key survives (even
 * `constructor` or `toString`). Its size and depth are checked with the whole body, by the JSON parser.
 */
export function FreeFormObject(options: { message: string }): PropertyDecorator {
  return (target, property) => {
    // Known to class-validator, so a body of only free-form fields is not an "unknown value".
    Allow()(target, property);
    const fields = freeFormFields(target.constructor);
    Reflect.defineMetadata(
      FREE_FORM_FIELDS,
      [...fields, { name: String(property), message: options.message }],
      target.constructor,
    );
  };
}

export function freeFormFields(type: unknown): FreeFormField[] {
  if (typeof type !== 'function') return [];
  return (Reflect.getMetadata(FREE_FORM_FIELDS, type) as FreeFormField[] | undefined) ?? [];
}
