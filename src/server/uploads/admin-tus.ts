// A resumable admin upload (tus: @tus/server inside Hono, tus-js-client in the browser), shared by
// the reel upload (videos/uploads.ts) and game footage (footage/uploads.ts). What every kind
// gets: the admin check and the size limit before a byte is stored; an upload continued only by
// the admin who started it (anyone else's answers like a missing one); the bytes streamed to
// disk, never held in memory; no GET of a finished upload; and a finished file accepted only when
// its structure is a whole MP4, MOV or WebM (media/video-type.ts: a text file with "free" at bytes
// 4–8 is not one). Each kind checks its own metadata and turns the finished file into its own row.
// Unfinished uploads do not pile up: one that gets no data for UPLOAD_ABANDON_HOURS is removed
// (`expireAbandonedUploads`, run by each server on its own disk), and the sizes one admin's
// unfinished uploads announce may add up to UPLOAD_OPEN_GB_PER_ADMIN at most (a deferred length
// counts as the kind's largest file). See docs/decisions/0008. A PATCH (the data) is served by
// uploads/tus-patch.ts from the raw Node request when there is one, with the same checks and the
// same finish; @tus/server serves the rest (docs/decisions/0020).
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FileStore } from '@tus/file-store';
import { MemoryLocker, Server, type Upload } from '@tus/server';
import type { Context } from 'hono';
import { ADMIN_UPLOADS } from '../../common/admin-messages';
import { AUTH_REQUIRED } from '../../common/messages';
import { trustedOrigins } from '../auth/auth';
import type { Viewer, ViewerEnv } from '../auth/session';
import type { Config } from '../config';
import { readVideoContainer, startsLikeVideo, type VideoContainer } from '../media/video-type';
import { patchUpload, unreadNodeRequest, type TusAnswer } from './tus-patch';

/** A tus error answer in the API's error shape: thrown from a hook, tus sends it as it is. */
export const tusRefusal = (status_code: number, code: string, message: string, title?: string): TusAnswer => ({
  status_code,
  body: JSON.stringify(title ? { code, message, title } : { code, message }),
});

/** The folders of DATA_DIR where each kind keeps its unfinished uploads, on this instance's disk. */
export const ADMIN_UPLOAD_FOLDERS = ['uploads', 'footage-uploads'] as const;
export type AdminUploadFolder = (typeof ADMIN_UPLOAD_FOLDERS)[number];

export interface AdminTusKind {
  /** The route, e.g. /api/admin/uploads. */
  path: string;
  /** Where unfinished uploads are kept: DATA_DIR/<folder>. */
  folder: AdminUploadFolder;
  maxSize: number;
  /** Checks the client's metadata when an upload starts; returns what to keep (throws a tusRefusal otherwise). */
  accept(metadata: Record<string, string | null>, viewer: Viewer): Promise<Record<string, string>>;
  /** The finished video file becomes this kind's row; returns the JSON answer, or null to refuse it as not a video. */
  finish(file: string, upload: Upload, viewer: Viewer): Promise<Record<string, string> | null>;
  /** The answer to a finished file that is not a video. */
  notVideo: { message: string; title?: string };
  /** The answer to a file that starts as a video but is cut off or damaged (notVideo when absent). */
  damaged?: { message: string; title?: string };
  /** The containers this kind takes (every one media/video-type.ts knows when absent). */
  containers?: ReadonlySet<VideoContainer>;
}

export function createAdminTusUpload(config: Config, kind: AdminTusKind) {
  /** Who is asking, by request: set by the admin guard's route before tus sees the request. */
  const viewers = new WeakMap<object, Viewer>();
  const directory = path.join(config.dataDir, kind.folder);
  const datastore = new FileStore({ directory });
  // One locker for both paths: a PATCH here and a request @tus/server serves never write at once.
  const locker = new MemoryLocker();
  const lockDrainMs = 3000;
  const allowedOrigins = trustedOrigins(config);
  /** The finished file becomes the kind's row, or is refused (and removed) as damaged or not a video. */
  async function finishUpload(upload: Upload, viewer: Viewer): Promise<TusAnswer> {
    const file = path.join(directory, upload.id);
    const container = await readVideoContainer(file);
    const whole = container !== null && (kind.containers?.has(container) ?? true);
    const answer = whole ? await kind.finish(file, upload, viewer).catch(async (refusal: unknown) => {
      // A refusal of the finished file (e.g. its name taken meanwhile) leaves nothing behind.
      await datastore.remove(upload.id).catch(() => {});
      throw refusal;
    }) : null;
    if (!answer) {
      const refusal = container === null && kind.damaged && (await startsLikeVideo(file).catch(() => false)) ? { code: 'DAMAGED_FILE', ...kind.damaged } : { code: 'INVALID_FILE_TYPE', ...kind.notVideo };
      await datastore.remove(upload.id).catch(() => {});
      throw tusRefusal(415, refusal.code, refusal.message, refusal.title);
    }
    await fs.rm(`${file}.json`, { force: true });
    return { status_code: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(answer) };
  }
  const tus = new Server({
    path: kind.path,
    datastore,
    maxSize: kind.maxSize,
    relativeLocation: true,
    allowedOrigins,
    locker,
    lockDrainTimeout: lockDrainMs,
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
      const metadata = await kind.accept(upload.metadata ?? {}, viewer);
      // What this upload may still take: its announced size, or the largest file when it is not announced.
      const reserved = upload.size ?? kind.maxSize;
      const open = (await openUploads(config)).filter((u) => u.uploaderId === viewer.userId).reduce((sum, u) => sum + u.reserved, 0);
      if (open + reserved > config.uploads.openBytesPerAdmin) {
        const { openBytesPerAdmin, abandonAfterMs } = config.uploads;
        throw tusRefusal(413, 'TOO_MANY_OPEN_UPLOADS', ADMIN_UPLOADS.tooMuchOpen(openBytesPerAdmin / 1024 ** 3, abandonAfterMs / 3_600_000), ADMIN_UPLOADS.title);
      }
      // Recorded by the server: the client's word is not taken for who uploads.
      return { metadata: { ...metadata, uploaderId: viewer.userId, reserved: String(reserved) } };
    },
    onUploadFinish: (req, upload) => finishUpload(upload, viewers.get(req)!),
  });
  return {
    directory,
    /** Serves a tus request of an admin (the route has checked that much already). */
    async handle(c: Context<ViewerEnv>): Promise<Response> {
      // tus would stream a finished upload back on GET; nobody needs that, and it is fragile.
      if (c.req.method === 'GET') return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
      const viewer = c.var.viewer;
      // The data path: straight from the Node request to the file. Without one (app.request() in
      // a test), or for a deferred length, @tus/server serves the PATCH as before.
      const incoming = c.req.method === 'PATCH' ? unreadNodeRequest(c.env) : null;
      if (incoming) {
        const answer = await patchUpload(c.req.raw, incoming, {
          directory,
          datastore,
          locker,
          lockDrainMs,
          allowedOrigins,
          owned: (upload) => upload.metadata?.uploaderId === viewer.userId,
          finish: (upload) => finishUpload(upload, viewer),
        });
        if (answer) return answer;
      }
      viewers.set(c.req.raw, viewer);
      return tus.handleWeb(c.req.raw);
    },
  };
}

/** An upload's id as the namingFunction above makes it; the data file and `<id>.json` beside it. */
const UPLOAD_FILE = /^([0-9a-f]{32})(\.json)?$/;

interface OpenUpload {
  directory: string;
  id: string;
  uploaderId: string | null;
  /** The bytes it announced (or may take, when it announced none). */
  reserved: number;
  /** When it last got data (or was created), ms. */
  lastActivity: number;
}

/** Every unfinished upload on this instance's disk, of every kind. */
async function openUploads(config: Pick<Config, 'dataDir'>): Promise<OpenUpload[]> {
  const found: OpenUpload[] = [];
  for (const folder of ADMIN_UPLOAD_FOLDERS) {
    const directory = path.join(config.dataDir, folder);
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => UPLOAD_FILE.exec(n)?.[1]).filter((id): id is string => !!id));
    for (const id of ids) {
      const file = path.join(directory, id);
      const [data, info] = await Promise.all([fs.stat(file).catch(() => null), fs.stat(`${file}.json`).catch(() => null)]);
      if (!data && !info) continue; // finished or removed meanwhile
      const upload = info ? await fs.readFile(`${file}.json`, 'utf8').then((t) => JSON.parse(t) as Partial<Upload>).catch(() => null) : null;
      const announced = Number(upload?.metadata?.reserved ?? upload?.size);
      found.push({
        directory,
        id,
        uploaderId: upload?.metadata?.uploaderId ?? null,
        reserved: Number.isFinite(announced) && announced > 0 ? announced : (data?.size ?? 0),
        lastActivity: Math.max(data?.mtimeMs ?? 0, info?.mtimeMs ?? 0),
      });
    }
  }
  return found;
}

/**
 * Removes the unfinished uploads on this instance's disk that got no data for
 * `config.uploads.abandonAfterMs` (a chunk written touches the file); returns how many. A client
 * coming back to one is answered 404 and starts again.
 */
export async function expireAbandonedUploads(config: Pick<Config, 'dataDir' | 'uploads'>, now = Date.now()): Promise<number> {
  const abandoned = (await openUploads(config)).filter((u) => now - u.lastActivity > config.uploads.abandonAfterMs);
  for (const u of abandoned) {
    const file = path.join(u.directory, u.id);
    await fs.rm(`${file}.json`, { force: true });
    await fs.rm(file, { force: true });
  }
  return abandoned.length;
}

/** Runs `expireAbandonedUploads` every so often (a quarter of the abandon time, 15 minutes at most); returns the stop. */
export function startUploadExpiry(config: Pick<Config, 'dataDir' | 'uploads'>): () => void {
  const every = Math.max(100, Math.min(15 * 60 * 1000, config.uploads.abandonAfterMs / 4));
  const timer = setInterval(() => {
    expireAbandonedUploads(config)
      .then((n) => n && console.log(`[uploads] removed ${n} abandoned upload${n === 1 ? '' : 's'}`))
      .catch((error: Error) => console.error('[uploads] expiry failed:', error.message));
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
