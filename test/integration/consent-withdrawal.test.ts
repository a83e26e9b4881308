// Face-matching consent is the family's, and withdrawing it leaves nothing of the athlete's face
// behind (issue 21, findings 3 and 9): a descriptor is written only while consent holds, however
// the "on", "off" and reference-photo requests interleave; and withdrawal removes the matched
// clips and face tracks of every request, delivered ones included, keeping the reel they bought.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appearances, athleteReferences, eventGames, faceDetections, faceTracks, footage, highlightRequests, userVideos } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { referencePhoto } from '../support/face-footage';

let app: TestApp;
let family: { cookie: string; userId: string };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-consent-'));
const EVENT = 'austin-fall-league-2024';

async function postPhoto(cookie: string, route: string, field: string, file: string) {
  const form = new FormData();
  form.append(field, new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), path.basename(file));
  if (field === 'avatar') form.append('original', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), path.basename(file));
  return app.fetch(route, { method: 'POST', body: form, cookie });
}
const consent = (on: boolean) => app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: on }, cookie: family.cookie });
const faceData = () =>
  app.db
    .select({ id: athleteReferences.id, source: athleteReferences.source })
    .from(athleteReferences)
    .where(and(eq(athleteReferences.userId, family.userId), isNotNull(athleteReferences.embedding)));

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  family = await createVerifiedUser(app, { fullName: 'Ava Stone' });
  await referencePhoto('ava', path.join(work, 'ava.jpg'));
  expect((await postPhoto(family.cookie, '/api/profile/avatar', 'avatar', path.join(work, 'ava.jpg'))).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('consent that is withdrawn while faces are being checked (finding 3)', () => {
  it('on, a reference photo and off racing: after the last "off" no descriptor is left', async () => {
    for (let round = 0; round < 3; round++) {
      // "On" checks the headshot (about a second in a face thread) while "off" arrives.
      const on = consent(true);
      await new Promise((r) => setTimeout(r, 30));
      const photo = postPhoto(family.cookie, '/api/profile/reference-photos', 'photo', path.join(work, 'ava.jpg'));
      await new Promise((r) => setTimeout(r, 150));
      const off = consent(false);
      const [onRes, photoRes, offRes] = await Promise.all([on, photo, off]);
      expect(onRes.status).toBe(200);
      expect(offRes.status).toBe(200);
      expect([201, 409]).toContain(photoRes.status);
      expect(await faceData(), `round ${round}`).toEqual([]);
    }
    // With consent kept, the same requests do store the descriptors.
    expect((await consent(true)).status).toBe(200);
    expect((await postPhoto(family.cookie, '/api/profile/reference-photos', 'photo', path.join(work, 'ava.jpg'))).status).toBe(201);
    expect((await faceData()).map((r) => r.source).sort()).toEqual(['headshot', 'photo']);
  }, 120_000);
});

describe('withdrawing consent after a reel was delivered (finding 9)', () => {
  it('removes the clips and the matched face tracks of every request, and keeps the reel', async () => {
    const [game] = await app.db.insert(eventGames).values({ id: `g-${Date.now()}`, eventId: EVENT, label: 'Consent game', position: 99 }).returning();
    const [file] = await app.db.insert(footage).values({ eventId: EVENT, gameId: game!.id, camera: 'Camera 1', sourceKey: 'game-footage/x/y.source', sizeBytes: 1, durationSeconds: 60, indexState: 'indexed' }).returning();
    const track = async (startS: number) =>
      (
        await app.db
          .insert(faceTracks)
          .values({ footageId: file!.id, startS, endS: startS + 2, bestS: startS, box: { x: 1, y: 1, w: 50, h: 50 }, faceHeight: 50, score: 0.9, quality: 0.5, embeddings: Buffer.alloc(512), thumbnail: Buffer.from('jpeg') })
          .returning()
      )[0]!;
    const [hers, someoneElse] = [await track(1), await track(20)];
    await app.db.insert(faceDetections).values({ trackId: hers.id, t: 1, x: 1, y: 1, w: 50, h: 50, score: 0.9, quality: 0.5 });
    const [delivered] = await app.db.insert(highlightRequests).values({ userId: family.userId, event: 'Austin Fall League', eventId: EVENT, status: 'delivered' }).returning();
    await app.db.insert(appearances).values({ requestId: delivered!.id, footageId: file!.id, gameId: game!.id, camera: 'Camera 1', startS: 0.5, endS: 3.5, confidence: 0.9, distance: 0.3, faceHeight: 50, trackId: hers.id, trackIds: [hers.id], rank: 1, decision: 'accepted', position: 1 });
    const [reel] = await app.db.insert(userVideos).values({ userId: family.userId, requestId: delivered!.id, videoTitle: 'Highlight reel', isVisible: true, isPaid: true }).returning();

    expect((await consent(false)).status).toBe(200);
    expect(await app.db.select().from(appearances).where(eq(appearances.requestId, delivered!.id))).toEqual([]);
    expect(await app.db.select().from(faceTracks).where(eq(faceTracks.id, hers.id))).toEqual([]);
    expect(await app.db.select().from(faceDetections).where(eq(faceDetections.trackId, hers.id))).toEqual([]);
    // Someone else's track in the same footage stays, and so does the reel the family bought.
    expect(await app.db.select({ id: faceTracks.id }).from(faceTracks).where(inArray(faceTracks.id, [someoneElse.id]))).toHaveLength(1);
    expect(await app.db.select({ id: userVideos.id }).from(userVideos).where(eq(userVideos.id, reel!.id))).toHaveLength(1);
    expect(await faceData()).toEqual([]);
  }, 60_000);
});
