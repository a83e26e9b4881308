// The review's picture of a clip that has no face thumbnail (a clip added by hand whose athlete
// was not found in the index): a frame of the footage from the middle of the clip, made by ffmpeg
// the first time an admin's screen asks for it and kept in private storage next to the footage,
// under a key made from the clip's id. A trim or taking the clip out deletes it (review.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../db/client';
import { isUuid } from '../db/errors';
import { appearances, footage } from '../db/schema';
import { extractFrame } from '../media/ffmpeg';
import { openStoredVideo } from '../media/stored-video';
import type { Storage } from '../storage/storage';
import { workFolder } from '../jobs/leftovers';

/** Beside the event's footage in the never-served game-footage bucket (only the admin route reads it). */
export const clipThumbnailKey = (eventId: string, appearanceId: string) => `game-footage/${eventId}/clip-${appearanceId}.jpg`;

/** The thumbnail's URL on the review, changing with the clip's span so the browser asks again after a trim. */
export const clipThumbnailUrl = (requestId: string, clip: { id: string; startS: number; endS: number }) =>
  `/api/admin/requests/${requestId}/clips/${clip.id}/thumbnail?span=${clip.startS}-${clip.endS}`;

/** One ffmpeg run per thumbnail at a time, however many screens ask at once. */
const making = new Map<string, Promise<void>>();

/** A frame of a footage file as a JPEG at most `side` pixels wide or high, without any metadata. */
export async function footageFrameJpeg(storage: Storage, sourceKey: string, atSeconds: number, side: number): Promise<Buffer> {
  // In the bucket, ffmpeg reads the index and the frame's few megabytes, not the camera-hour.
  const source = await openStoredVideo(storage, sourceKey);
  if (!source) throw new Error('The footage is missing.');
  const work = await workFolder('clip-thumb').catch(async (err) => {
    await source.close();
    throw err;
  });
  try {
    const frame = path.join(work, 'frame.jpg');
    await extractFrame(source.input, frame, atSeconds);
    return await sharp(frame).resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  } finally {
    await source.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function makeThumbnail(storage: Storage, key: string, sourceKey: string, atSeconds: number) {
  // Small, like the face thumbnails.
  await storage.put(key, await footageFrameJpeg(storage, sourceKey, atSeconds, 320), 'image/jpeg');
}

/**
 * The stored thumbnail's key for a clip of the request, made now when there is none; null when
 * the request has no such clip.
 */
export async function clipThumbnail(deps: { db: Db; storage: Storage }, requestId: string, appearanceId: string): Promise<string | null> {
  if (!isUuid(requestId) || !isUuid(appearanceId)) return null;
  const [clip] = await deps.db
    .select({ id: appearances.id, startS: appearances.startS, endS: appearances.endS, eventId: footage.eventId, sourceKey: footage.sourceKey })
    .from(appearances)
    .innerJoin(footage, eq(footage.id, appearances.footageId))
    .where(and(eq(appearances.id, appearanceId), eq(appearances.requestId, requestId)));
  if (!clip) return null;
  const key = clipThumbnailKey(clip.eventId, clip.id);
  if (await deps.storage.stat(key)) return key;
  let pending = making.get(key);
  if (!pending) {
    pending = makeThumbnail(deps.storage, key, clip.sourceKey, clip.startS + (clip.endS - clip.startS) / 2).finally(() => making.delete(key));
    making.set(key, pending);
  }
  await pending;
  return key;
}
