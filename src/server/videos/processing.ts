// The 'media.process-video' job: an uploaded original becomes the athlete's playable video.
// Probed with ffprobe (duration, size, orientation), stripped of every piece of metadata (GPS
// above all), made web-playable (stream copy when it already is), given a thumbnail, and only
// then pointed to by the video row. Running it again after a crash writes the same files and the
// same row once more; after success there is nothing left to do and it says so.
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull, lt } from 'drizzle-orm';
import { userVideos } from '../db/schema';
import type { AppDeps } from '../deps';
import type { JobHandler } from '../jobs/queue';
import { extractFrame, makeWebVideo, probeVideo } from '../media/ffmpeg';
import { reencodeImage } from '../media/images';
import { openStoredVideo, type StoredVideo } from '../media/stored-video';
import { storageKeys } from '../storage/keys';
import { workFolder } from '../jobs/leftovers';

const PROGRESS_EVERY_MS = 1500;

export function processVideo(deps: Pick<AppDeps, 'db' | 'storage' | 'bus'>): JobHandler<'media.process-video'> {
  const { db, storage, bus } = deps;
  return async ({ videoId, uploadKey }, ctx) => {
    const [video] = await db.select().from(userVideos).where(eq(userVideos.id, videoId));
    if (!video) return 'skipped'; // deleted while it waited
    if (video.processingState === 'ready' && video.videoUrl) return 'skipped';

    const update = async (values: Partial<typeof userVideos.$inferInsert>) => {
      await db.update(userVideos).set(values).where(eq(userVideos.id, videoId));
      await bus.publish({ topic: 'user_videos', userId: video.userId, action: 'update', id: videoId });
    };
    const work = await workFolder('video');
    let stored: StoredVideo | null = null;
    try {
      await update({ processingState: 'processing', processingProgress: 0, processingError: null });
      // Read where it lies, or from the bucket by range as ffmpeg goes (media/stored-video.ts).
      stored = await openStoredVideo(storage, uploadKey);
      if (!stored) throw new Error('The uploaded file is missing.');
      const source = stored.input;
      const probe = await probeVideo(source);
      const output = path.join(work, 'video.mp4');
      let lastReport = 0;
      await makeWebVideo(source, output, probe, (fraction) => {
        const now = Date.now();
        if (now - lastReport < PROGRESS_EVERY_MS) return;
        lastReport = now;
        void update({ processingProgress: Math.min(99, Math.round(fraction * 100)) }).catch(() => {});
        void ctx.heartbeat().catch(() => {});
      });
      const frame = path.join(work, 'frame.jpg');
      await extractFrame(output, frame, Math.min(1, probe.durationSeconds / 3));
      const thumbnail = await reencodeImage(await fs.readFile(frame), { maxBytes: 10 * 1024 * 1024, maxDimension: 1280 });

      const videoKey = storageKeys.video(video.userId, videoId, 'mp4');
      const size = (await fs.stat(output)).size;
      await storage.putFile(videoKey, output, 'video/mp4', { move: true });
      // A thumbnail the athlete picked stays; otherwise the frame chosen here.
      const thumbnailKey = video.thumbnailUrl ?? storageKeys.videoAutoThumbnail(video.userId, videoId);
      if (!video.thumbnailUrl) await storage.put(thumbnailKey, thumbnail.data, thumbnail.contentType);
      await update({
        videoUrl: videoKey,
        thumbnailUrl: thumbnailKey,
        durationSeconds: Math.round(probe.durationSeconds * 10) / 10,
        fileSizeMb: Math.round((size / (1024 * 1024)) * 100) / 100,
        width: probe.width,
        height: probe.height,
        isProcessed: true,
        processingState: 'ready',
        processingProgress: 100,
        processingError: null,
        sourceKey: null,
      });
      await storage.delete(uploadKey).catch((e: Error) => console.warn('[videos] could not remove the original', uploadKey, e.message));
      return 'done';
    } catch (error) {
      await update({ processingState: ctx.lastAttempt ? 'failed' : 'queued', processingError: (error as Error).message.slice(0, 500) }).catch(() => {});
      throw error;
    } finally {
      await stored?.close();
      await fs.rm(work, { recursive: true, force: true });
    }
  };
}

/**
 * A video whose upload finished but whose job was never stored (the process stopped in between)
 * gets its job now. Sending with the video's id as the job's id makes this harmless when the job
 * is there after all.
 */
export async function requeueStuckVideos(deps: Pick<AppDeps, 'db' | 'jobs'>): Promise<number> {
  const stuck = await deps.db
    .select({ id: userVideos.id, sourceKey: userVideos.sourceKey })
    .from(userVideos)
    .where(and(eq(userVideos.processingState, 'queued'), isNotNull(userVideos.sourceKey), lt(userVideos.createdAt, new Date(Date.now() - 60_000))));
  for (const video of stuck) {
    await deps.jobs.send('media.process-video', { videoId: video.id, uploadKey: video.sourceKey! }, { id: video.id });
  }
  return stuck.length;
}
