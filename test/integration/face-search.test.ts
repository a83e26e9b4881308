// Issue 20, items 5 and 6. A clip an admin adds by hand gets the athlete's face track, so the
// spotlight and the social cut follow them: from the file's index when it has them there, else
// from a closer look at those frames (a job that runs again safely); a span with nobody says so.
// Approving a request reads "matching" until the matching job has run. The registration answer
// and the profile's face-matching state say whether the headshot can be used for matching.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_MATCHING } from '../../src/common/dashboard-messages';
import { appearances, faceDetections, faceTracks, footage, highlightRequests } from '../../src/server/db/schema';
import { findFaceInClip, pickAthleteTracks } from '../../src/server/faces/clip-search';
import { matchRequestJob, UNSURE_DISTANCE } from '../../src/server/faces/matching';
import type { JobQueue } from '../../src/server/jobs/queue';
import { transitionRequest } from '../../src/server/requests/service';
import { storageKeys } from '../../src/server/storage/keys';
import { cookiesFrom, createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { composeFootage, photoWithoutFace, referencePhoto } from '../support/face-footage';
import { jsonOf } from '../support/http';
import { linkIn } from '../support/smtp';
import { eventually } from '../support/purchase';
import { uploadFootage } from '../support/footage-upload';

let app: TestApp;
let admin: { cookie: string; userId: string };
let athlete: { cookie: string; userId: string };
let stranger: { cookie: string; userId: string };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-face-search-'));
const EVENT = 'austin-fall-league-2024';
let gameId: string;
let indexedId: string;
let unindexedId: string;
let requestId: string;

interface ReviewClip {
  id: string;
  footageId: string;
  startS: number;
  endS: number;
  manual: boolean;
  faceSearch: 'looking' | 'found' | 'none' | null;
  thumbnailUrl: string | null;
}
const review = async (cookie = admin.cookie) =>
  jsonOf<{ request: { matchingState: string | null }; clips: ReviewClip[] }>(await app.fetch(`/api/admin/requests/${requestId}/review`, { cookie }));
const addClipAs = (cookie: string | undefined, json: { footageId: string; startS: number; endS: number }) =>
  app.fetch(`/api/admin/requests/${requestId}/clips`, { method: 'POST', json, cookie });
const addClip = (json: { footageId: string; startS: number; endS: number }) => addClipAs(admin.cookie, json);
const clipRow = async (id: string) => (await app.db.select().from(appearances).where(eq(appearances.id, id)))[0]!;
const noJobs = { send: async () => 'not-sent' } as unknown as JobQueue;
const ctx = (jobId: string) => ({ jobId, retryCount: 0, lastAttempt: false, heartbeat: async () => {} });

async function postPhoto(cookie: string, route: string, field: string, file: string) {
  const form = new FormData();
  form.append(field, new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), path.basename(file));
  // A new avatar comes with the uncropped photo, as the dashboard's dialog sends it.
  if (field === 'avatar') form.append('original', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), path.basename(file));
  return app.fetch(route, { method: 'POST', body: form, cookie });
}

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Search Admin' });
  await makeAdmin(app, admin.userId);
  athlete = await createVerifiedUser(app, { fullName: 'Ava Stone' });
  stranger = await createVerifiedUser(app, { fullName: 'Other Parent' });
  await Promise.all([
    referencePhoto('ava', path.join(work, 'ava.jpg')),
    photoWithoutFace(path.join(work, 'court.jpg')),
    // Indexed: Ava from 0 to 4 s, Bea from 3 to 8 s, nobody after 8 s.
    composeFootage(path.join(work, 'indexed.mp4'), {
      width: 1280,
      height: 720,
      seconds: 12,
      appearances: [
        { person: 'ava', from: 0, to: 4, faceHeight: 140, x: 0.15, y: 0.15, drift: 0.02 },
        { person: 'bea', from: 3, to: 8, faceHeight: 130, x: 0.6, y: 0.3 },
      ],
    }),
    // Never indexed: Ava from 1 to 4 s.
    composeFootage(path.join(work, 'unindexed.mp4'), {
      width: 1280,
      height: 720,
      seconds: 6,
      appearances: [{ person: 'ava', from: 1, to: 4, faceHeight: 120, x: 0.4, y: 0.2, drift: 0.03 }],
    }),
  ]);
  expect((await app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: true }, cookie: athlete.cookie })).status).toBe(200);
  expect((await postPhoto(athlete.cookie, '/api/profile/reference-photos', 'photo', path.join(work, 'ava.jpg'))).status).toBe(201);

  gameId = (await jsonOf<{ id: string }>(await app.fetch(`/api/admin/events/${EVENT}/games`, { method: 'POST', json: { label: 'Search game' }, cookie: admin.cookie }))).id;
  indexedId = await uploadFootage(app, admin.cookie, path.join(work, 'indexed.mp4'), { gameId, camera: 'Camera 1', filename: 'indexed.mp4' });
  // The second camera's file is stored with no index job: as footage still waiting to be indexed.
  const [row] = await app.db
    .insert(footage)
    .values({ eventId: EVENT, gameId, camera: 'Camera 2', sourceKey: 'placeholder', sizeBytes: fs.statSync(path.join(work, 'unindexed.mp4')).size, durationSeconds: 6 })
    .returning();
  unindexedId = row!.id;
  const key = storageKeys.footage(EVENT, unindexedId);
  await app.server.deps.storage.putFile(key, path.join(work, 'unindexed.mp4'), 'application/octet-stream');
  await app.db.update(footage).set({ sourceKey: key }).where(eq(footage.id, unindexedId));
  await eventually(async () => {
    const [f] = await app.db.select().from(footage).where(eq(footage.id, indexedId));
    return f?.indexState === 'indexed';
  }, 180_000);
  expect((await app.fetch('/api/requests', { method: 'POST', json: { eventId: EVENT, games: [gameId] }, cookie: athlete.cookie })).status).toBe(201);
  const [request] = await app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, athlete.userId));
  requestId = request!.id;
}, 300_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the state of matching (issue 20, item 6a)', () => {
  it('an approved request reads "matching" from the approval until its job has run', async () => {
    // The approval with a queue that keeps the job: the state is written with the approval itself.
    const approved = await transitionRequest({ ...app.server.deps, db: app.db, jobs: noJobs }, requestId, 'acknowledge', admin.userId);
    expect(approved).toMatchObject({ status: 'ready_to_purchase', matchingState: 'matching' });
    expect((await review()).request.matchingState).toBe('matching');
    // The job runs: its result replaces "matching".
    expect(await matchRequestJob(app.server.deps)({ requestId }, ctx('match'))).toBe('done');
    expect((await review()).request.matchingState).toBe('ready');

    // Through the API too: undone and approved again, it reads "matching" in the same write, then ready.
    expect((await app.fetch(`/api/admin/requests/${requestId}/undo`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    expect((await app.fetch(`/api/admin/requests/${requestId}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    await eventually(async () => (await review()).request.matchingState === 'ready', 30_000);
    const found = (await review()).clips.filter((c) => !c.manual);
    expect(found.length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

describe('a hand-added clip gets the athlete’s face (issue 20, item 5)', () => {
  it('a non-admin, another family and a visitor cannot add a clip or read the review', async () => {
    for (const cookie of [athlete.cookie, stranger.cookie, undefined]) {
      expect([401, 403]).toContain((await addClipAs(cookie, { footageId: indexedId, startS: 0, endS: 3 })).status);
      expect([401, 403]).toContain((await app.fetch(`/api/admin/requests/${requestId}/review`, { cookie })).status);
    }
    expect((await app.db.select().from(appearances).where(and(eq(appearances.requestId, requestId), eq(appearances.manual, true))))).toHaveLength(0);
  });

  it('over a span where the athlete’s indexed track is, takes that track at once: found', async () => {
    const tracks = await app.db.select().from(faceTracks).where(eq(faceTracks.footageId, indexedId));
    // Ava is on the left half of the frame, Bea on the right.
    const [avaTrack] = tracks.filter((t) => t.startS < 1 && t.box.x < 640);
    const beaTracks = tracks.filter((t) => t.box.x >= 640).map((t) => t.id);
    expect(avaTrack).toBeTruthy();
    expect(beaTracks.length).toBeGreaterThanOrEqual(1);
    const res = await addClip({ footageId: indexedId, startS: 0.5, endS: 3.5 });
    expect(res.status).toBe(201);
    const added = await jsonOf<{ id: string; faceSearch: string }>(res);
    expect(added.faceSearch).toBe('found');
    const row = await clipRow(added.id);
    expect(row).toMatchObject({ manual: true, faceSearch: 'found', trackId: avaTrack!.id, decision: 'accepted' });
    // Bea's track overlaps the span too (from 3 s) and is not the athlete.
    expect(row.trackIds).toContain(avaTrack!.id);
    expect(row.trackIds.some((id) => beaTracks.includes(id))).toBe(false);
    expect(row.faceHeight).toBeGreaterThan(100);
    const clip = (await review()).clips.find((c) => c.id === added.id)!;
    expect(clip).toMatchObject({ faceSearch: 'found', thumbnailUrl: `/api/admin/face-tracks/${avaTrack!.id}/thumbnail` });
    // What the render reads for this clip: the face boxes of its tracks inside its span.
    const boxes = await app.db.select().from(faceDetections).where(inArray(faceDetections.trackId, row.trackIds));
    expect(boxes.filter((b) => b.t >= row.startS && b.t <= row.endS).length).toBeGreaterThanOrEqual(4);
  });

  it('over a span with nobody in it: looked at more closely, then none', async () => {
    const res = await addClip({ footageId: indexedId, startS: 8.5, endS: 11.5 });
    expect(res.status).toBe(201);
    const added = await jsonOf<{ id: string; faceSearch: string }>(res);
    expect(added.faceSearch).toBe('looking');
    const clip = await eventually(async () => (await review()).clips.find((c) => c.id === added.id && c.faceSearch !== 'looking'), 60_000);
    expect(clip.faceSearch).toBe('none');
    // No face to show: the clip's own frame stands in (issue 22).
    expect(clip.thumbnailUrl).toContain(`/clips/${added.id}/thumbnail`);
    expect((await clipRow(added.id)).trackIds).toEqual([]);
  }, 90_000);

  it('on footage never indexed, the closer look finds the athlete and stores the track for the render', async () => {
    const res = await addClip({ footageId: unindexedId, startS: 0.5, endS: 4.5 });
    expect(res.status).toBe(201);
    const added = await jsonOf<{ id: string; faceSearch: string }>(res);
    expect(added.faceSearch).toBe('looking');
    const clip = await eventually(async () => (await review()).clips.find((c) => c.id === added.id && c.faceSearch !== 'looking'), 90_000);
    expect(clip.faceSearch).toBe('found');
    const row = await clipRow(added.id);
    expect(row.trackIds.length).toBeGreaterThanOrEqual(1);
    const tracks = await app.db.select().from(faceTracks).where(eq(faceTracks.footageId, unindexedId));
    expect(tracks.map((t) => t.id).sort()).toEqual([...row.trackIds].sort());
    const boxes = await app.db.select().from(faceDetections).where(inArray(faceDetections.trackId, row.trackIds));
    // Two samples a second looked at twice as often: Ava's 3 seconds on camera give many boxes, where she was put.
    expect(boxes.length).toBeGreaterThanOrEqual(8);
    expect(boxes.every((b) => b.t >= 0.5 && b.t <= 4.5 && b.x > 1280 * 0.3 && b.x < 1280 * 0.6)).toBe(true);
    // The footage stays as it was: not indexed, so matching still ignores it.
    const [file] = await app.db.select().from(footage).where(eq(footage.id, unindexedId));
    expect(file!.indexState).toBe('queued');
    // Once written, running the job again changes nothing.
    expect(await findFaceInClip(app.server.deps)({ appearanceId: added.id }, ctx('again'))).toBe('skipped');
    expect(await app.db.select().from(faceTracks).where(eq(faceTracks.footageId, unindexedId))).toHaveLength(tracks.length);
  }, 120_000);

  it('a look killed half-way runs again into exactly one result, however many runs there are', async () => {
    // As a killed run leaves it: the clip still looking, nothing of the run written.
    const before = await app.db.select({ id: faceTracks.id }).from(faceTracks).where(eq(faceTracks.footageId, unindexedId));
    const [clip] = await app.db
      .insert(appearances)
      .values({ requestId, footageId: unindexedId, gameId, camera: 'Camera 2', startS: 1, endS: 3, confidence: 1, distance: 0, faceHeight: 0, manual: true, faceSearch: 'looking', decision: 'accepted', position: 99, rank: 99 })
      .returning();
    const run = findFaceInClip(app.server.deps);
    const outcomes = await Promise.all([run({ appearanceId: clip!.id }, ctx('one')), run({ appearanceId: clip!.id }, ctx('two'))]);
    expect(outcomes.sort()).toEqual(['done', 'skipped']);
    const row = await clipRow(clip!.id);
    expect(row.faceSearch).toBe('found');
    const after = await app.db.select({ id: faceTracks.id }).from(faceTracks).where(eq(faceTracks.footageId, unindexedId));
    expect(after.length - before.length).toBe(row.trackIds.length);
    await app.db.delete(appearances).where(eq(appearances.id, clip!.id));
  }, 120_000);

  it('re-matching keeps the hand-added clips and their faces', async () => {
    const manual = async () => (await review()).clips.filter((c) => c.manual).map((c) => [c.id, c.faceSearch]).sort();
    const kept = await manual();
    expect(kept).toHaveLength(3);
    expect((await app.fetch(`/api/admin/requests/${requestId}/match`, { method: 'POST', cookie: admin.cookie })).status).toBe(202);
    await eventually(async () => (await review()).request.matchingState === 'ready', 30_000);
    expect(await manual()).toEqual(kept);
  }, 60_000);

  it('picks the closest track of two at the same moment, and no track that is not close enough', () => {
    const ref = new Float32Array(128).fill(0.1);
    const near = (d: number) => {
      const v = Float32Array.from(ref);
      v[0]! += d;
      return v;
    };
    const t = (id: string, startS: number, endS: number, d: number) => ({ id, startS, endS, quality: 0.5, faceHeight: 80, embeddings: [near(d)] });
    const picked = pickAthleteTracks([t('far', 0, 5, UNSURE_DISTANCE + 0.1), t('b', 2, 6, 0.3), t('a', 0, 3, 0.2), t('later', 7, 9, 0.4)], [ref]);
    expect(picked.tracks.map((x) => x.id)).toEqual(['a', 'later']);
    expect(picked.best!.id).toBe('a');
  });
});

describe('whether the headshot can be used for matching (issue 20, item 6b)', () => {
  const state = async (cookie: string) =>
    jsonOf<{ consent: boolean; headshot: string; headshotUsable: boolean; usablePhotos: number }>(await app.fetch('/api/profile/face-matching', { cookie }));

  it('a headshot with a clear face is usable; a photo without a face is not, until a reference photo is added', async () => {
    const parent = await createVerifiedUser(app, { fullName: 'Headshot Parent' });
    expect(await state(parent.cookie)).toMatchObject({ consent: false, headshot: 'off', headshotUsable: false });
    expect((await app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: true }, cookie: parent.cookie })).status).toBe(200);
    expect(await state(parent.cookie)).toMatchObject({ consent: true, headshot: 'missing', usablePhotos: 0 });

    expect((await postPhoto(parent.cookie, '/api/profile/avatar', 'avatar', path.join(work, 'ava.jpg'))).status).toBe(200);
    expect(await state(parent.cookie)).toMatchObject({ headshot: 'usable', headshotUsable: true });

    expect((await postPhoto(parent.cookie, '/api/profile/avatar', 'avatar', path.join(work, 'court.jpg'))).status).toBe(200);
    expect(await state(parent.cookie)).toMatchObject({ headshot: 'unusable', headshotUsable: false, usablePhotos: 0 });

    expect((await postPhoto(parent.cookie, '/api/profile/reference-photos', 'photo', path.join(work, 'ava.jpg'))).status).toBe(201);
    expect(await state(parent.cookie)).toMatchObject({ headshot: 'unusable', usablePhotos: 1 });
  }, 60_000);

  it('each family reads only its own state; a visitor reads none', async () => {
    expect(await state(stranger.cookie)).toMatchObject({ consent: false, headshot: 'off' });
    expect(await state(athlete.cookie)).toMatchObject({ consent: true, headshot: 'missing', usablePhotos: 1 });
    expect((await app.fetch('/api/profile/face-matching')).status).toBe(401);
  });

  it('the registration answer says face matching waits for the confirmed address; then the card says whether the headshot can be used (issue 33, finding 5)', async () => {
    const register = async (photo: string | null, consent: boolean) => {
      const form = new FormData();
      const n = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const fields: Record<string, string> = { firstName: 'Jo', lastName: 'Reg', email: `reg.${n}@example.com`, username: `reg_${n}`, password: 'secret12', birthday: '2000-01-01', state: 'Texas', city: 'Austin', teamName: 'Team', event: 'other' };
      if (consent) fields.faceMatchConsent = 'on';
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      if (photo) form.set('headshot', new Blob([fs.readFileSync(photo)], { type: 'image/jpeg' }), 'headshot.jpg');
      const res = await app.fetch('/api/account/register', { method: 'POST', body: form });
      expect(res.status).toBe(201);
      return { email: fields.email!, faceMatching: (await jsonOf<{ faceMatching: unknown }>(res)).faceMatching };
    };
    /** Follows the confirmation link (which signs in) and reads the face-matching card's state. */
    const confirmedState = async (email: string) => {
      const verify = await fetch(linkIn(await app.smtp.waitFor(email, 'Confirm')), { redirect: 'manual' });
      return jsonOf<{ consent: boolean; headshot: string }>(await app.fetch('/api/profile/face-matching', { cookie: cookiesFrom(verify) }));
    };
    // Ticked at registration, face matching waits for the confirmed address (issue 33, finding 5);
    // once it is confirmed the dashboard's card says what the headshot is good for.
    const pending = { consent: false, pending: true, headshot: 'off', message: FACE_MATCHING.registered.pending };
    const usable = await register(path.join(work, 'ava.jpg'), true);
    expect(usable.faceMatching).toEqual(pending);
    expect(await confirmedState(usable.email)).toMatchObject({ consent: true, headshot: 'usable' });
    const unusable = await register(path.join(work, 'court.jpg'), true);
    expect(unusable.faceMatching).toEqual(pending);
    expect(await confirmedState(unusable.email)).toMatchObject({ consent: true, headshot: 'unusable' });
    const missing = await register(null, true);
    expect(await confirmedState(missing.email)).toMatchObject({ consent: true, headshot: 'missing' });
    const declined = await register(path.join(work, 'ava.jpg'), false);
    expect(declined.faceMatching).toEqual({ consent: false, pending: false, headshot: 'off', message: null });
    expect(await confirmedState(declined.email)).toMatchObject({ consent: false, headshot: 'off' });
  }, 90_000);
});
