// Multipart uploads (the typed client covers JSON; files go through this one helper).
import { AUTH_ERRORS } from '../../common/messages';
import { ApiRequestError } from './api';

export async function uploadForm<T>(url: string, method: 'POST' | 'PUT', form: FormData): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { method, body: form, credentials: 'same-origin' });
  } catch {
    throw new ApiRequestError(AUTH_ERRORS.failedToFetch, 0, 'NETWORK');
  }
  const body = (await res.json().catch(() => null)) as (T & { message?: string; code?: string; title?: string }) | null;
  if (!res.ok) throw new ApiRequestError(body?.message ?? AUTH_ERRORS.generic, res.status, body?.code ?? 'ERROR', body?.title);
  return body as T;
}

/** The server's message in a failed tus request's answer, or the fallback. */
export function tusErrorMessage(error: Error, fallback: string): string {
  const body = (error as Error & { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  try {
    return (JSON.parse(body ?? '') as { message?: string }).message ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * Whether a failed tus request is tried again (the upload dialogs' `onShouldRetry`): a dropped
 * connection, a lock or a server error is; a refusal (4xx: not a video, too large, a name
 * taken) is not. Unlike tus-js-client's default it does not give up while the browser says it is
 * offline: a laptop that loses Wi-Fi for a minute carries on by itself when it is back.
 */
export function shouldRetryUpload(error: Error): boolean {
  const status = (error as Error & { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus() ?? 0;
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/** Client-side check of a picked image, before any upload: the server checks again by bytes. */
export function checkImageFile(file: File, maxBytes: number): 'type' | 'size' | null {
  if (!file.type.startsWith('image/')) return 'type';
  if (file.size > maxBytes) return 'size';
  return null;
}
