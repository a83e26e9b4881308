// How every call to our API fails: an ApiRequestError whose message is the text to show (the
// server's, or the spec's generic texts). Kept apart from the typed client so the public pages'
// first script does not carry the client.
import { AUTH_ERRORS } from '../../common/messages';

export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly title?: string,
    /** Seconds until a rate limit lets the caller try again (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** True when the request never reached the server (offline, server down). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 0;
}

type ErrorBody = { message?: string; code?: string; title?: string; retryAfterSeconds?: number } | null;

/** The ApiRequestError for a failed response (its JSON body read). */
export async function errorFrom(res: Response): Promise<ApiRequestError> {
  const body = (await res.json().catch(() => null)) as ErrorBody;
  return new ApiRequestError(body?.message ?? AUTH_ERRORS.generic, res.status, body?.code ?? 'ERROR', body?.title, body?.retryAfterSeconds);
}

/** A JSON request to our API: the parsed body, or an ApiRequestError. */
export async function requestJson<T>(url: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: init.json === undefined ? undefined : { 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  } catch {
    throw new ApiRequestError(AUTH_ERRORS.failedToFetch, 0, 'NETWORK');
  }
  if (!res.ok) throw await errorFrom(res);
  return (await res.json()) as T;
}
