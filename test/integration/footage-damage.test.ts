// Damaged game footage and camera names (issue 22): a file cut off at upload is refused as
// damaged; one that passes the upload but cannot be read through fails its index job at once,
// for good, with a plain message, listed under the failed jobs, and Re-index runs it again. Two
// files of one game cannot share a camera's name, except the name of a damaged file, which the
// new upload replaces.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOOTAGE } from '../../src/common/admin-messages';
import { footage } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeDamagedFootage, type DamagedFootage } from '../support/damaged-footage';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { jobsOf, jobsSettled } from '../support/jobs';
import { eventually } from '../support/purchase';

let app: TestApp;
let admin: { cookie: string; userId: string };
let parent: { cookie: string; userId: string };
let files: DamagedFootage;
let eventId: string;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-damaged-'));

type Result = { footageId?: string; status?: number; body?: unknown };
function upload(cookie: string, file: string, metadata: Record<string, string>): Promise<Result> {
  return new Promise((resolve) => {
    new tus.Upload(fs.readFileSync(file), {
      endpoint: `${app.url}/api/admin/footage-uploads`,
      chunkSize: 1024 * 1024,
      retryDelays: [],
      metadata,
      headers: { cookie, origin: app.origin },
      onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody()) as { footageId: string }),
      onError: (error) => {
        const res = (error as tus.DetailedError).originalResponse;
        resolve({ status: res?.getStatus(), body: res ? JSON.parse(res.getBody() || 'null') : null });
      },
    }).start();
  });
}

async function newGame(label: string): Promise<string> {
  const res = await app.fetch(`/api/admin/events/${eventId}/games`, { method: 'POST', json: { label }, cookie: admin.cookie });
  return ((await res.json()) as { id: string }).id;
}

const rowOf = async (id: string) => (await app.db.select().from(footage).where(eq(footage.id, id)))[0];
const settled = (id: string) => eventually(async () => {
  const row = await rowOf(id);
  return row && (row.indexState === 'failed' || row.indexState === 'indexed') ? row : null;
}, 60_000);
const unfinishedUploads = () => fs.readdirSync(path.join(app.dataDir, 'footage-uploads')).filter((f) => !f.endsWith('.json'));

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Footage Admin' });
  await makeAdmin(app, admin.userId);
  parent = await createVerifiedUser(app, { fullName: 'Curious Parent' });
  files = makeDamagedFootage(work);
  const res = await app.fetch('/api/admin/events', { method: 'POST', json: { name: 'Damage Cup', location: 'Austin', dates: 'Mar 7-8' }, cookie: admin.cookie });
  eventId = ((await res.json()) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('damaged footage', () => {
  it('a file cut off half-way is refused at upload as damaged; nothing is stored or queued', async () => {
    const gameId = await newGame('Cut off');
    const result = await upload(admin.cookie, files.cutOff, { gameId, camera: 'Camera 1', filename: 'cut-off.mp4' });
    expect(result).toEqual({ status: 415, body: { code: 'DAMAGED_FILE', message: FOOTAGE.damaged } });
    expect(await app.db.select().from(footage).where(eq(footage.gameId, gameId))).toEqual([]);
    expect(unfinishedUploads()).toEqual([]);
  });

  for (const kind of ['mediaMissing', 'scrambled'] as const) {
    it(`${kind}: the index job fails at once, for good, with the plain message; listed under failed jobs`, async () => {
      const gameId = await newGame(`Game ${kind}`);
      const { footageId } = await upload(admin.cookie, files[kind], { gameId, camera: 'Camera 1', filename: `${kind}.mp4` });
      expect(footageId).toBeTruthy();
      const row = await settled(footageId!);
      expect(row).toMatchObject({ indexState: 'failed', indexError: FOOTAGE.damaged, indexProgress: 0 });
      // The job failed on its first run and no retry waits. The queue records that just after the
      // handler marked the file failed: wait for it.
      await jobsSettled(app, 'faces.index-footage');
      const jobs = (await jobsOf(app, 'faces.index-footage')).filter((j) => j.data.footageId === footageId);
      expect(jobs.map((j) => ({ state: j.state, retries: j.retry_count, message: j.output?.message }))).toEqual([{ state: 'failed', retries: 0, message: FOOTAGE.damaged }]);
      const failed = (await jsonOf(await app.fetch('/api/admin/jobs/failed', { cookie: admin.cookie }))) as unknown as Array<{ id: string; name: string; error: string }>;
      expect(failed).toContainEqual(expect.objectContaining({ id: footageId, name: 'faces.index-footage', error: FOOTAGE.damaged }));
      // What the footage screen reads: the plain sentence, nothing of the tools or the disk.
      const listed = (await jsonOf(await app.fetch(`/api/admin/events/${eventId}/footage`, { cookie: admin.cookie }))) as unknown as Array<{ id: string; indexState: string; indexError: string }>;
      expect(listed.find((f) => f.id === footageId)).toMatchObject({ indexState: 'failed', indexError: FOOTAGE.damaged });
    }, 90_000);
  }

  it('Re-index runs a failed file again: still damaged it fails again; once the file is whole it is indexed', async () => {
    const gameId = await newGame('Re-index');
    const { footageId } = await upload(admin.cookie, files.mediaMissing, { gameId, camera: 'Camera 1', filename: 'broken.mp4' });
    await settled(footageId!);

    // Only an admin may: a visitor and a signed-in parent change nothing.
    const visitor = await app.fetch(`/api/admin/footage/${footageId}/reindex`, { method: 'POST' });
    expect(visitor.status).toBe(401);
    const notAdmin = await app.fetch(`/api/admin/footage/${footageId}/reindex`, { method: 'POST', cookie: parent.cookie });
    expect(notAdmin.status).toBe(403);
    expect((await app.fetch('/api/admin/jobs/failed', { cookie: parent.cookie })).status).toBe(403);
    expect(await rowOf(footageId!)).toMatchObject({ indexState: 'failed', indexError: FOOTAGE.damaged });

    const again = await app.fetch(`/api/admin/footage/${footageId}/reindex`, { method: 'POST', cookie: admin.cookie });
    expect(again.status).toBe(200);
    expect(await jsonOf(again)).toMatchObject({ indexState: 'queued', indexError: null });
    await eventually(async () => (await jobsOf(app, 'faces.index-footage')).filter((j) => j.data.footageId === footageId && j.state === 'failed').length === 2, 60_000);
    expect(await rowOf(footageId!)).toMatchObject({ indexState: 'failed', indexError: FOOTAGE.damaged });

    // The stored file mended (as a new upload would bring it): Re-index indexes it.
    const row = await rowOf(footageId!);
    fs.copyFileSync(files.intact, path.join(app.dataDir, 'storage', row!.sourceKey));
    expect((await app.fetch(`/api/admin/footage/${footageId}/reindex`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    expect(await settled(footageId!)).toMatchObject({ indexState: 'indexed', indexError: null, durationSeconds: 4 });
  }, 180_000);
});

describe('camera names within a game', () => {
  it('refuses a second "Camera 1" (any case or spacing) before any byte, naming the next free one; nothing is created', async () => {
    const gameId = await newGame('Two cameras');
    const first = await upload(admin.cookie, files.intact, { gameId, camera: 'Camera 1', filename: 'one.mp4' });
    expect(first.footageId).toBeTruthy();
    for (const camera of ['Camera 1', '  camera   1 ']) {
      const twin = await upload(admin.cookie, files.intact, { gameId, camera, filename: 'two.mp4' });
      expect(twin).toEqual({ status: 422, body: { code: 'CAMERA_TAKEN', message: FOOTAGE.cameraTaken('Camera 1', 'Camera 2') } });
    }
    expect((await app.db.select().from(footage).where(eq(footage.gameId, gameId))).map((f) => f.camera)).toEqual(['Camera 1']);
    expect(unfinishedUploads()).toEqual([]);
    // Another game may have its own Camera 1, and this game a Camera 2.
    expect((await upload(admin.cookie, files.intact, { gameId: await newGame('Other game'), camera: 'Camera 1', filename: 'x.mp4' })).footageId).toBeTruthy();
    expect((await upload(admin.cookie, files.intact, { gameId, camera: 'Camera 2', filename: 'two.mp4' })).footageId).toBeTruthy();
  }, 60_000);

  it("a damaged file's camera name is free: the new upload replaces the damaged file", async () => {
    const gameId = await newGame('Upload again');
    const { footageId: damagedId } = await upload(admin.cookie, files.scrambled, { gameId, camera: 'Camera 1', filename: 'bad.mp4' });
    const damaged = await settled(damagedId!);
    expect(damaged.indexError).toBe(FOOTAGE.damaged);
    const { footageId } = await upload(admin.cookie, files.intact, { gameId, camera: 'Camera 1', filename: 'good.mp4' });
    expect(footageId).toBeTruthy();
    expect((await app.db.select().from(footage).where(eq(footage.gameId, gameId))).map((f) => [f.id, f.camera])).toEqual([[footageId, 'Camera 1']]);
    expect(fs.existsSync(path.join(app.dataDir, 'storage', damaged.sourceKey))).toBe(false);
  }, 90_000);

  it("a damaged file takes no part in lining up the game's cameras: the first whole one with sound is the reference", async () => {
    const gameId = await newGame('Clock');
    const { footageId: damagedId } = await upload(admin.cookie, files.scrambled, { gameId, camera: 'Camera 1', filename: 'bad.mp4' });
    await settled(damagedId!);
    const { footageId } = await upload(admin.cookie, files.intact, { gameId, camera: 'Camera 2', filename: 'good.mp4' });
    expect(await settled(footageId!)).toMatchObject({ indexState: 'indexed' });
    await eventually(async () => (await rowOf(footageId!))?.syncSource === 'reference', 30_000);
    expect(await rowOf(damagedId!)).toMatchObject({ indexState: 'failed', indexError: FOOTAGE.damaged, syncSource: null });
    await jobsSettled(app, 'footage.sync-game'); // the row changes inside the job, the queue records it just after
    const syncs = (await jobsOf(app, 'footage.sync-game')).filter((j) => j.data.gameId === gameId);
    expect(syncs.every((j) => j.state === 'completed')).toBe(true);
  }, 90_000);

  it('a parent or a visitor cannot upload footage at all', async () => {
    const gameId = await newGame('Guarded');
    expect((await upload(parent.cookie, files.intact, { gameId, camera: 'Camera 9', filename: 'p.mp4' })).status).toBe(403);
    expect((await upload('', files.intact, { gameId, camera: 'Camera 9', filename: 'p.mp4' })).status).toBe(401);
    expect(await app.db.select().from(footage).where(eq(footage.gameId, gameId))).toEqual([]);
  });
});
