// An admin's stills for a user (the spec's stills dialog): up to 3 photos, JPG/PNG/WebP judged by
// their bytes, 5MB each, re-encoded without metadata. They replace the user's stills as a whole:
// the new files are written first, then one transaction swaps the rows, then the old files go.
// A failure anywhere before the swap leaves the old set exactly as it was.
import { and, eq, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import { ADMIN } from '../../common/admin-messages';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { userStills } from '../db/schema';
import type { EventBus } from '../realtime/bus';
import { storageKeys } from '../storage/keys';
import type { Storage } from '../storage/storage';

export const STILLS_MAX_FILES = 3;
export const STILL_MAX_BYTES = 5 * 1024 * 1024;
const ACCEPTED = new Set(['jpeg', 'png', 'webp']);
/** Full resolution, up to what any camera makes; anything bigger is a decompression bomb. */
const MAX_PIXELS = 60_000_000;

export class StillsRejected extends Error {
  constructor(
    readonly title: string,
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
  }
}

export interface StillUpload {
  name: string;
  bytes: Buffer;
}

async function encode(file: StillUpload): Promise<Buffer> {
  if (file.bytes.length > STILL_MAX_BYTES) throw new StillsRejected(ADMIN.stills.invalidType, ADMIN.stills.tooLarge, 413);
  let format: string | undefined;
  try {
    format = (await sharp(file.bytes, { limitInputPixels: MAX_PIXELS }).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !ACCEPTED.has(format)) throw new StillsRejected(ADMIN.stills.invalidType, ADMIN.stills.heic);
  return sharp(file.bytes, { limitInputPixels: MAX_PIXELS }).rotate().jpeg({ quality: 92, mozjpeg: true }).toBuffer();
}

export async function replaceStills(
  deps: { db: Db; storage: Storage; bus: EventBus },
  userId: string,
  files: StillUpload[],
  adminId: string,
): Promise<number> {
  if (files.length === 0) throw new StillsRejected(ADMIN.stills.noFiles, ADMIN.stills.noFilesText);
  if (files.length > STILLS_MAX_FILES) throw new StillsRejected(ADMIN.stills.tooMany, ADMIN.stills.tooManyText);
  const encoded = await Promise.all(files.map(encode));

  const written: string[] = [];
  try {
    for (const data of encoded) {
      const key = storageKeys.still(userId, 'jpg');
      await deps.storage.put(key, data, 'image/jpeg');
      written.push(key);
    }
    const old = await deps.db.transaction(async (tx) => {
      // Stills a reel render picked stay: they belong to that render (reels/render-job.ts).
      const previous = await tx.delete(userStills).where(and(eq(userStills.userId, userId), isNull(userStills.renderId))).returning({ key: userStills.storageUrl });
      await tx.insert(userStills).values(
        written.map((key, i) => ({ userId, storageUrl: key, originalFilename: cleanName(files[i]!.name), orderPosition: i })),
      );
      return previous;
    });
    for (const { key } of old) {
      await deps.storage.delete(key).catch((e: Error) => console.error('[stills] could not remove', key, e.message));
    }
  } catch (error) {
    await Promise.all(written.map((k) => deps.storage.delete(k).catch(() => {})));
    throw error;
  }
  await audit(deps.db, { actorId: adminId, action: 'stills.replace', subjectUserId: userId, details: { count: written.length } });
  await deps.bus.publish({ topic: 'user_stills', userId, action: 'update' });
  return written.length;
}

/** A download name: the original's, without a path or odd characters, saved as .jpg. */
function cleanName(name: string): string {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '').replace(/[^\w .()-]+/g, ' ').trim().slice(0, 100);
  return `${base || 'photo'}.jpg`;
}
