// Game footage uploads: the admin's resumable upload (uploads/admin-tus.ts) with the footage limit
// (FOOTAGE_MAX_GB, several GB) instead of the reel's 500MB. A finished file that is a video
// becomes a footage row of its game and camera, the original in storage, and a
// 'faces.index-footage' job. A camera's name is used once per game: checked when the upload
// starts and again, with the game locked, when it finishes; a file found damaged frees its name
// (the new upload replaces it).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Upload } from '@tus/server';
import { and, eq, isNull } from 'drizzle-orm';
import { cameraKey, nextCameraName } from '../../common/camera-names';
import { isDamagedFootage as isDamaged } from '../../common/footage-state';
import { z } from 'zod';
import { FOOTAGE } from '../../common/admin-messages';
import { hasControlCharacters } from '../../common/schemas';
import type { Viewer } from '../auth/session';
import { audit } from '../audit/log';
import { eventGames, footage } from '../db/schema';
import { publishFootage } from '../faces/indexing';
import type { Db } from '../db/client';
import { createAdminTusUpload, tusRefusal } from '../uploads/admin-tus';
import { rewrapTransportStream } from '../media/ffmpeg';
import { readVideoContainer } from '../media/video-type';
import type { AppDeps } from '../deps';
import { storageKeys } from '../storage/keys';

export const FOOTAGE_UPLOADS_PATH = '/api/admin/footage-uploads';

const metadataSchema = z.object({
  gameId: z.string().min(1).max(200),
  camera: z.string().trim().min(1).max(60).refine((v) => !hasControlCharacters(v)),
  filename: z.string().max(300).refine((v) => !hasControlCharacters(v)).nullish(),
});

export function createFootageUploads(deps: AppDeps) {
  return createAdminTusUpload(deps.config, {
    path: FOOTAGE_UPLOADS_PATH,
    folder: 'footage-uploads',
    maxSize: deps.config.faces.footageMaxBytes,
    notVideo: { message: FOOTAGE.notVideo },
    damaged: { message: FOOTAGE.damaged },
    async accept(metadata) {
      const parsed = metadataSchema.safeParse(metadata);
      if (!parsed.success) throw tusRefusal(400, 'VALIDATION_ERROR', FOOTAGE.invalid);
      const [game] = await deps.db.select({ id: eventGames.id }).from(eventGames).where(and(eq(eventGames.id, parsed.data.gameId), isNull(eventGames.archivedAt)));
      if (!game) throw tusRefusal(404, 'GAME_NOT_FOUND', FOOTAGE.invalid);
      await cameraNameFree(deps.db, parsed.data.gameId, parsed.data.camera);
      return { gameId: parsed.data.gameId, camera: parsed.data.camera, filename: parsed.data.filename ?? '' };
    },
    finish: async (file, upload, viewer) => {
      const footageId = await finishUpload(deps, file, upload, viewer);
      return footageId ? { footageId } : null;
    },
  });
}

/**
 * Refuses a camera name another file of the game has (in any case and spacing), naming the next
 * free one; returns the damaged files of that name, which the new upload replaces.
 */
async function cameraNameFree(db: Db, gameId: string, camera: string): Promise<Array<typeof footage.$inferSelect>> {
  const files = await db.select().from(footage).where(eq(footage.gameId, gameId));
  const same = files.filter((f) => cameraKey(f.camera) === cameraKey(camera));
  const taken = same.find((f) => !isDamaged(f));
  // 422, not 409: tus clients retry a 409 as a passing conflict.
  if (taken) throw tusRefusal(422, 'CAMERA_TAKEN', FOOTAGE.cameraTaken(taken.camera, nextCameraName(files.filter((f) => !isDamaged(f)).map((f) => f.camera))));
  return same;
}

async function finishUpload(deps: AppDeps, file: string, upload: Upload, viewer: Viewer): Promise<string | null> {
  const meta = metadataSchema.parse(upload.metadata);
  const footageId = randomUUID();
  const source = await indexableFile(file);
  try {
    const sizeBytes = source === file ? (upload.size ?? 0) : (await fs.stat(source)).size;
    return await storeFootage(deps, source, sizeBytes, viewer, meta, footageId);
  } finally {
    // A transport stream goes once its MOV is stored, and the MOV too where storing it failed.
    if (source !== file) await Promise.all([fs.rm(file, { force: true }), fs.rm(source, { force: true })]);
  }
}

/**
 * The file to store: the upload itself, or, for a camera's MPEG transport stream, the same
 * pictures and sound rewrapped as MOV beside it (media/ffmpeg.ts rewrapTransportStream), since
 * a transport stream cannot be read from a chosen moment exactly. A stream that cannot be
 * rewrapped is refused as damaged, to upload again.
 */
async function indexableFile(file: string): Promise<string> {
  const container = await readVideoContainer(file);
  if (container !== 'ts' && container !== 'm2ts') return file;
  const rewrapped = `${file}.mov`;
  try {
    await rewrapTransportStream(file, rewrapped);
  } catch {
    await fs.rm(rewrapped, { force: true });
    throw tusRefusal(415, 'DAMAGED_FILE', FOOTAGE.damaged);
  }
  return rewrapped;
}

async function storeFootage(deps: AppDeps, file: string, sizeBytes: number, viewer: Viewer, meta: z.infer<typeof metadataSchema>, footageId: string): Promise<string | null> {
  const stored = await deps.db.transaction(async (tx) => {
    // Locked: two uploads finishing at once for the same camera cannot both pass the check.
    const [game] = await tx.select().from(eventGames).where(eq(eventGames.id, meta.gameId)).for('update');
    if (!game) return null;
    const replaced = await cameraNameFree(tx, game.id, meta.camera);
    const sourceKey = storageKeys.footage(game.eventId, footageId);
    await deps.storage.putFile(sourceKey, file, 'application/octet-stream', { move: true });
    for (const old of replaced) await tx.delete(footage).where(eq(footage.id, old.id));
    await tx.insert(footage).values({
      id: footageId,
      eventId: game.eventId,
      gameId: game.id,
      camera: meta.camera,
      originalName: meta.filename || null,
      sourceKey,
      sizeBytes,
      uploadedBy: viewer.userId,
    });
    return { game, replaced };
  });
  if (!stored) return null;
  const { game, replaced } = stored;
  for (const old of replaced) await deps.storage.delete(old.sourceKey).catch(() => {});
  await deps.jobs.send('faces.index-footage', { footageId }, { id: footageId });
  await audit(deps.db, { actorId: viewer.userId, action: 'footage.upload', subjectUserId: null, details: { footageId, gameId: game.id, camera: meta.camera, replaced: replaced.map((r) => r.id) } });
  await publishFootage(deps, game.eventId, footageId);
  return footageId;
}
