// The athlete's videos: listing what they may watch, streaming, downloading, thumbnails.
import { and, desc, eq, sql } from 'drizzle-orm';
import { THUMBNAIL_MAX_BYTES } from '../../common/constants';
import { audit } from '../audit/log';
import type { Viewer } from '../auth/session';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { isUuid } from '../db/errors';
import { userVideos } from '../db/schema';
import { reencodeImage } from '../media/images';
import type { EventBus } from '../realtime/bus';
import { mediaUrl, storageKeys } from '../storage/keys';
import type { Storage } from '../storage/storage';

export type VideoRow = typeof userVideos.$inferSelect;

export function toVideoDto(row: VideoRow) {
  const playable = Boolean(row.videoUrl);
  return {
    id: row.id,
    title: row.videoTitle,
    description: row.videoDescription,
    opponent: row.opponent,
    tournamentName: row.tournamentName,
    videoType: row.videoType,
    durationSeconds: row.durationSeconds,
    fileSizeMb: row.fileSizeMb,
    orientation: row.width && row.height && row.height > row.width ? ('vertical' as const) : ('horizontal' as const),
    streamUrl: playable ? `/api/videos/${row.id}/stream` : null,
    downloadUrl: playable ? `/api/videos/${row.id}/download` : null,
    thumbnailUrl: mediaUrl(row.thumbnailUrl),
    createdAt: row.createdAt.toISOString(),
  };
}
export type VideoDto = ReturnType<typeof toVideoDto>;

/** Visible, active videos of a user: newest first, horizontal before vertical. */
const visibleVideosOf = preparedQuery((db) =>
  db
    .select()
    .from(userVideos)
    .where(and(eq(userVideos.userId, sql.placeholder('userId')), eq(userVideos.isVisible, true), eq(userVideos.status, 'active')))
    .orderBy(sql`case when ${userVideos.height} > ${userVideos.width} then 1 else 0 end`, desc(userVideos.createdAt))
    .prepare('visible_videos_of_user'),
);

export async function listVisibleVideos(db: Db, userId: string): Promise<VideoRow[]> {
  return visibleVideosOf(db).execute({ userId });
}

/** The video if `viewer` may watch it: the owner when it is visible and active, or an admin. */
export async function findWatchableVideo(db: Db, viewer: Viewer, videoId: string): Promise<VideoRow | null> {
  if (!isUuid(videoId)) return null;
  const [row] = await db.select().from(userVideos).where(eq(userVideos.id, videoId));
  if (!row) return null;
  if (viewer.isAdmin) return row;
  const visible = row.userId === viewer.userId && row.isVisible && row.status === 'active';
  return visible ? row : null;
}

export async function saveThumbnail(
  deps: { db: Db; storage: Storage; bus: EventBus },
  video: VideoRow,
  bytes: Buffer,
): Promise<VideoRow> {
  const image = await reencodeImage(bytes, { maxBytes: THUMBNAIL_MAX_BYTES, maxDimension: 1920 });
  const key = storageKeys.videoThumbnail(video.userId, video.id);
  await deps.storage.put(key, image.data, image.contentType);
  let row: VideoRow | undefined;
  try {
    [row] = await deps.db.update(userVideos).set({ thumbnailUrl: key }).where(eq(userVideos.id, video.id)).returning();
  } catch (error) {
    await deps.storage.delete(key).catch(() => {});
    throw error;
  }
  if (video.thumbnailUrl && video.thumbnailUrl !== key) await deps.storage.delete(video.thumbnailUrl).catch(() => {});
  await deps.bus.publish({ topic: 'user_videos', userId: video.userId, action: 'update', id: video.id });
  return row!;
}

/**
 * An admin deletes a video: the row goes first (so nothing ever points at a missing file), then
 * its files; a file that cannot be removed is logged and left for no one to reach.
 */
export async function deleteVideo(deps: { db: Db; storage: Storage; bus: EventBus }, videoId: string, adminId: string): Promise<VideoRow | null> {
  if (!isUuid(videoId)) return null;
  const [row] = await deps.db.delete(userVideos).where(eq(userVideos.id, videoId)).returning();
  if (!row) return null;
  for (const key of [row.videoUrl, row.thumbnailUrl, row.sourceKey, storageKeys.videoAutoThumbnail(row.userId, row.id)]) {
    if (!key) continue;
    await deps.storage.delete(key).catch((e: Error) => console.error(`[videos] ${row.id}: could not remove ${key}:`, e.message));
  }
  await audit(deps.db, { actorId: adminId, action: 'video.delete', subjectUserId: row.userId, details: { videoId, title: row.videoTitle } });
  await deps.bus.publish({ topic: 'user_videos', userId: row.userId, action: 'delete', id: row.id });
  return row;
}
