// Reel builder part 2 end to end on a short generated game filmed by two cameras: the admin's
// review (accept, reject, trim, add by hand, reorder) saved on the server; Render makes the
// highlight reel, the social cut and the stills, checked with ffprobe and sharp; they stay hidden
// until the request is paid, then the request is delivered with one mail; a render killed
// half-way runs again into exactly one reel.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW } from '../../src/common/admin-messages';
import { REEL_FORMAT } from '../../src/common/reel-format';
import { athleteReferences, faceDetections, footage, highlightRequests, promoCodes, reelRenders, userStills, userVideos } from '../../src/server/db/schema';
import { decodeEmbeddings } from '../../src/server/faces/embeddings';
import { faceDistance } from '../../src/server/faces/engine';
import { UNSURE_DISTANCE } from '../../src/server/faces/matching';
import type { PhotoFace } from '../../src/server/faces/types';
import { probeVideo } from '../../src/server/media/ffmpeg';
import { planCrop, windowHolds } from '../../src/server/reels/crop-path';
import { outputDuration } from '../../src/server/reels/render';
import { renderReelJob, renderVideoId, requeueStuckRenders } from '../../src/server/reels/render-job';
import type { Storage } from '../../src/server/storage/storage';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { composeFootage, referencePhoto } from '../support/face-footage';
import { jsonOf } from '../support/http';
import { eventually } from '../support/purchase';
import { uploadFootage } from '../support/footage-upload';

const run = promisify(execFile);
let app: TestApp;
let admin: { cookie: string; userId: string };
let athlete: { cookie: string; userId: string; email: string };
let stranger: { cookie: string; userId: string };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-reels-'));
const EVENT = 'austin-fall-league-2024';

interface Review {
  request: { status: string; matchingState: string | null };
  footage: Array<{ id: string; camera: string; durationSeconds: number }>;
  clips: Array<{ id: string; footageId: string; camera: string; startS: number; endS: number; decision: string | null; position: number | null; manual: boolean; faceHeight: number }>;
  moments: Array<{ appearanceIds: string[]; preferredId: string }>;
  render: { id: string; state: string; error: string | null } | null;
}

const review = async (requestId: string) => jsonOf<Review>(await app.fetch(`/api/admin/requests/${requestId}/review`, { cookie: admin.cookie }));
const accepted = (r: Review) => r.clips.filter((c) => c.decision === 'accepted').sort((a, b) => a.position! - b.position!);

/** Top-level MP4 boxes in order: faststart puts moov before mdat. */
function topBoxes(file: string): string[] {
  const bytes = fs.readFileSync(file);
  const names: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    let size = bytes.readUInt32BE(at);
    const name = bytes.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    names.push(name);
    if (size < 8) break;
    at += size;
  }
  return names;
}

let requestId: string;
let camera1: string;
let camera2: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Reel Admin' });
  await makeAdmin(app, admin.userId);
  athlete = await createVerifiedUser(app, { fullName: 'Ava Stone' });
  stranger = await createVerifiedUser(app, { fullName: 'Other Parent' });
  await Promise.all([
    referencePhoto('ava', path.join(work, 'ava.jpg')),
    // Camera 1 has the game's sound; camera 2 has none. Both see Ava from 1 s to 4 s.
    composeFootage(path.join(work, 'camera-1.mp4'), {
      width: 1280,
      height: 720,
      seconds: 10,
      audio: true,
      appearances: [
        { person: 'ava', from: 0.5, to: 5, faceHeight: 110, x: 0.15, y: 0.2, drift: 0.04 },
        { person: 'bea', from: 4, to: 10, faceHeight: 120, x: 0.6, y: 0.3 },
      ],
    }),
    composeFootage(path.join(work, 'camera-2.mp4'), {
      width: 1280,
      height: 720,
      seconds: 10,
      appearances: [{ person: 'ava', from: 1, to: 4, faceHeight: 170, x: 0.55, y: 0.1, drift: -0.03 }],
    }),
  ]);
  const consent = await app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: true }, cookie: athlete.cookie });
  expect(consent.status).toBe(200);
  const form = new FormData();
  form.append('photo', new Blob([fs.readFileSync(path.join(work, 'ava.jpg'))], { type: 'image/jpeg' }), 'ava.jpg');
  expect((await app.fetch('/api/profile/reference-photos', { method: 'POST', body: form, cookie: athlete.cookie })).status).toBe(201);

  const game = await jsonOf<{ id: string }>(await app.fetch(`/api/admin/events/${EVENT}/games`, { method: 'POST', json: { label: 'Final' }, cookie: admin.cookie }));
  camera1 = await uploadFootage(app, admin.cookie, path.join(work, 'camera-1.mp4'), { gameId: game.id, camera: 'Camera 1', filename: 'camera-1.mp4' });
  camera2 = await uploadFootage(app, admin.cookie, path.join(work, 'camera-2.mp4'), { gameId: game.id, camera: 'Camera 2', filename: 'camera-2.mp4' });
  await eventually(async () => {
    const rows = await app.db.select().from(footage);
    return rows.length === 2 && rows.every((f) => f.indexState === 'indexed');
  }, 180_000);
  expect((await app.fetch('/api/requests', { method: 'POST', json: { eventId: EVENT, games: [game.id] }, cookie: athlete.cookie })).status).toBe(201);
  const [request] = await app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, athlete.userId));
  requestId = request!.id;
  expect((await app.fetch(`/api/admin/requests/${requestId}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
  await eventually(async () => (await review(requestId)).request.matchingState === 'ready', 30_000);
}, 300_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('who may review and render', () => {
  it('a non-admin and a visitor reach no review, render or footage-stream route', async () => {
    const clip = '00000000-0000-4000-8000-000000000000';
    for (const cookie of [stranger.cookie, athlete.cookie, undefined]) {
      for (const [method, route, json] of [
        ['GET', `/api/admin/requests/${requestId}/review`, undefined],
        ['PUT', `/api/admin/requests/${requestId}/clips/${clip}/decision`, { decision: 'accepted' }],
        ['PUT', `/api/admin/requests/${requestId}/clips/${clip}/span`, { startS: 0, endS: 2 }],
        ['POST', `/api/admin/requests/${requestId}/clips`, { footageId: camera1, startS: 0, endS: 2 }],
        ['PUT', `/api/admin/requests/${requestId}/clip-order`, { ids: [] }],
        ['POST', `/api/admin/requests/${requestId}/render`, { spotlight: true }],
        ['GET', `/api/admin/footage/${camera1}/stream`, undefined],
      ] as const) {
        const res = await app.fetch(route, { method, cookie, json });
        expect([401, 403]).toContain(res.status);
      }
    }
    expect(await app.db.select().from(reelRenders)).toHaveLength(0);
  });
});

describe('the review', () => {
  it('groups the two cameras’ view of the same moment and preselects the larger face', async () => {
    const r = await review(requestId);
    expect(r.request.status).toBe('ready_to_purchase');
    const both = r.moments.find((m) => m.appearanceIds.length === 2);
    expect(both).toBeTruthy();
    const preferred = r.clips.find((c) => c.id === both!.preferredId)!;
    expect(preferred.camera).toBe('Camera 2');
    expect(r.clips.every((c) => c.decision === null)).toBe(true);
  });

  it('plays footage in place through byte ranges', async () => {
    const res = await app.fetch(`/api/admin/footage/${camera2}/stream`, { cookie: admin.cookie, headers: { range: 'bytes=0-99' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/);
    expect((await res.arrayBuffer()).byteLength).toBe(100);
  });

  it('saves accept, reject, trim, a hand-added clip and the order; a reload shows the same', async () => {
    let r = await review(requestId);
    const moment = r.moments.find((m) => m.appearanceIds.length === 2)!;
    const other = moment.appearanceIds.find((id) => id !== moment.preferredId)!;
    const put = (clipId: string, what: string, json: unknown) => app.fetch(`/api/admin/requests/${requestId}/clips/${clipId}/${what}`, { method: 'PUT', json, cookie: admin.cookie });
    expect((await put(moment.preferredId, 'decision', { decision: 'accepted' })).status).toBe(200);
    expect((await put(other, 'decision', { decision: 'accepted' })).status).toBe(200);
    // Trim in tenths: the handles' values are rounded to 0.1 s.
    const cam1 = r.clips.find((c) => c.id === other)!;
    const trimmed = await put(other, 'span', { startS: cam1.startS + 0.34, endS: cam1.startS + 3.02 });
    expect(trimmed.status).toBe(200);
    expect(await jsonOf(trimmed)).toMatchObject({ startS: Math.round((cam1.startS + 0.34) * 10) / 10, endS: Math.round((cam1.startS + 3.02) * 10) / 10 });

    // Bad spans: the exact message, and nothing changed.
    const before = await review(requestId);
    for (const [span, message] of [
      [{ startS: 2, endS: 11 }, REVIEW.outsideFootage],
      [{ startS: 2, endS: 2.5 }, REVIEW.tooShort],
    ] as const) {
      const res = await put(other, 'span', span);
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(message);
    }
    const bad = await put(other, 'span', { startS: 'soon', endS: 2 });
    expect((await jsonOf(bad)).message).toBe(REVIEW.invalid);
    expect(await review(requestId)).toEqual(before);

    // A clip of footage from another event is refused; one from this event's footage is added at the end.
    const foreign = await app.fetch(`/api/admin/requests/${requestId}/clips`, { method: 'POST', json: { footageId: '00000000-0000-4000-8000-000000000000', startS: 0, endS: 2 }, cookie: admin.cookie });
    expect(foreign.status).toBe(404);
    expect((await jsonOf(foreign)).message).toBe(REVIEW.footageNotFound);
    const added = await app.fetch(`/api/admin/requests/${requestId}/clips`, { method: 'POST', json: { footageId: camera1, startS: 6, endS: 8.5 }, cookie: admin.cookie });
    expect(added.status).toBe(201);
    const { id: manualId } = await jsonOf<{ id: string }>(added);

    // A hand-added clip taken out of the reel is gone, not left behind undecided.
    const extra = await jsonOf<{ id: string }>(await app.fetch(`/api/admin/requests/${requestId}/clips`, { method: 'POST', json: { footageId: camera2, startS: 7, endS: 9 }, cookie: admin.cookie }));
    expect((await put(extra.id, 'decision', { decision: null })).status).toBe(200);
    expect((await review(requestId)).clips.some((c) => c.id === extra.id)).toBe(false);

    // Reject anything else proposed.
    for (const c of r.clips.filter((c) => c.id !== moment.preferredId && c.id !== other)) expect((await put(c.id, 'decision', { decision: 'rejected' })).status).toBe(200);

    // Reorder: the hand-added clip first. An order that leaves a clip out is refused.
    const partial = await app.fetch(`/api/admin/requests/${requestId}/clip-order`, { method: 'PUT', json: { ids: [manualId] }, cookie: admin.cookie });
    expect(partial.status).toBe(409);
    expect((await jsonOf(partial)).message).toBe(REVIEW.orderChanged);
    const order = [manualId, moment.preferredId, other];
    expect((await app.fetch(`/api/admin/requests/${requestId}/clip-order`, { method: 'PUT', json: { ids: order }, cookie: admin.cookie })).status).toBe(200);

    r = await review(requestId);
    expect(accepted(r).map((c) => c.id)).toEqual(order);
    expect(accepted(r).map((c) => c.position)).toEqual([1, 2, 3]);
    expect(r.clips.find((c) => c.id === manualId)).toMatchObject({ manual: true, startS: 6, endS: 8.5, camera: 'Camera 1' });
    expect(r.clips.find((c) => c.id === other)).toMatchObject({ startS: Math.round((cam1.startS + 0.34) * 10) / 10 });
    expect(r.clips.filter((c) => c.decision === null)).toHaveLength(0);
  });
});

describe('a render whose job was lost', () => {
  it('gets its job back from the worker’s recovery check, and runs', async () => {
    const other = await createVerifiedUser(app, { fullName: 'Lost Render' });
    const [request] = await app.db.insert(highlightRequests).values({ userId: other.userId, status: 'ready_to_purchase', event: 'Lost', games: [] }).returning();
    const missing = '00000000-0000-4000-8000-000000000001';
    const [render] = await app.db
      .insert(reelRenders)
      .values({ requestId: request!.id, clips: [{ appearanceId: missing, footageId: missing, startS: 0, endS: 2, rank: 1, trackIds: [] }], createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    expect(await requeueStuckRenders(app.server.deps)).toBe(1);
    // The job ran: its footage is gone, so it says so on the render.
    const after = await eventually(async () => {
      const [row] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, render!.id));
      return row?.error ? row : null;
    }, 20_000);
    expect(after.error).toContain('None of the clips');
  });
});

describe('the render', () => {
  let renderId: string;

  it('makes the reel, the social cut and the stills, hidden until the request is paid', async () => {
    const res = await app.fetch(`/api/admin/requests/${requestId}/render`, { method: 'POST', json: { spotlight: true }, cookie: admin.cookie });
    expect(res.status).toBe(202);
    renderId = (await jsonOf<{ id: string }>(res)).id;
    const busy = await app.fetch(`/api/admin/requests/${requestId}/render`, { method: 'POST', json: {}, cookie: admin.cookie });
    expect(busy.status).toBe(409);
    expect((await jsonOf(busy)).message).toBe(REVIEW.renderBusy);
    const render = await eventually(async () => {
      const [row] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, renderId));
      return row?.state === 'ready' || row?.state === 'failed' ? row : null;
    }, 240_000);
    expect(render.error).toBeNull();
    expect(render.state).toBe('ready');

    const videos = await app.db.select().from(userVideos).where(eq(userVideos.requestId, requestId));
    expect(videos.map((v) => v.videoType).sort()).toEqual(['highlight_reel', 'social_cut']);
    expect(videos.every((v) => !v.isVisible && !v.isPaid)).toBe(true);
    expect(await jsonOf<unknown[]>(await app.fetch('/api/videos', { cookie: athlete.cookie }))).toEqual([]);
    expect(await jsonOf<unknown[]>(await app.fetch('/api/stills', { cookie: athlete.cookie }))).toEqual([]);
    const [request] = await app.db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
    expect(request!.status).toBe('ready_to_purchase');

    const storage = app.server.deps.storage;
    const durations = render.clips.map((c) => Math.round((c.endS - c.startS) * 10) / 10);
    for (const v of videos) {
      const file = storage.localPath(v.videoUrl!)!;
      const probe = await probeVideo(file);
      const [w, h] = v.videoType === 'highlight_reel' ? [1920, 1080] : [1080, 1920];
      expect(probe).toMatchObject({ width: w, height: h, videoCodec: 'h264', audioCodec: 'aac', pixelFormat: 'yuv420p' });
      const expected = outputDuration(v.videoType === 'highlight_reel' ? 'reel' : 'social', durations);
      expect(Math.abs(probe.durationSeconds - expected)).toBeLessThanOrEqual(0.1);
      const boxes = topBoxes(file);
      expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
      expect(storage.localPath(v.thumbnailUrl!)).toBeTruthy();
    }

    // Stills (issue 34, item 6): per found clip at most one moment, each a portrait 4:5 and a
    // landscape 3:2 cut around the athlete from the footage's own pixels, with no metadata, and
    // the athlete is the face in every one of them.
    const stills = await app.db.select().from(userStills).where(eq(userStills.requestId, requestId)).orderBy(userStills.orderPosition);
    expect(stills.length).toBeGreaterThanOrEqual(2);
    expect(stills.length % 2).toBe(0);
    expect(stills.length).toBeLessThanOrEqual(2 * render.clips.filter((c) => c.trackIds.length).length);
    const refs = (await app.db.select().from(athleteReferences).where(eq(athleteReferences.userId, athlete.userId))).flatMap((r) => decodeEmbeddings(r.embedding));
    for (const [i, s] of stills.entries()) {
      expect(s.isVisible).toBe(false);
      const shape = i % 2 === 0 ? 'portrait' : 'landscape';
      expect(s.originalFilename).toBe(`highlight-${Math.floor(i / 2) + 1}-${shape}.jpg`);
      const file = storage.localPath(s.storageUrl)!;
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe('jpeg');
      if (shape === 'portrait') expect(meta.width! * 5).toBe(meta.height! * 4);
      else expect(meta.width! * 2).toBe(meta.height! * 3);
      // A crop of the 1280×720 frame (these faces are close: up to its whole height), never scaled up.
      expect(meta.height).toBeLessThanOrEqual(720);
      expect(meta.width).toBeLessThan(1280);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const faces = await app.server.deps.faces.run<PhotoFace[]>({ op: 'analyze-photo', rgb: new Uint8Array(data), width: info.width, height: info.height });
      const closest = Math.min(...faces.flatMap((f) => refs.map((r) => faceDistance(Float32Array.from(f.descriptor), r))));
      expect(closest, `${s.originalFilename}`).toBeLessThan(UNSURE_DISTANCE);
    }
    // The still's file is not the family's before payment, even by its address.
    expect((await app.fetch(`/api/media/${stills[0]!.storageUrl}`, { cookie: athlete.cookie })).status).toBe(404);
  }, 300_000);

  it('the social cut’s window holds the athlete’s face in every sampled frame of every clip, and the rendered frames show her', async () => {
    const [render] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, renderId));
    const followed = render!.clips.filter((c) => c.trackIds.length);
    expect(followed.length).toBeGreaterThanOrEqual(2);
    for (const clip of followed) {
      const rows = await app.db.select().from(faceDetections);
      const faces = rows
        .filter((d) => clip.trackIds.includes(d.trackId) && d.t >= clip.startS && d.t <= clip.endS)
        .sort((a, b) => a.t - b.t)
        .map((d) => ({ t: d.t - clip.startS, x: d.x, y: d.y, w: d.w, h: d.h }));
      expect(faces.length).toBeGreaterThan(2);
      const window = planCrop(faces, clip.endS - clip.startS, 1280, 720);
      expect(window.w / window.h).toBeCloseTo(9 / 16, 2);
      for (const f of faces) expect(windowHolds(window, Math.min(window.xs.length - 1, Math.round(f.t * window.fps)), f)).toBe(true);
      // Smooth: from one frame to the next the window moves at most 0.6 of its width per second.
      for (let i = 1; i < window.xs.length; i++) expect(Math.abs(window.xs[i]! - window.xs[i - 1]!)).toBeLessThanOrEqual((0.6 * window.w) / 30 + 1);
    }

    // And in the rendered file: frames of the social cut where the index saw her hold her face.
    const [social] = await app.db.select().from(userVideos).where(and(eq(userVideos.requestId, requestId), eq(userVideos.videoType, 'social_cut')));
    const file = app.server.deps.storage.localPath(social!.videoUrl!)!;
    const refs = (await app.db.select().from(athleteReferences).where(eq(athleteReferences.userId, athlete.userId))).flatMap((r) => decodeEmbeddings(r.embedding));
    const fade = REEL_FORMAT.crossfadeS;
    let offset = REEL_FORMAT.social.introS - fade;
    let checked = 0;
    for (const clip of render!.clips) {
      const length = Math.round((clip.endS - clip.startS) * 10) / 10;
      const own = (await app.db.select().from(faceDetections)).filter((d) => clip.trackIds.includes(d.trackId)).sort((a, b) => a.t - b.t);
      // Inside the track (not the instant she comes or goes: a frame either side is off by one) and away from the cross-fades.
      const detections = own.slice(1, -1).filter((d) => d.t - clip.startS >= fade + 0.1 && d.t - clip.startS <= length - fade - 0.1);
      for (const d of detections.filter((_, i) => i % 2 === 0).slice(0, 3)) {
        const at = offset + (d.t - clip.startS);
        const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', at.toFixed(3), '-i', file, '-frames:v', '1', '-vf', 'scale=540:960', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 24 });
        const faces = await app.server.deps.faces.run<PhotoFace[]>({ op: 'analyze-photo', rgb: new Uint8Array(stdout), width: 540, height: 960 });
        const closest = Math.min(...faces.flatMap((f) => refs.map((r) => faceDistance(Float32Array.from(f.descriptor), r))));
        expect(closest, `social cut at ${at.toFixed(1)} s`).toBeLessThan(UNSURE_DISTANCE);
        checked++;
      }
      offset += length - fade;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('paying unlocks everything, delivers the request and mails the family once', async () => {
    await app.db.insert(promoCodes).values({ code: 'REELFREE', discountPercent: 100, active: true });
    const paid = await app.fetch('/api/checkout', { method: 'POST', json: { requestId, promoCode: 'REELFREE' }, cookie: athlete.cookie });
    expect(paid.status).toBe(200);
    const list = await jsonOf<Array<{ videoType: string; orientation: string; streamUrl: string; downloadUrl: string }>>(await app.fetch('/api/videos', { cookie: athlete.cookie }));
    expect(list.map((v) => v.videoType)).toEqual(['highlight_reel', 'social_cut']);
    expect(list.map((v) => v.orientation)).toEqual(['horizontal', 'vertical']);
    const stream = await app.fetch(list[0]!.streamUrl, { cookie: athlete.cookie, headers: { range: 'bytes=0-1023' } });
    expect(stream.status).toBe(206);
    const stills = await jsonOf<Array<{ url: string }>>(await app.fetch('/api/stills', { cookie: athlete.cookie }));
    expect(stills.length).toBeGreaterThanOrEqual(1);
    expect((await app.fetch(stills[0]!.url, { cookie: athlete.cookie })).status).toBe(200);
    const [request] = await app.db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
    expect(request!.status).toBe('delivered');
    const mail = await app.smtp.waitFor(athlete.email, 'highlight reel is ready');
    expect(mail.text).toContain('a vertical cut for social media');
  }, 60_000);

  it('a render killed half-way runs again and leaves exactly one reel; rendering again replaces the outputs at once', async () => {
    const [first] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, renderId));
    const [again] = await app.db.insert(reelRenders).values({ requestId, spotlight: false, clips: first!.clips, createdBy: admin.userId, state: 'rendering' }).returning();
    const storage = app.server.deps.storage;
    // The run dies once the videos are stored, before the stills and the swap.
    const dying: Storage = { ...storage, putFile: async (key, file, type, opts) => {
      if (key.startsWith('user-stills/')) throw new Error('killed');
      return storage.putFile(key, file, type, opts);
    } };
    const ctx = { jobId: again!.id, retryCount: 0, lastAttempt: false, heartbeat: async () => {} };
    await expect(renderReelJob({ ...app.server.deps, storage: dying })({ renderId: again!.id }, ctx)).rejects.toThrow('killed');
    // Meanwhile the family still has exactly the first render's outputs.
    let videos = await app.db.select().from(userVideos).where(eq(userVideos.requestId, requestId));
    expect(videos.map((v) => v.renderId)).toEqual([renderId, renderId]);

    expect(await renderReelJob(app.server.deps)({ renderId: again!.id }, { ...ctx, retryCount: 1 })).toBe('done');
    videos = await app.db.select().from(userVideos).where(eq(userVideos.requestId, requestId));
    expect(videos.map((v) => v.id).sort()).toEqual([renderVideoId(again!.id, 'reel'), renderVideoId(again!.id, 'social')].sort());
    expect(videos.every((v) => v.isVisible && v.isPaid)).toBe(true);
    const stills = await app.db.select().from(userStills).where(eq(userStills.requestId, requestId));
    expect(new Set(stills.map((s) => s.renderId))).toEqual(new Set([again!.id]));
    // The first render's files are gone; the second's are there.
    expect(storage.localPath(`user-videos/${athlete.userId}/${renderVideoId(renderId, 'reel')}.mp4`)).toBeNull();
    for (const v of videos) expect(storage.localPath(v.videoUrl!)).toBeTruthy();
    // Done once: running it again changes nothing, and the family got one delivery mail.
    expect(await renderReelJob(app.server.deps)({ renderId: again!.id }, ctx)).toBe('skipped');
    const visible = await app.db.select().from(userVideos).where(and(eq(userVideos.userId, athlete.userId), eq(userVideos.isVisible, true)));
    expect(visible).toHaveLength(2);
    expect(app.smtp.mails.filter((m) => m.to.includes(athlete.email) && m.subject.includes('highlight reel is ready'))).toHaveLength(1);
  }, 300_000);
});
