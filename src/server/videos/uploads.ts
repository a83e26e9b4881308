// Admins upload a video for an athlete resumably (uploads/admin-tus.ts: the admin check and the
// 500MB limit before a byte is stored, DATA_DIR/uploads, only MP4, MOV or WebM by its structure). A
// finished upload becomes a video row and the original in storage, and a 'media.process-video'
// job takes it from there. See docs/decisions/0008.
import { randomUUID } from 'node:crypto';
import type { Upload } from '@tus/server';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ADMIN } from '../../common/admin-messages';
import { VIDEO_MAX_BYTES } from '../../common/constants';
import { hasControlCharacters } from '../../common/schemas';
import { DELIVERABLE_CONTAINERS } from '../media/video-type';
import type { Viewer } from '../auth/session';
import { audit } from '../audit/log';
import { highlightRequests, user, userVideos } from '../db/schema';
import { createAdminTusUpload, tusRefusal } from '../uploads/admin-tus';
import type { AppDeps } from '../deps';
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

export function createVideoUploads(deps: AppDeps) {
  return createAdminTusUpload(deps.config, {
    path: UPLOADS_PATH,
    folder: 'uploads',
    maxSize: VIDEO_MAX_BYTES,
    notVideo: { message: ADMIN.video.invalidTypeText, title: ADMIN.video.invalidType },
    containers: DELIVERABLE_CONTAINERS,
    async accept(metadata) {
      const parsed = metadataSchema.safeParse(metadata);
      if (!parsed.success) {
        const titleIssue = parsed.error.issues.some((i) => i.path[0] === 'title');
        throw titleIssue
          ? tusRefusal(400, 'TITLE_REQUIRED', ADMIN.video.titleRequired, ADMIN.video.uploadFailed)
          : tusRefusal(400, 'VALIDATION_ERROR', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
      }
      const [athlete] = await deps.db.select({ id: user.id }).from(user).where(eq(user.id, parsed.data.userId));
      if (!athlete) throw tusRefusal(404, 'USER_NOT_FOUND', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
      if (parsed.data.requestId) {
        const [request] = await deps.db
          .select({ id: highlightRequests.id })
          .from(highlightRequests)
          .where(and(eq(highlightRequests.id, parsed.data.requestId), eq(highlightRequests.userId, athlete.id)));
        if (!request) throw tusRefusal(400, 'REQUEST_NOT_FOUND', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
      }
      return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Record<string, string>;
    },
    finish: async (file, upload, viewer) => ({ videoId: await finishUpload(deps, file, upload, viewer) }),
  });
}

/** The finished video becomes a video row, the original in storage, and a processing job. */
async function finishUpload(deps: AppDeps, file: string, upload: Upload, viewer: Viewer): Promise<string> {
  const meta = metadataSchema.parse(upload.metadata);
  const paid = meta.paid === 'true';
  const videoId = randomUUID();
  const sourceKey = storageKeys.videoSource(meta.userId, videoId);
  // The original moves into storage first, so the row never points at something missing.
  await deps.storage.putFile(sourceKey, file, 'application/octet-stream', { move: true });
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
