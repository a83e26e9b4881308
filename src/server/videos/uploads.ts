// Admins upload a video for an athlete resumably, with the tus protocol (@tus/server inside
// Hono, tus-js-client in the dialog). The admin check and the 500MB limit apply before a byte is
// stored; an upload is only ever continued by the admin who started it; the bytes stream to
// disk (DATA_DIR/uploads) and never sit in memory. A finished upload is checked by its first
// bytes (MP4, MOV or WebM), becomes a video row and the original in storage, and a
// 'media.process-video' job takes it from there. See docs/decisions/0008.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { ADMIN } from '../../common/admin-messages';
import { VIDEO_MAX_BYTES } from '../../common/constants';
import { hasControlCharacters } from '../../common/schemas';
import { trustedOrigins } from '../auth/auth';
import type { Viewer, ViewerEnv } from '../auth/session';
import { audit } from '../audit/log';
import { highlightRequests, user, userVideos } from '../db/schema';
import type { AppDeps } from '../http/deps';
import { sniffVideoContainer } from '../media/video-type';
import { storageKeys } from '../storage/keys';

export const UPLOADS_PATH = '/api/admin/uploads';

/** An optional text: tus sends a key without a value (an empty field) as null. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !hasControlCharacters(v))
    .nullish()
    .transform((v) => v ?? undefined);
/** What the dialog sends with an upload (tus Upload-Metadata). */
const metadataSchema = z.object({
  userId: z.string().min(1).max(200),
  title: z
    .string({ error: ADMIN.video.titleRequired })
    .trim()
    .min(1, ADMIN.video.titleRequired)
    .max(200)
    .refine((v) => !hasControlCharacters(v), ADMIN.video.titleRequired),
  description: text(2000),
  tournament: text(200),
  paid: z.enum(['true', 'false']),
  filename: text(300),
  /** The request a Not Yet Paid video belongs to: buying it unlocks the video. */
  requestId: z
    .string()
    .uuid()
    .nullish()
    .transform((v) => v ?? undefined),
});

/** A tus error answer in the API's error shape. */
const refusal = (status_code: number, code: string, message: string, title?: string) => ({
  status_code,
  body: JSON.stringify(title ? { code, message, title } : { code, message }),
});

export function createVideoUploads(deps: AppDeps) {
  const directory = path.join(deps.config.dataDir, 'uploads');
  /** Who is asking, by request: set by the admin guard's route before tus sees the request. */
  const viewers = new WeakMap<object, Viewer>();
  const datastore = new FileStore({ directory });

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore,
    maxSize: VIDEO_MAX_BYTES,
    relativeLocation: true,
    allowedOrigins: trustedOrigins(deps.config),
    namingFunction: () => randomUUID().replace(/-/g, ''),
    disableTerminationForFinishedUploads: true,
    async onIncomingRequest(req, uploadId) {
      const viewer = viewers.get(req);
      if (!viewer) throw refusal(401, 'UNAUTHENTICATED', 'Please log in to continue.');
      if (req.method === 'POST') return;
      // Someone else's upload answers exactly like a missing one.
      const upload = await datastore.getUpload(uploadId).catch(() => null);
      if (!upload || upload.metadata?.uploaderId !== viewer.userId) throw refusal(404, 'NOT_FOUND', 'Not found');
    },
    async onUploadCreate(req, upload) {
      const viewer = viewers.get(req)!;
      const parsed = metadataSchema.safeParse(upload.metadata ?? {});
      if (!parsed.success) {
        const titleIssue = parsed.error.issues.some((i) => i.path[0] === 'title');
        throw titleIssue
          ? refusal(400, 'TITLE_REQUIRED', ADMIN.video.titleRequired, ADMIN.video.uploadFailed)
          : refusal(400, 'VALIDATION_ERROR', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
      }
      const [athlete] = await deps.db.select({ id: user.id }).from(user).where(eq(user.id, parsed.data.userId));
      if (!athlete) throw refusal(404, 'USER_NOT_FOUND', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
      if (parsed.data.requestId) {
        const [request] = await deps.db
          .select({ id: highlightRequests.id })
          .from(highlightRequests)
          .where(and(eq(highlightRequests.id, parsed.data.requestId), eq(highlightRequests.userId, athlete.id)));
        if (!request) throw refusal(400, 'REQUEST_NOT_FOUND', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
      }
      // Recorded by the server: the client's word is not taken for who uploads.
      const clean = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Record<string, string>;
      return { metadata: { ...clean, uploaderId: viewer.userId } };
    },
    async onUploadFinish(req, upload) {
      const viewer = viewers.get(req)!;
      const videoId = await finishUpload(deps, directory, upload, viewer);
      if (!videoId) {
        await datastore.remove(upload.id).catch(() => {});
        throw refusal(415, 'INVALID_FILE_TYPE', ADMIN.video.invalidTypeText, ADMIN.video.invalidType);
      }
      return { status_code: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ videoId }) };
    },
  });

  return {
    directory,
    /** Serves a tus request of an admin (the route has checked that much already). */
    async handle(c: Context<ViewerEnv>): Promise<Response> {
      // tus would stream a finished upload back on GET; nobody needs that, and it is fragile.
      if (c.req.method === 'GET') return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
      viewers.set(c.req.raw, c.var.viewer);
      return tus.handleWeb(c.req.raw);
    },
  };
}

/** The finished upload becomes a video row, the original in storage, and a processing job. Null when it is not a video. */
async function finishUpload(deps: AppDeps, directory: string, upload: Upload, viewer: Viewer): Promise<string | null> {
  const file = path.join(directory, upload.id);
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(64);
  try {
    await handle.read(head, 0, 64, 0);
  } finally {
    await handle.close();
  }
  if (!sniffVideoContainer(head)) return null;

  const meta = metadataSchema.parse(upload.metadata);
  const paid = meta.paid === 'true';
  const videoId = randomUUID();
  const sourceKey = storageKeys.videoSource(meta.userId, videoId);
  // The original moves into storage first, so the row never points at something missing.
  await deps.storage.putFile(sourceKey, file, 'application/octet-stream', { move: true });
  await fs.rm(`${file}.json`, { force: true });
  await deps.db.insert(userVideos).values({
    id: videoId,
    userId: meta.userId,
    videoTitle: meta.title.trim(),
    videoDescription: meta.description?.trim() || null,
    tournamentName: meta.tournament?.trim() || null,
    videoType: 'highlight_reel',
    // The spec's choice: Already Paid shows it at once, Not Yet Paid keeps it hidden until payment.
    isPaid: paid,
    isVisible: paid,
    processingState: 'queued',
    processingProgress: 0,
    sourceKey,
    uploadedBy: viewer.userId,
    requestId: meta.requestId ?? null,
    fileSizeMb: Math.round(((upload.size ?? 0) / (1024 * 1024)) * 100) / 100,
  });
  await deps.jobs.send('media.process-video', { videoId, uploadKey: sourceKey }, { id: videoId });
  await audit(deps.db, { actorId: viewer.userId, action: 'video.upload', subjectUserId: meta.userId, details: { videoId, title: meta.title, paid } });
  await deps.bus.publish({ topic: 'user_videos', userId: meta.userId, action: 'insert', id: videoId });
  return videoId;
}
