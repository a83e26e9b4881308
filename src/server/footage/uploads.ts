// Game footage uploads: the admin's resumable upload (http/admin-tus.ts) with the footage limit
// (FOOTAGE_MAX_GB, several GB) instead of the reel's 500MB. A finished file that is a video
// becomes a footage row of its game and camera, the original in storage, and a
// 'faces.index-footage' job.
import { randomUUID } from 'node:crypto';
import type { Upload } from '@tus/server';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { FOOTAGE } from '../../common/admin-messages';
import { hasControlCharacters } from '../../common/schemas';
import type { Viewer } from '../auth/session';
import { audit } from '../audit/log';
import { eventGames, footage } from '../db/schema';
import { publishFootage } from '../faces/indexing';
import { createAdminTusUpload, tusRefusal } from '../http/admin-tus';
import type { AppDeps } from '../http/deps';
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
    async accept(metadata) {
      const parsed = metadataSchema.safeParse(metadata);
      if (!parsed.success) throw tusRefusal(400, 'VALIDATION_ERROR', FOOTAGE.invalid);
      const [game] = await deps.db.select({ id: eventGames.id }).from(eventGames).where(and(eq(eventGames.id, parsed.data.gameId), isNull(eventGames.archivedAt)));
      if (!game) throw tusRefusal(404, 'GAME_NOT_FOUND', FOOTAGE.invalid);
      return { gameId: parsed.data.gameId, camera: parsed.data.camera, filename: parsed.data.filename ?? '' };
    },
    finish: async (file, upload, viewer) => {
      const footageId = await finishUpload(deps, file, upload, viewer);
      return footageId ? { footageId } : null;
    },
  });
}

async function finishUpload(deps: AppDeps, file: string, upload: Upload, viewer: Viewer): Promise<string | null> {
  const meta = metadataSchema.parse(upload.metadata);
  const [game] = await deps.db.select().from(eventGames).where(eq(eventGames.id, meta.gameId));
  if (!game) return null;
  const footageId = randomUUID();
  const sourceKey = storageKeys.footage(game.eventId, footageId);
  await deps.storage.putFile(sourceKey, file, 'application/octet-stream', { move: true });
  await deps.db.insert(footage).values({
    id: footageId,
    eventId: game.eventId,
    gameId: game.id,
    camera: meta.camera,
    originalName: meta.filename || null,
    sourceKey,
    sizeBytes: upload.size ?? 0,
    uploadedBy: viewer.userId,
  });
  await deps.jobs.send('faces.index-footage', { footageId }, { id: footageId });
  await audit(deps.db, { actorId: viewer.userId, action: 'footage.upload', subjectUserId: null, details: { footageId, gameId: game.id, camera: meta.camera } });
  await publishFootage(deps, game.eventId, footageId);
  return footageId;
}
