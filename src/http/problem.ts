import { STATUS_CODES } from 'node:http';
import { FieldError } from '../shared/validation-failed';

/** An RFC 9457 problem details body. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 1;

const TYPE_BASE = '/problems/';

/** The problem `type` is a stable URI per kind of error, e.g. `/problems/validation-error` (a relative URI reference). */
export function problem(status: number, slug: string, detail: string, errors?: FieldError[]): Problem {
  return {
    type: `${TYPE_BASE}${slug}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    ...(errors && errors.length ? { errors } : {}),
  };
}

/** The body could not be parsed as JSON; answered as a 400 `malformed-json`. */
export class MalformedJson extends Error {}

/**
 * The body's arrays and objects hold more values than the limit; answered as a 413, before the body is parsed.
 */
export class TooManyJsonValues extends Error {
  constructor(readonly limit: number) {
    super(`The body holds more than ${limit} values (array items and object members, all told), the limit of a body`);
  }
}
