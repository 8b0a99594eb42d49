/** A field of the input that is not valid: where (`body.steps[0].agent`, `cursor`), and why. */
export interface FieldError {
  path: string;
  message: string;
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
