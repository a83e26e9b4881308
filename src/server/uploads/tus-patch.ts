// The data path of a resumable admin upload (uploads/admin-tus.ts): a tus PATCH of a known upload,
// served from the raw Node request straight into the upload's file. @tus/server's own PATCH turns
// the body into a web stream and back into a Node stream (@hono/node-server's Readable.toWeb, then
// Readable.fromWeb) and through two Transforms; in Node 20 those conversions cost most of the
// server's CPU per byte (docs/decisions/0020). What @tus/server's PATCH guaranteed, this keeps:
// the tus headers checked, the upload's owner checked, one writer at a time per upload (the same
// locker as @tus/server's, so a newer request takes over from a stale one after the same drain
// time), the offset checked against the file under that lock (409, nothing written), nothing
// written past the announced size, and a dropped connection leaving the bytes that arrived as the
// offset to resume from. POST, HEAD, DELETE and OPTIONS stay with @tus/server.
import fs from 'node:fs';
import { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { FileStore } from '@tus/file-store';
import { ERRORS, EXPOSED_HEADERS, TUS_RESUMABLE, type Locker, type Upload } from '@tus/server';
import { logger } from '../observability/logger';

/** An answer as tus hooks give it (tusRefusal's shape, or the finish answer). */
export interface TusAnswer {
  status_code: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface PatchTarget {
  directory: string;
  datastore: FileStore;
  /** Shared with @tus/server, so its POST-with-data and DELETE exclude a PATCH here and back. */
  locker: Locker;
  /** How long a PATCH that is asked to give way may go on writing (@tus/server's lockDrainTimeout). */
  lockDrainMs: number;
  allowedOrigins: string[];
  /** The owner check: the upload when it is this viewer's to continue, null otherwise. */
  owned(upload: Upload): boolean;
  /** Runs once the last byte is stored, still under the lock; resolves with the answer or throws a TusAnswer. */
  finish(upload: Upload): Promise<TusAnswer>;
}

/** An upload's id as admin-tus.ts names it. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const TUS_CONTENT_TYPE = 'application/offset+octet-stream';
/** Bytes gathered from the socket before one write to the file: fewer, larger writes. */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;

/** The Node request behind a Hono request, when the app runs through @hono/node-server and nobody read its body yet. */
export function unreadNodeRequest(env: unknown): IncomingMessage | null {
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage && !incoming.readableDidRead && !incoming.readableEnded ? incoming : null;
}

/**
 * Serves a PATCH of an upload from `incoming`; null when @tus/server should serve it instead (a
 * PATCH that declares a deferred length, or an upload whose length is still deferred).
 */
export async function patchUpload(request: Request, incoming: IncomingMessage, target: PatchTarget): Promise<Response | null> {
  const headers = new Headers({ 'Tus-Resumable': TUS_RESUMABLE, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
  const origin = request.headers.get('origin');
  const cors = origin && target.allowedOrigins.includes(origin) ? origin : target.allowedOrigins[0];
  if (cors) headers.set('Access-Control-Allow-Origin', cors);
  const answer = (status: number, body: string | null, extra: Record<string, string> = {}) => {
    const all = new Headers(headers);
    for (const [name, value] of Object.entries(extra)) all.set(name, value);
    if (body !== null) all.set('Content-Length', String(Buffer.byteLength(body)));
    return new Response(status === 204 ? null : body, { status, headers: all });
  };
  const refuse = (error: TusAnswer) => answer(error.status_code, error.body ?? '', error.headers);

  // The protocol's headers first, as @tus/server checks them before anything else.
  const resumable = request.headers.get('tus-resumable');
  if (resumable === null) return answer(412, 'Tus-Resumable Required\n');
  if (resumable !== TUS_RESUMABLE) return answer(400, 'Invalid tus-resumable\n');
  if (request.headers.get('upload-length') !== null) return null;
  if (request.headers.get('content-type') !== TUS_CONTENT_TYPE) return answer(415, `Content-Type must be ${TUS_CONTENT_TYPE}\n`);
  const offsetHeader = request.headers.get('upload-offset');
  if (offsetHeader === null) return refuse(ERRORS.MISSING_OFFSET);
  const offset = Number(offsetHeader);
  if (!Number.isSafeInteger(offset) || offset < 0 || String(offset) !== offsetHeader) return answer(400, 'Invalid upload-offset\n');
  const lengthHeader = request.headers.get('content-length');
  const length = lengthHeader === null ? null : Number(lengthHeader);
  if (length !== null && (!Number.isSafeInteger(length) || length < 0)) return answer(400, 'Invalid content-length\n');

  // Someone else's upload answers exactly like a missing one (the tus path's onIncomingRequest).
  // Ids are plain hex: no decoding, so a malformed escape is simply not one.
  const id = new URL(request.url).pathname.split('/').pop() ?? '';
  const notFound = () => answer(404, JSON.stringify({ code: 'NOT_FOUND', message: 'Not found' }));
  const known = UPLOAD_ID.test(id) ? await target.datastore.getUpload(id).catch(() => null) : null;
  if (!known || !target.owned(known)) return notFound();
  if (known.size === undefined) return null;

  // One writer at a time. A newer request for the same upload (a client retrying after a drop
  // the server has not noticed yet) asks this one to give way: it stops after lockDrainMs.
  const gone = new AbortController();
  const onGone = () => gone.abort();
  incoming.once('close', onGone);
  let giveWay: (() => void) | null = null;
  let asked = false;
  const lock = target.locker.newLock(id);
  try {
    await lock.lock(gone.signal, async () => {
      if (asked) return;
      asked = true;
      setTimeout(() => giveWay?.(), target.lockDrainMs).unref();
    });
  } catch (error) {
    return refuse(error as TusAnswer);
  } finally {
    // Only while waiting: aborting a signal costs an exception object, not to be paid per request.
    incoming.off('close', onGone);
  }
  try {
    // Read again under the lock: another request may have written, finished or removed it meanwhile.
    const upload = await target.datastore.getUpload(id).catch(() => null);
    if (!upload || upload.size === undefined || !target.owned(upload)) return notFound();
    if (upload.offset !== offset) return refuse(ERRORS.INVALID_OFFSET);
    const room = upload.size - offset;
    if (length !== null && length > room) return refuse(ERRORS.ERR_SIZE_EXCEEDED);
    const file = path.join(target.directory, id);
    const outcome = await writeBody(incoming, file, offset, length ?? room, (stop) => {
      giveWay = stop;
      if (asked) setTimeout(stop, target.lockDrainMs).unref();
    });
    const reached = offset + outcome.written;
    if (outcome.end === 'write-error') return refuse(ERRORS.FILE_WRITE_ERROR);
    if (outcome.end === 'too-large') return refuse({ ...ERRORS.ERR_SIZE_EXCEEDED, headers: { Connection: 'close' } });
    // Dropped or told to give way: what arrived stays, and is the offset to resume from.
    if (outcome.end !== 'done') return answer(204, null, { 'Upload-Offset': String(reached), Connection: 'close' });
    if (reached === upload.size) {
      upload.offset = reached;
      const finished = await target.finish(upload).catch((error: unknown) => {
        if (typeof (error as TusAnswer | null)?.status_code === 'number') return error as TusAnswer;
        // Not a refusal but a failure (the database, the storage): logged, and answered without its details.
        logger.error({ err: error, uploadId: id }, 'finishing an upload failed');
        return ERRORS.UNKNOWN_ERROR as TusAnswer;
      });
      return answer(finished.status_code, finished.body ?? '', { 'Upload-Offset': String(reached), ...finished.headers });
    }
    return answer(204, null, { 'Upload-Offset': String(reached) });
  } finally {
    await lock.unlock();
  }
}

type WriteEnd = 'done' | 'dropped' | 'gave-way' | 'too-large' | 'write-error';

/**
 * Writes the request body into `file` from `offset`, at most `limit` bytes: a body longer than
 * that is refused at the chunk that would pass it, so nothing beyond the limit is stored. Resolves
 * once the file is closed, with how it ended and the bytes written.
 */
function writeBody(
  incoming: IncomingMessage,
  file: string,
  offset: number,
  limit: number,
  onStart: (stop: () => void) => void,
): Promise<{ end: WriteEnd; written: number }> {
  return new Promise((resolve) => {
    const out = fs.createWriteStream(file, { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER_BYTES });
    let received = 0;
    let end: WriteEnd | null = null;
    const stop = (how: WriteEnd) => {
      if (end) return;
      end = how;
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.pause();
      out.end();
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > limit) return stop('too-large');
      received += chunk.length;
      if (!out.write(chunk)) incoming.pause();
    };
    const onEnd = () => stop('done');
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', () => stop('dropped'));
    incoming.on('close', () => stop(incoming.complete ? 'done' : 'dropped'));
    out.on('drain', () => {
      if (!end) incoming.resume();
    });
    out.on('error', () => {
      // The stream closes itself after an error; only the request is let go here.
      end = 'write-error';
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.pause();
    });
    out.on('close', () => resolve({ end: end ?? 'write-error', written: out.bytesWritten }));
    onStart(() => stop('gave-way'));
  });
}
