// Issue 22, item 9 on the server: a clip added by hand gets a thumbnail (a frame from the middle
// of the clip, made by ffmpeg, kept in private storage under the clip's id, served to admins only
// and made again after a trim), and the review says where the reel stands for the header.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW } from '../../src/common/admin-messages';
import { appearances, eventGames, events, footage, highlightRequests, orders, reelRenders } from '../../src/server/db/schema';
import { clipThumbnailKey } from '../../src/server/reels/clip-thumbnail';
import { reviewStage } from '../../src/server/reels/review';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin, storageOf } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { insertRequest } from '../support/purchase';
import { startTestS3 } from '../support/s3';

const run = promisify(execFile);
let app: TestApp;
let admin: { cookie: string; userId: string };
let family: { cookie: string; userId: string };
let stranger: { cookie: string; userId: string };
let requestId: string;
let otherRequestId: string;
let footageId: string;
const eventId = `thumbs-${randomUUID().slice(0, 8)}`;
const gameId = `${eventId}-g1`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-review-screen-'));

interface ReviewBody {
  request: { stage: string; paid: boolean };
  clips: Array<{ id: string; manual: boolean; thumbnailUrl: string | null; startS: number; endS: number }>;
}
const review = async (id = requestId) => jsonOf<ReviewBody>(await app.fetch(`/api/admin/requests/${id}/review`, { cookie: admin.cookie }));

/** The thumbnail's mean colour: red for the footage's first 3 seconds, blue after. */
async function meanColour(bytes: Buffer) {
  const { channels } = await sharp(bytes).stats();
  return { r: channels[0]!.mean, b: channels[2]!.mean };
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Rita Reviewer' });
  await makeAdmin(app, admin.userId);
  family = await createVerifiedUser(app, { fullName: 'Fay Family' });
  stranger = await createVerifiedUser(app, { fullName: 'Other Parent' });
  await app.db.insert(events).values({ id: eventId, name: 'Thumbs Cup', location: 'Austin', dates: 'May 1' });
  await app.db.insert(eventGames).values({ id: gameId, eventId, label: 'Game 1', position: 1 });
  requestId = await insertRequest(app, family.userId);
  otherRequestId = await insertRequest(app, stranger.userId);
  await app.db.update(highlightRequests).set({ eventId, games: [gameId] }).where(eq(highlightRequests.id, requestId));
  await app.db.update(highlightRequests).set({ eventId, games: [gameId] }).where(eq(highlightRequests.id, otherRequestId));
  // Six seconds of footage: red for three, then blue, so a frame tells which part it came from.
  const file = path.join(work, 'game.mp4');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=640x360:d=3:r=30', '-f', 'lavfi', '-i', 'color=c=blue:s=640x360:d=3:r=30', '-filter_complex', '[0:v][1:v]concat=n=2:v=1[v]', '-map', '[v]', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '15', file]);
  footageId = randomUUID();
  const sourceKey = `game-footage/${eventId}/${footageId}.source`;
  await storageOf(app).putFile(sourceKey, file, 'application/octet-stream');
  await app.db.insert(footage).values({ id: footageId, eventId, gameId, camera: 'Camera 1', sourceKey, sizeBytes: fs.statSync(file).size, durationSeconds: 6, width: 640, height: 360, indexState: 'indexed' });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a hand-added clip’s thumbnail (issue 22, item 9)', () => {
  let clipId: string;
  let thumbnailUrl: string;

  it('is a frame from the middle of the clip, made on first sight and stored under the clip’s id', async () => {
    const added = await app.fetch(`/api/admin/requests/${requestId}/clips`, { method: 'POST', json: { footageId, startS: 0.5, endS: 2.5 }, cookie: admin.cookie });
    expect(added.status).toBe(201);
    clipId = (await jsonOf<{ id: string }>(added)).id;
    const clip = (await review()).clips.find((c) => c.id === clipId)!;
    expect(clip.manual).toBe(true);
    expect(clip.thumbnailUrl).toBe(`/api/admin/requests/${requestId}/clips/${clipId}/thumbnail?span=0.5-2.5`);
    thumbnailUrl = clip.thumbnailUrl!;
    const key = clipThumbnailKey(eventId, clipId);
    expect(await storageOf(app).stat(key)).toBeNull();

    const res = await app.fetch(thumbnailUrl, { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 180 });
    const { r, b } = await meanColour(bytes);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(60);
    expect(await storageOf(app).stat(key)).not.toBeNull();
  });

  it('is made again from the new span after a trim, under a new address', async () => {
    const trimmed = await app.fetch(`/api/admin/requests/${requestId}/clips/${clipId}/span`, { method: 'PUT', json: { startS: 3.5, endS: 5.5 }, cookie: admin.cookie });
    expect(trimmed.status).toBe(200);
    expect(await storageOf(app).stat(clipThumbnailKey(eventId, clipId))).toBeNull();
    const clip = (await review()).clips.find((c) => c.id === clipId)!;
    expect(clip.thumbnailUrl).not.toBe(thumbnailUrl);
    const res = await app.fetch(clip.thumbnailUrl!, { cookie: admin.cookie });
    expect(res.status).toBe(200);
    const { r, b } = await meanColour(Buffer.from(await res.arrayBuffer()));
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(60);
    thumbnailUrl = clip.thumbnailUrl!;
  });

  it('answers no family, no other user and no visitor, and makes nothing for them', async () => {
    const key = clipThumbnailKey(eventId, clipId);
    await storageOf(app).delete(key);
    for (const cookie of [family.cookie, stranger.cookie, undefined]) {
      const res = await app.fetch(thumbnailUrl, { cookie });
      expect([401, 403]).toContain(res.status);
    }
    expect(await storageOf(app).stat(key)).toBeNull();
  });

  it('answers 404 for a clip of another request, an unknown clip and a malformed id, and makes nothing', async () => {
    const other = await app.fetch(`/api/admin/requests/${otherRequestId}/clips/${clipId}/thumbnail`, { cookie: admin.cookie });
    expect(other.status).toBe(404);
    expect((await jsonOf<{ message: string }>(other)).message).toBe(REVIEW.clipNotFound);
    for (const id of [randomUUID(), 'not-a-clip', '..%2F..%2Fetc']) {
      const res = await app.fetch(`/api/admin/requests/${requestId}/clips/${id}/thumbnail`, { cookie: admin.cookie });
      expect(res.status).toBe(404);
      expect((await jsonOf<{ message: string }>(res)).message).toBe(REVIEW.clipNotFound);
    }
    expect(await storageOf(app).stat(clipThumbnailKey(eventId, clipId))).toBeNull();
  });

  it('goes when the clip is taken out of the reel', async () => {
    expect((await app.fetch(thumbnailUrl, { cookie: admin.cookie })).status).toBe(200);
    const key = clipThumbnailKey(eventId, clipId);
    expect(await storageOf(app).stat(key)).not.toBeNull();
    const removed = await app.fetch(`/api/admin/requests/${requestId}/clips/${clipId}/decision`, { method: 'PUT', json: { decision: null }, cookie: admin.cookie });
    expect(removed.status).toBe(200);
    expect(await app.db.select().from(appearances).where(eq(appearances.id, clipId))).toEqual([]);
    expect(await storageOf(app).stat(key)).toBeNull();
    expect((await app.fetch(thumbnailUrl, { cookie: admin.cookie })).status).toBe(404);
  });
});

describe('where the reel stands, for the review’s header (issue 22, item 9)', () => {
  it('follows the request’s status, its latest render and the payment', async () => {
    expect((await review()).request).toMatchObject({ stage: 'ready', paid: false });
    const [render] = await app.db.insert(reelRenders).values({ requestId, clips: [], createdBy: admin.userId, state: 'rendering' }).returning();
    expect((await review()).request.stage).toBe('rendering');
    await app.db.update(reelRenders).set({ state: 'ready' }).where(eq(reelRenders.id, render!.id));
    expect((await review()).request.stage).toBe('rendered_unpaid');
    await app.db.insert(orders).values({ userId: family.userId, requestId, amount: 15000, provider: 'local', status: 'completed', completedAt: new Date() });
    expect((await review()).request).toMatchObject({ stage: 'rendered', paid: true });
    await app.db.update(highlightRequests).set({ status: 'delivered' }).where(eq(highlightRequests.id, requestId));
    expect((await review()).request.stage).toBe('delivered');
    // Rendering a delivered request again shows the render until it is done.
    await app.db.insert(reelRenders).values({ requestId, clips: [], createdBy: admin.userId, state: 'queued', createdAt: new Date(Date.now() + 1000) });
    expect((await review()).request.stage).toBe('rendering');
  });

  it('says so for a request not yet approved and a failed render', () => {
    expect(reviewStage('pending', null, false)).toBe('awaiting_approval');
    expect(reviewStage('ready_to_purchase', 'failed', false)).toBe('render_failed');
    for (const stage of ['awaiting_approval', 'ready', 'rendering', 'render_failed', 'rendered_unpaid', 'rendered', 'delivered']) expect(REVIEW.stages[stage]).toBeTruthy();
    expect(REVIEW.stages.rendered_unpaid).toBe('Rendered, hidden until paid');
  });
});

describe('a hand-added clip’s thumbnail when the footage is in an S3 bucket', () => {
  it('is made from the bucket (read by range, not copied whole first) and stored there', async () => {
    const s3 = await startTestS3();
    const bucketApp = await startTestApp({ s3: s3.config });
    try {
      const reviewer = await createVerifiedUser(bucketApp, { fullName: 'Bea Bucket' });
      await makeAdmin(bucketApp, reviewer.userId);
      const parent = await createVerifiedUser(bucketApp, { fullName: 'Pat Parent' });
      await bucketApp.db.insert(events).values({ id: eventId, name: 'Thumbs Cup', location: 'Austin', dates: 'May 1' });
      await bucketApp.db.insert(eventGames).values({ id: gameId, eventId, label: 'Game 1', position: 1 });
      const request = await insertRequest(bucketApp, parent.userId);
      await bucketApp.db.update(highlightRequests).set({ eventId, games: [gameId] }).where(eq(highlightRequests.id, request));
      const id = randomUUID();
      const sourceKey = `game-footage/${eventId}/${id}.source`;
      const file = path.join(work, 'game.mp4');
      await storageOf(bucketApp).putFile(sourceKey, file, 'application/octet-stream');
      expect(storageOf(bucketApp).localPath(sourceKey)).toBeNull();
      await bucketApp.db.insert(footage).values({ id, eventId, gameId, camera: 'Camera 1', sourceKey, sizeBytes: fs.statSync(file).size, durationSeconds: 6, width: 640, height: 360, indexState: 'indexed' });

      const added = await bucketApp.fetch(`/api/admin/requests/${request}/clips`, { method: 'POST', json: { footageId: id, startS: 3.5, endS: 5.5 }, cookie: reviewer.cookie });
      expect(added.status).toBe(201);
      const clipId = (await jsonOf<{ id: string }>(added)).id;
      const res = await bucketApp.fetch(`/api/admin/requests/${request}/clips/${clipId}/thumbnail`, { cookie: reviewer.cookie });
      expect(res.status).toBe(200);
      const { r, b } = await meanColour(Buffer.from(await res.arrayBuffer()));
      expect(b).toBeGreaterThan(200);
      expect(r).toBeLessThan(60);
      expect(await storageOf(bucketApp).stat(clipThumbnailKey(eventId, clipId))).toMatchObject({ contentType: 'image/jpeg' });
    } finally {
      await bucketApp.close();
      await s3.close();
    }
  });
});
