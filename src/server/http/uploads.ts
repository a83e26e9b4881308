// Reading uploaded files from multipart bodies, and refusing one that is too large.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ToastText } from '../../common/messages';
import { apiError } from './errors';

/** Refuses a body over `maxBytes` before it is read, with the given "too large" text. */
export function uploadLimit(maxBytes: number, tooLarge: ToastText): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of the body is never read: close the connection so the client does not reuse it.
      c.header('Connection', 'close');
      return apiError(c, 413, 'FILE_TOO_LARGE', tooLarge.description, tooLarge.title);
    },
  });
}

/** The bytes of the file field `name`, or null when absent or empty. */
export async function fileField(form: Record<string, unknown>, name: string): Promise<Buffer | null> {
  const value = form[name];
  if (!(value instanceof File) || value.size === 0) return null;
  return Buffer.from(await value.arrayBuffer());
}

/** The multipart fields; a field sent several times (files) comes as an array. */
export async function readForm(c: Context): Promise<Record<string, unknown> | null> {
  return (await c.req.parseBody({ all: true }).catch(() => null)) as Record<string, unknown> | null;
}
