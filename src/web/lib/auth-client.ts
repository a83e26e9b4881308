// better-auth's browser client, for the calls that go straight to /api/auth.
import { createAuthClient } from 'better-auth/react';
import { AUTH_ERRORS } from '../../common/messages';
import { ApiRequestError } from './api';

export const authClient = createAuthClient({ basePath: '/api/auth' });

/** Turns a better-auth client result into data or an ApiRequestError with the server's text. */
export async function authCall<T>(
  call: Promise<{ data: T | null; error: { message?: string; code?: string; status: number } | null }>,
): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiRequestError(AUTH_ERRORS.failedToFetch, 0, 'NETWORK');
  }
  if (result.error) {
    const { status, code, message } = result.error;
    if (status === 0 || (!code && !message)) throw new ApiRequestError(AUTH_ERRORS.failedToFetch, 0, 'NETWORK');
    throw new ApiRequestError(message ?? AUTH_ERRORS.generic, status, code ?? 'ERROR');
  }
  return result.data as T;
}
