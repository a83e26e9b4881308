// Game footage uploads: the same resumable tus upload as the admin's reel upload (videos/
// uploads.ts), with the footage limit (FOOTAGE_MAX_GB, several GB) instead of the reel's 500MB.
// A finished file that is a video becomes a footage row of its game and camera, the original in
// storage, and a 'faces.index-footage' job.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { and, eq, isNull } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { FOOTAGE } from '../../common/admin-messages';
import { hasControlCharacters } from '../../common/schemas';
import { trustedOrigins } from '../auth/auth';
import type { Viewer, ViewerEnv } from '../auth/session';
import { audit } from '../audit/log';
import { eventGames, footage } from '../db/schema';
import { publishFootage } from '../faces/indexing';
import type { AppDeps } from '../http/deps';
import { sniffVideoContainer } from '../media/video-type';
import { storageKeys } from '../storage/keys';

export const FOOTAGE_UPLOADS_PATH = '/api/admin/footage-uploads';

const metadataSchema = z.object({
  gameId: z.string().min(1).max(200),
  camera: z.string().trim().min(1).max(60).refine((v) => !hasControlCharacters(v)),
  filename: z.string().max(300).refine((v) => !hasControlCharacters(v)).nullish(),
});

const refusal = (status_code: number, code: string, message: string) => ({ status_code, body: JSON.stringify({ code, message }) });

export function createFootageUploads(deps: AppDeps) {
  const directory = path.join(deps.config.dataDir, 'footage-uploads');
  const viewers = new WeakMap<object, Viewer>();
  const datastore = new FileStore({ directory });
  const tus = new Server({
    path: FOOTAGE_UPLOADS_PATH,
    datastore,
    maxSize: deps.config.faces.footageMaxBytes,
    relativeLocation: true,
    allowedOrigins: trustedOrigins(deps.config),
    namingFunction: () => randomUUID().replace(/-/g, ''),
    disableTerminationForFinishedUploads: true,
    async onIncomingRequest(req, uploadId) {
      const viewer = viewers.get(req);
      if (!viewer) throw refusal(401, 'UNAUTHENTICATED', 'Please log in to continue.');
      if (req.method === 'POST') return;
      const upload = await datastore.getUpload(uploadId).catch(() => null);
      if (!upload || upload.metadata?.uploaderId !== viewer.userId) throw refusal(404, 'NOT_FOUND', 'Not found');
    },
    async onUploadCreate(req, upload) {
      const viewer = viewers.get(req)!;
      const parsed = metadataSchema.safeParse(upload.metadata ?? {});
      if (!parsed.success) throw refusal(400, 'VALIDATION_ERROR', FOOTAGE.invalid);
      const [game] = await deps.db.select({ id: eventGames.id }).from(eventGames).where(and(eq(eventGames.id, parsed.data.gameId), isNull(eventGames.archivedAt)));
      if (!game) throw refusal(404, 'GAME_NOT_FOUND', FOOTAGE.invalid);
      return { metadata: { gameId: parsed.data.gameId, camera: parsed.data.camera, filename: parsed.data.filename ?? '', uploaderId: viewer.userId } };
    },
    async onUploadFinish(req, upload) {
      const viewer = viewers.get(req)!;
      const footageId = await finishUpload(deps, directory, upload, viewer);
      if (!footageId) {
        await datastore.remove(upload.id).catch(() => {});
        throw refusal(415, 'INVALID_FILE_TYPE', FOOTAGE.notVideo);
      }
      return { status_code: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ footageId }) };
    },
  });
  return {
    async handle(c: Context<ViewerEnv>): Promise<Response> {
      if (c.req.method === 'GET') return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
      viewers.set(c.req.raw, c.var.viewer);
      return tus.handleWeb(c.req.raw);
    },
  };
}

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
  const [game] = await deps.db.select().from(eventGames).where(eq(eventGames.id, meta.gameId));
  if (!game) return null;
  const footageId = randomUUID();
  const sourceKey = storageKeys.footage(game.eventId, footageId);
  await deps.storage.putFile(sourceKey, file, 'application/octet-stream', { move: true });
  await fs.rm(`${file}.json`, { force: true });
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
