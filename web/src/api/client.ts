import createClient from 'openapi-fetch';
import { authHeaders, requireApiKey } from './api-key';
import type { paths, Problem } from './schema';

/** The typed client of the public API: every call the console makes goes through it (or through `readSse`). */
export const api = createClient<paths>({ baseUrl: location.origin });

api.use({
  onRequest({ request }) {
    for (const [name, value] of Object.entries(authHeaders())) request.headers.set(name, value);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) requireApiKey();
    return response;
  },
});

/** openapi-fetch's answer: data on success, the problem otherwise (or a made-up one when the body was not JSON). */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  throw asProblem(result.error, result.response);
}

export class ProblemError extends Error {
  /** `local`: found by the console's own checks before anything was sent. */
  constructor(
    readonly problem: Problem,
    readonly local = false,
  ) {
    super(problem.detail ?? problem.title);
  }
}

export function asProblem(error: unknown, response?: Response): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error && typeof error === 'object' && 'title' in error) return new ProblemError(error as Problem);
  const status = response?.status ?? 0;
  const detail = error instanceof Error ? error.message : 'The service could not be reached';
  return new ProblemError({
    type: 'about:blank',
    title: status ? `HTTP ${status}` : 'Network error',
    status,
    detail,
  } as Problem);
}
