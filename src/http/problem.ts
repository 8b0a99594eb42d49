import { STATUS_CODES } from 'node:http';

export interface FieldError {
  path: string;
  message: string;
}

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

/** Thrown by our own validation; the filter answers it as a 400 with `errors`. */
export class ValidationFailed extends Error {
  constructor(
    readonly errors: FieldError[],
    message = 'The request is not valid',
  ) {
    super(message);
  }
}

/** The body could not be parsed as JSON; answered as a 400 `malformed-json`. */
export class MalformedJson extends Error {}
