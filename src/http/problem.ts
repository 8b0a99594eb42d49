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

export const BODY_LIMIT_BYTES = 1024 * 1024;

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
