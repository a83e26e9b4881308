// The one shape of an API error: a machine code, the text to show, and a toast title when the
// spec gives one. The web app shows `message` as it comes.
import type { Context } from 'hono';
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';

export interface ApiError {
  code: string;
  message: string;
  title?: string;
}

export function apiError(
  c: Context,
  status: ClientErrorStatusCode | ServerErrorStatusCode,
  code: string,
  message: string,
  title?: string,
) {
  const body: ApiError = title ? { code, message, title } : { code, message };
  return c.json(body, status);
}

import { AUTH_ERRORS } from '../../common/messages';

export function tooManyRequests(c: Context, retryAfterSeconds: number) {
  c.header('Retry-After', String(retryAfterSeconds));
  return apiError(c, 429, 'RATE_LIMITED', AUTH_ERRORS.tooManyAttempts);
}
