// Cameras in sync (issue 20, item 4): a game filmed by several cameras started by hand at
// different times is put on one clock by the cameras' sound. Recordings of one generated game
// (crowd, whistles, claps) are lined up to within a frame whatever their gain, hiss, microphone
// and sample rate; a camera without sound and one that heard another game are never given a
// guessed offset. End to end: uploaded footage is indexed, then synced by a job; the admin sets
// or clears an offset (nobody else can); the review's moments group clips by the game's clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOOTAGE } from '../../src/common/admin-messages';
import { appearances, footage, highlightRequests } from '../../src/server/db/schema';
import { estimateOffset, syncAudioOf, syncGame } from '../../src/server/footage/sync';
import { groupMoments } from '../../src/server/reels/review';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { recordCamera, type GameSound } from '../support/game-sound';
import { jsonOf } from '../support/http';
import { eventually } from '../support/purchase';

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-sync-'));
const FRAME_S = 1 / 30;
const EVENT = 'austin-fall-league-2024';
const game: GameSound = { seed: 20, seconds: 90 };
const otherGame: GameSound = { seed: 77, seconds: 90 };
const file = (name: string) => path.join(work, name);

let app: TestApp;
let admin: { cookie: string; userId: string };
let parent: { cookie: string; userId: string };

beforeAll(async () => {
  await Promise.all([
    // The reference: 48 kHz, as heard from the start of the game sound.
    recordCamera(file('camera-1.mp4'), game, { startsAt: 2, seconds: 45 }),
    // Started 7.43 s later: quieter, its own hiss, a duller microphone, 44.1 kHz.
    recordCamera(file('camera-2.mp4'), game, { startsAt: 9.43, seconds: 40, gain: 0.4, hiss: 0.03, hissSeed: 5, sampleRate: 44100, lowpassHz: 2500 }),
    // Started 1.9 s before the reference (a negative offset): louder, noisier, 22.05 kHz.
    recordCamera(file('camera-3.mp4'), game, { startsAt: 0.1, seconds: 40, gain: 1.6, hiss: 0.06, hissSeed: 8, sampleRate: 22050 }),
    // No audio stream at all.
    recordCamera(file('silent.mp4'), game, { startsAt: 0, seconds: 30, silent: true }),
    // Another game's sound (another court): nothing in common.
    recordCamera(file('other-court.mp4'), otherGame, { startsAt: 5, seconds: 40, hissSeed: 9 }),
  ]);
  // An audio stream that holds only digital silence: a muted microphone.
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=20', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-t', '20', file('muted.mp4')]);
}, 180_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the offset between two recordings, from their sound', () => {
  it('is found to within a frame, later or earlier, whatever the gain, hiss, microphone and sample rate', async () => {
    const [one, two, three] = await Promise.all(['camera-1.mp4', 'camera-2.mp4', 'camera-3.mp4'].map((f) => syncAudioOf(file(f))));
    const later = estimateOffset(one!, two!);
    expect(later.offsetS).not.toBeNull();
    expect(Math.abs(later.offsetS! - 7.43)).toBeLessThan(FRAME_S);
    const earlier = estimateOffset(one!, three!);
    expect(Math.abs(earlier.offsetS! - -1.9)).toBeLessThan(FRAME_S);
    // Either way round: the same offset, negated.
    const back = estimateOffset(two!, one!);
    expect(Math.abs(back.offsetS! + 7.43)).toBeLessThan(FRAME_S);
    // Well clear of the thresholds: these are not near misses.
    expect(later.peakZ).toBeGreaterThan(12);
    expect(earlier.peakZ).toBeGreaterThan(12);
  }, 60_000);

  it('is not found for a recording of another game, rather than a wrong offset', async () => {
    const [one, other] = await Promise.all([syncAudioOf(file('camera-1.mp4')), syncAudioOf(file('other-court.mp4'))]);
    const estimate = estimateOffset(one!, other!);
    expect(estimate.offsetS).toBeNull();
    expect(estimate.peakZ).toBeLessThan(9);
  }, 30_000);

  it('has no sound to work from in a file without an audio stream or with a muted one', async () => {
    expect(await syncAudioOf(file('silent.mp4'))).toBeNull();
    expect(await syncAudioOf(file('muted.mp4'))).toBeNull();
  });
});

describe('moments on the game’s clock', () => {
  const clip = (id: string, footageId: string, camera: string, startS: number, endS: number, rank: number) => ({ id, footageId, gameId: 'g', camera, startS, endS, faceHeight: 100 + rank, rank });

  it('group clips that overlap once each camera’s offset is added, and only those', () => {
    const rows = [clip('a', 'f1', 'Camera 1', 10, 14, 1), clip('b', 'f2', 'Camera 2', 3, 6.5, 2), clip('c', 'f2', 'Camera 2', 10, 14, 3)];
    // Without offsets camera 2's 10–14 s looks like the same moment as camera 1's.
    expect(groupMoments(rows).map((m) => m.appearanceIds.sort())).toEqual([['a', 'c'], ['b']]);
    // Camera 2 started 7.4 s later: its 3–6.5 s is the game's 10.4–13.9 s.
    const moments = groupMoments(rows, (id) => (id === 'f2' ? 7.4 : 0));
    expect(moments.map((m) => m.appearanceIds.sort())).toEqual([['a', 'b'], ['c']]);
    expect(moments[0]).toMatchObject({ startS: 10, endS: 14 });
    expect(moments[1]!.startS).toBeCloseTo(17.4, 5);
  });
});

describe('a game’s cameras, end to end', () => {
  let gameId: string;
  const ids: Record<string, string> = {};
  const rowOf = async (name: string) => (await app.db.select().from(footage).where(eq(footage.id, ids[name]!)))[0]!;

  function upload(name: string, camera: string): Promise<string> {
    return new Promise((resolve, reject) => {
      new tus.Upload(fs.readFileSync(file(name)), {
        endpoint: `${app.url}/api/admin/footage-uploads`,
        chunkSize: 4 * 1024 * 1024,
        retryDelays: [],
        metadata: { gameId, camera, filename: name },
        headers: { cookie: admin.cookie, origin: app.origin },
        onSuccess: ({ lastResponse }) => resolve((JSON.parse(lastResponse.getBody()) as { footageId: string }).footageId),
        onError: reject,
      }).start();
    });
  }

  beforeAll(async () => {
    app = await startTestApp();
    admin = await createVerifiedUser(app, { fullName: 'Sync Admin' });
    await makeAdmin(app, admin.userId);
    parent = await createVerifiedUser(app, { fullName: 'Some Parent' });
    gameId = (await jsonOf<{ id: string }>(await app.fetch(`/api/admin/events/${EVENT}/games`, { method: 'POST', json: { label: 'Semi-final' }, cookie: admin.cookie }))).id;
    // Uploaded in this order: the silent camera first, so the reference is the first with sound.
    ids.silent = await upload('silent.mp4', 'Baseline');
    ids.one = await upload('camera-1.mp4', 'Camera 1');
    ids.two = await upload('camera-2.mp4', 'Camera 2');
    ids.other = await upload('other-court.mp4', 'Wrong court');
  }, 120_000);

  it('indexes each file, then lines up the cameras by their sound', async () => {
    const rows = await eventually(async () => {
      const all = await app.db.select().from(footage).where(eq(footage.gameId, gameId)).orderBy(asc(footage.createdAt));
      return all.length === 4 && all.every((f) => f.indexState === 'indexed' && f.syncSource !== null) ? all : null;
    }, 240_000);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids.silent!)).toMatchObject({ syncSource: 'no_audio', syncOffsetS: 0 });
    expect(byId.get(ids.one!)).toMatchObject({ syncSource: 'reference', syncOffsetS: 0 });
    expect(byId.get(ids.two!)!.syncSource).toBe('audio');
    expect(Math.abs(byId.get(ids.two!)!.syncOffsetS - 7.43)).toBeLessThan(FRAME_S);
    expect(byId.get(ids.other!)).toMatchObject({ syncSource: 'not_found', syncOffsetS: 0 });
    // The admin's list shows each camera's offset and where it came from.
    const list = await jsonOf<Array<{ id: string; syncOffsetS: number; syncSource: string }>>(await app.fetch(`/api/admin/events/${EVENT}/footage`, { cookie: admin.cookie }));
    expect(list.find((f) => f.id === ids.two)).toMatchObject({ syncSource: 'audio', syncOffsetS: byId.get(ids.two!)!.syncOffsetS });
  }, 300_000);

  it('gives the same offsets when run again', async () => {
    const before = await app.db.select().from(footage).where(eq(footage.gameId, gameId)).orderBy(asc(footage.id));
    await syncGame(app.server.deps, gameId);
    const after = await app.db.select().from(footage).where(eq(footage.gameId, gameId)).orderBy(asc(footage.id));
    expect(after.map((f) => [f.id, f.syncSource, f.syncOffsetS])).toEqual(before.map((f) => [f.id, f.syncSource, f.syncOffsetS]));
  }, 60_000);

  it('refuses a parent, a visitor and bad input, and changes nothing', async () => {
    const before = await rowOf('silent');
    for (const cookie of [parent.cookie, undefined]) {
      const res = await app.fetch(`/api/admin/footage/${ids.silent}/offset`, { method: 'PUT', json: { offsetS: 3 }, cookie });
      expect([401, 403]).toContain(res.status);
    }
    for (const json of [{ offsetS: '3' }, { offsetS: 21_601 }, { offsetS: -21_601 }, {}, { offset: 3 }, 'three']) {
      const res = await app.fetch(`/api/admin/footage/${ids.silent}/offset`, { method: 'PUT', json, cookie: admin.cookie });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(FOOTAGE.offsetInvalid);
    }
    const missing = await app.fetch('/api/admin/footage/00000000-0000-4000-8000-000000000000/offset', { method: 'PUT', json: { offsetS: 1 }, cookie: admin.cookie });
    expect(missing.status).toBe(404);
    const after = await rowOf('silent');
    expect([after.syncOffsetS, after.syncSource]).toEqual([before.syncOffsetS, before.syncSource]);
  });

  it('lets the admin set the offset of a camera without sound; the sound never overwrites it', async () => {
    const res = await app.fetch(`/api/admin/footage/${ids.silent}/offset`, { method: 'PUT', json: { offsetS: -2.5 }, cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ id: ids.silent, syncOffsetS: -2.5, syncSource: 'admin' });
    await syncGame(app.server.deps, gameId);
    expect(await rowOf('silent')).toMatchObject({ syncOffsetS: -2.5, syncSource: 'admin' });
  }, 60_000);

  it('moves the cameras lined up against the reference when the admin moves the reference, and back with automatic', async () => {
    const two = (await rowOf('two')).syncOffsetS;
    expect((await app.fetch(`/api/admin/footage/${ids.one}/offset`, { method: 'PUT', json: { offsetS: 1 }, cookie: admin.cookie })).status).toBe(200);
    // The sync job the route sent puts camera 2 one second later on the game's clock.
    await eventually(async () => Math.abs((await rowOf('two')).syncOffsetS - (two + 1)) < 0.002, 60_000);
    expect(await rowOf('one')).toMatchObject({ syncOffsetS: 1, syncSource: 'admin' });
    const auto = await app.fetch(`/api/admin/footage/${ids.one}/offset`, { method: 'PUT', json: { offsetS: null }, cookie: admin.cookie });
    expect(auto.status).toBe(200);
    await eventually(async () => (await rowOf('one')).syncSource === 'reference' && Math.abs((await rowOf('two')).syncOffsetS - two) < 0.002, 60_000);
    expect((await rowOf('one')).syncOffsetS).toBe(0);
  }, 150_000);

  it('groups the review’s clips into moments by the game’s clock and gives each file its offset', async () => {
    const two = await rowOf('two');
    const [request] = await app.db
      .insert(highlightRequests)
      .values({ userId: parent.userId, status: 'ready_to_purchase', eventId: EVENT, event: 'Austin Fall League', games: [], matchingState: 'ready' })
      .returning();
    const base = { requestId: request!.id, gameId, confidence: 0.9, distance: 0.3, faceHeight: 120 };
    // Camera 1 at 10–14 s; camera 2 at the same instant of the game, its own 10 − offset s; and
    // camera 2 at 10–14 s of its own file, which is later in the game.
    const [a, b, c] = await app.db
      .insert(appearances)
      .values([
        { ...base, footageId: ids.one!, camera: 'Camera 1', startS: 10, endS: 14, rank: 1 },
        { ...base, footageId: ids.two!, camera: 'Camera 2', startS: 10 - two.syncOffsetS, endS: 14 - two.syncOffsetS, rank: 2, faceHeight: 160 },
        { ...base, footageId: ids.two!, camera: 'Camera 2', startS: 10, endS: 14, rank: 3 },
      ])
      .returning();
    const review = await jsonOf<{ footage: Array<{ id: string; syncOffsetS: number; syncSource: string }>; moments: Array<{ startS: number; endS: number; appearanceIds: string[]; preferredId: string }> }>(
      await app.fetch(`/api/admin/requests/${request!.id}/review`, { cookie: admin.cookie }),
    );
    expect(review.footage.find((f) => f.id === ids.two)).toMatchObject({ syncOffsetS: two.syncOffsetS, syncSource: 'audio' });
    expect(review.moments).toHaveLength(2);
    const both = review.moments.find((m) => m.appearanceIds.length === 2)!;
    expect(both.appearanceIds.sort()).toEqual([a!.id, b!.id].sort());
    expect(both.preferredId).toBe(b!.id);
    expect(both.startS).toBeCloseTo(10, 2);
    const alone = review.moments.find((m) => m.appearanceIds.length === 1)!;
    expect(alone.appearanceIds).toEqual([c!.id]);
    expect(alone.startS).toBeCloseTo(10 + two.syncOffsetS, 2);
  });
});
