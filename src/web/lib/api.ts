// Calls to our API. Request and response types come from the server (hono/client), and every
// failure becomes an ApiRequestError whose message is the text to show.
import { hc, type ClientResponse } from 'hono/client';
import type { ApiType } from '../../server/app';
import { AUTH_ERRORS } from '../../common/messages';
import { ApiRequestError, errorFrom } from './api-error';

export { ApiRequestError, isNetworkError } from './api-error';

export const api = hc<ApiType>('/api', { init: { credentials: 'same-origin' } });

/** The JSON body type of the successful responses among a route's possible responses. */
type SuccessBody<R> = R extends ClientResponse<infer T, infer _S, infer _F> ? (R['ok'] extends false ? never : T) : never;

/** Awaits a typed client call; returns its JSON body or throws an ApiRequestError. */
export async function unwrap<R extends ClientResponse<unknown>>(call: Promise<R>): Promise<SuccessBody<R>> {
  let res: R;
  try {
    res = await call;
  } catch {
    throw new ApiRequestError(AUTH_ERRORS.failedToFetch, 0, 'NETWORK');
  }
  if (res.ok) return (await res.json()) as SuccessBody<R>;
  throw await errorFrom(res as unknown as Response);
}
