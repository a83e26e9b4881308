// A resumable admin upload (tus: @tus/server inside Hono, tus-js-client in the browser), shared by
// the reel upload (videos/uploads.ts) and game footage (footage/uploads.ts). What every kind
// gets: the admin check and the size limit before a byte is stored; an upload continued only by
// the admin who started it (anyone else's answers like a missing one); the bytes streamed to
// disk, never held in memory; no GET of a finished upload; and a finished file accepted only when
// its structure is a whole MP4, MOV or WebM (media/video-type.ts: a text file with "free" at bytes
// 4–8 is not one). Each kind checks its own metadata and turns the finished file into its own row.
// See docs/decisions/0008.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { Context } from 'hono';
import { AUTH_REQUIRED } from '../../common/messages';
import { trustedOrigins } from '../auth/auth';
import type { Viewer, ViewerEnv } from '../auth/session';
import type { Config } from '../config';
import { readVideoContainer } from '../media/video-type';

/** A tus error answer in the API's error shape: thrown from a hook, tus sends it as it is. */
export const tusRefusal = (status_code: number, code: string, message: string, title?: string) => ({
  status_code,
  body: JSON.stringify(title ? { code, message, title } : { code, message }),
});

export interface AdminTusKind {
  /** The route, e.g. /api/admin/uploads. */
  path: string;
  /** Where unfinished uploads are kept on this instance's disk. */
  directory: string;
  maxSize: number;
  /** Checks the client's metadata when an upload starts; returns what to keep (throws a tusRefusal otherwise). */
  accept(metadata: Record<string, string | null>, viewer: Viewer): Promise<Record<string, string>>;
  /** The finished video file becomes this kind's row; returns the JSON answer, or null to refuse it as not a video. */
  finish(file: string, upload: Upload, viewer: Viewer): Promise<Record<string, string> | null>;
  /** The answer to a finished file that is not a video. */
  notVideo: { message: string; title?: string };
}

export function createAdminTusUpload(config: Config, kind: AdminTusKind) {
  /** Who is asking, by request: set by the admin guard's route before tus sees the request. */
  const viewers = new WeakMap<object, Viewer>();
  const datastore = new FileStore({ directory: kind.directory });
  const tus = new Server({
    path: kind.path,
    datastore,
    maxSize: kind.maxSize,
    relativeLocation: true,
    allowedOrigins: trustedOrigins(config),
    namingFunction: () => randomUUID().replace(/-/g, ''),
    disableTerminationForFinishedUploads: true,
    async onIncomingRequest(req, uploadId) {
      const viewer = viewers.get(req);
      if (!viewer) throw tusRefusal(401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
      if (req.method === 'POST') return;
      // Someone else's upload answers exactly like a missing one.
      const upload = await datastore.getUpload(uploadId).catch(() => null);
      if (!upload || upload.metadata?.uploaderId !== viewer.userId) throw tusRefusal(404, 'NOT_FOUND', 'Not found');
    },
    async onUploadCreate(req, upload) {
      const viewer = viewers.get(req)!;
      // Recorded by the server: the client's word is not taken for who uploads.
      return { metadata: { ...(await kind.accept(upload.metadata ?? {}, viewer)), uploaderId: viewer.userId } };
    },
    async onUploadFinish(req, upload) {
      const viewer = viewers.get(req)!;
      const file = path.join(kind.directory, upload.id);
      const answer = (await readVideoContainer(file)) ? await kind.finish(file, upload, viewer) : null;
      if (!answer) {
        await datastore.remove(upload.id).catch(() => {});
        throw tusRefusal(415, 'INVALID_FILE_TYPE', kind.notVideo.message, kind.notVideo.title);
      }
      await fs.rm(`${file}.json`, { force: true });
      return { status_code: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(answer) };
    },
  });
  return {
    directory: kind.directory,
    /** Serves a tus request of an admin (the route has checked that much already). */
    async handle(c: Context<ViewerEnv>): Promise<Response> {
      // tus would stream a finished upload back on GET; nobody needs that, and it is fragile.
      if (c.req.method === 'GET') return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
      viewers.set(c.req.raw, c.var.viewer);
      return tus.handleWeb(c.req.raw);
    },
  };
}
