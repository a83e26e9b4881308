// One limit on every request body under /api, checked before a byte is parsed: a JSON route
// reads its body whole, so without it one 200 MB request costs the server most of a gigabyte.
// Routes that take files are listed here and apply their own, larger limit (uploadLimit).
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { REQUEST_TOO_LARGE } from '../../common/messages';
import { apiError } from './errors';

export const JSON_BODY_MAX_BYTES = 64 * 1024;

/** The routes that take files. Each must apply its own uploadLimit; a test checks that it does. */
export const UPLOAD_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/api\/account\/register$/ },
  { method: 'POST', path: /^\/api\/profile\/(avatar|banner)$/ },
  { method: 'PUT', path: /^\/api\/videos\/[^/]+\/thumbnail$/ },
  { method: 'POST', path: /^\/api\/admin\/users\/[^/]+\/stills$/ },
  // tus: the upload's size limit is checked from its Upload-Length before a byte is stored.
  { method: 'POST', path: /^\/api\/admin\/uploads$/ },
  { method: 'PATCH', path: /^\/api\/admin\/uploads\/[^/]+$/ },
  { method: 'POST', path: /^\/api\/admin\/footage-uploads$/ },
  { method: 'PATCH', path: /^\/api\/admin\/footage-uploads\/[^/]+$/ },
  { method: 'POST', path: /^\/api\/profile\/reference-photos$/ },
  // A roster file, as CSV text (rosters/csv.ts).
  { method: 'POST', path: /^\/api\/admin\/events\/[^/]+\/roster$/ },
];

export function isUploadRoute(method: string, pathname: string): boolean {
  return UPLOAD_ROUTES.some((r) => r.method === method && r.path.test(pathname));
}

export function jsonBodyLimit(maxBytes = JSON_BODY_MAX_BYTES): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of the body is never read: close the connection so the client does not reuse it.
      c.header('Connection', 'close');
      return apiError(c, 413, 'TOO_LARGE', REQUEST_TOO_LARGE);
    },
  });
  return (c, next) => (isUploadRoute(c.req.method, c.req.path) ? next() : limit(c, next));
}
