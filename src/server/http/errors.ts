// The one shape of an API error: a machine code, the text to show, and a toast title when the
// spec gives one. The web app shows `message` as it comes.
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';
import { AUTH_ERRORS, INVALID_INPUT, rateLimitedText, SERVICE_UNAVAILABLE } from '../../common/messages';
import { isDatabaseUnavailable, pgCode } from '../db/errors';
import { logger } from '../observability/logger';

/** How soon a client should try again while the database is out of reach (a restart takes seconds). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export interface ApiError {
  code: string;
  message: string;
  title?: string;
  /** Set on unexpected errors: the id under which the server logged what happened. */
  requestId?: string;
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

/** 429 with Retry-After, and the real wait in the text. */
export function tooManyRequests(c: Context, retryAfterSeconds: number) {
  c.header('Retry-After', String(retryAfterSeconds));
  const body: ApiError & { retryAfterSeconds: number } = {
    code: 'RATE_LIMITED',
    message: rateLimitedText(retryAfterSeconds),
    retryAfterSeconds,
  };
  return c.json(body, 429);
}

/**
 * The last word on anything a route threw: never a stack, always the API's error shape. Input
 * the database cannot take (PostgreSQL's data exceptions, class 22) is the caller's mistake, a
 * 400; everything else is logged with the request id, which the answer carries too.
 */
export const onError: ErrorHandler = (error, c) => {
  if (error instanceof HTTPException) return error.getResponse();
  const requestId = (c.get('requestId' as never) as string | undefined) ?? 'unknown';
  const log = { reqId: requestId, method: c.req.method, path: c.req.path };
  const code = pgCode(error);
  if (code?.startsWith('22')) {
    logger.warn({ ...log, pgCode: code }, 'input refused by the database');
    return apiError(c, 400, 'VALIDATION_ERROR', INVALID_INPUT);
  }
  // A database restart or failover: a clean 503 the client can retry, not a 500.
  if (isDatabaseUnavailable(error)) {
    logger.warn({ ...log, err: (error as Error).message }, 'database unavailable');
    c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
    const body: ApiError = { code: 'UNAVAILABLE', message: SERVICE_UNAVAILABLE, requestId };
    return c.json(body, 503);
  }
  logger.error({ ...log, err: error }, 'request failed');
  const body: ApiError = { code: 'INTERNAL_ERROR', message: AUTH_ERRORS.generic, requestId };
  return c.json(body, 500);
};
