// Admins upload videos for an athlete resumably (tus, issue 8), and the 'media.process-video'
// job makes each one web-playable: real uploads with tus-js-client, real ffmpeg.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD } from '../../src/common/dashboard-messages';
import { ADMIN } from '../../src/common/admin-messages';
import { userVideos } from '../../src/server/db/schema';
import { cookiesFrom, createVerifiedUser, markVerified, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { insertPerson, makeAdmin, readStored, storageOf } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { insertRequest } from '../support/purchase';
import { startTestS3 } from '../support/s3';
import { isFaststart, makeVideo, probe } from '../support/videos';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let admin: User;
let otherAdmin: User;
let athlete: User;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-upload-'));

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Uma Uploader' });
  otherAdmin = await createVerifiedUser(app, { fullName: 'Oscar Other' });
  await makeAdmin(app, admin.userId);
  await makeAdmin(app, otherAdmin.userId);
  athlete = await createVerifiedUser(app, { fullName: 'Ava Athlete' });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface UploadResult {
  url: string | null;
  body: Record<string, unknown> | null;
  error: { status: number; body: Record<string, unknown> | null } | null;
}

/** Uploads `data` with tus-js-client as the dialog does; `stopAfter` aborts once that many bytes went. */
function tusUpload(
  target: TestApp,
  cookie: string,
  data: Buffer,
  metadata: Record<string, string>,
  opts: { uploadUrl?: string; stopAfter?: number; chunkSize?: number } = {},
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: `${target.url}/api/admin/uploads`,
      uploadUrl: opts.uploadUrl,
      chunkSize: opts.chunkSize ?? 256 * 1024,
      retryDelays: [],
      metadata,
      headers: { cookie, origin: target.origin },
      onProgress(sent) {
        if (opts.stopAfter && sent >= opts.stopAfter) {
          void upload.abort().then(() => resolve({ url: upload.url, body: null, error: null }));
        }
      },
      onSuccess({ lastResponse }) {
        resolve({ url: upload.url, body: JSON.parse(lastResponse.getBody() || 'null') as Record<string, unknown>, error: null });
      },
      onError(error) {
        const res = (error as tus.DetailedError).originalResponse;
        const text = res?.getBody() ?? '';
        let body: Record<string, unknown> | null = null;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = { text };
        }
        resolve({ url: upload.url, body: null, error: { status: res?.getStatus() ?? 0, body } });
      },
    });
    upload.start();
  });
}

const meta = (over: Record<string, string> = {}) => ({
  userId: athlete.userId,
  title: 'Fall League Highlights',
  description: 'Saturday games',
  tournament: 'Austin Fall League',
  paid: 'false',
  filename: 'highlights.mp4',
  ...over,
});
const videoRow = async (id: string) => (await app.db.select().from(userVideos).where(eq(userVideos.id, id)))[0]!;
const waitReady = (id: string) => expect.poll(async () => (await videoRow(id)).processingState, { timeout: 60_000, interval: 250 }).toBe('ready');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('uploading a video', () => {
  it.each([
    ['an MP4', { container: 'mp4' as const }],
    ['a MOV', { container: 'mov' as const }],
    ['a WebM', { container: 'webm' as const }],
  ])('%s becomes a playable H.264/AAC MP4 with its index first, a thumbnail, its duration and size', async (_what, recipe) => {
    const bytes = fs.readFileSync(makeVideo({ ...recipe, seconds: 2 }));
    const result = await tusUpload(app, admin.cookie, bytes, meta({ filename: `clip.${recipe.container}` }));
    expect(result.error).toBeNull();
    const videoId = result.body!.videoId as string;
    await waitReady(videoId);
    const row = await videoRow(videoId);
    expect(row).toMatchObject({
      userId: athlete.userId,
      videoTitle: 'Fall League Highlights',
      videoDescription: 'Saturday games',
      tournamentName: 'Austin Fall League',
      uploadedBy: admin.userId,
      isProcessed: true,
      processingProgress: 100,
      sourceKey: null,
      width: 320,
      height: 240,
    });
    expect(row.durationSeconds).toBeCloseTo(2, 0);
    const file = path.join(tmp, `${videoId}.mp4`);
    fs.writeFileSync(file, await readStored(storageOf(app), row.videoUrl!));
    const info = probe(file);
    expect(info.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(isFaststart(file)).toBe(true);
    expect(row.fileSizeMb).toBeCloseTo(fs.statSync(file).size / (1024 * 1024), 2);
    expect(await storageOf(app).stat(row.thumbnailUrl!)).toMatchObject({ contentType: 'image/jpeg' });
    // The original is gone once the playable file exists.
    expect(await storageOf(app).list(`user-videos/${athlete.userId}/`)).not.toContain(`user-videos/${athlete.userId}/${videoId}.source`);
  });

  it('strips the location and every other tag a phone writes, and puts the index first', async () => {
    const bytes = fs.readFileSync(makeVideo({ container: 'mp4', gps: true, indexAtEnd: true }));
    expect(probe(makeVideo({ container: 'mp4', gps: true, indexAtEnd: true })).format.tags).toHaveProperty('location');
    const { body } = await tusUpload(app, admin.cookie, bytes, meta());
    await waitReady(body!.videoId as string);
    const file = path.join(tmp, 'clean.mp4');
    fs.writeFileSync(file, await readStored(storageOf(app), (await videoRow(body!.videoId as string)).videoUrl!));
    const info = probe(file);
    const tags = [info.format.tags ?? {}, ...info.streams.map((s) => s.tags ?? {})].flatMap((t) => Object.entries(t));
    expect(tags.filter(([k, v]) => /location|iso6709|gps/i.test(k) || v.includes('40.7128'))).toEqual([]);
    expect(isFaststart(file)).toBe(true);
  });

  it('a vertical video is stored as vertical; the optional fields may be left empty', async () => {
    const { body } = await tusUpload(app, admin.cookie, fs.readFileSync(makeVideo({ container: 'mp4', width: 240, height: 426 })), meta({ description: '', tournament: '' }));
    await waitReady(body!.videoId as string);
    expect(await videoRow(body!.videoId as string)).toMatchObject({ width: 240, height: 426, videoDescription: null, tournamentName: null });
  });

  it('Not Yet Paid keeps it hidden from the athlete; Already Paid shows it at once', async () => {
    const clip = fs.readFileSync(makeVideo({ container: 'mp4' }));
    const hidden = await tusUpload(app, admin.cookie, clip, meta({ title: 'Hidden Until Paid', paid: 'false' }));
    const shown = await tusUpload(app, admin.cookie, clip, meta({ title: 'Paid Already', paid: 'true' }));
    expect(await videoRow(hidden.body!.videoId as string)).toMatchObject({ isPaid: false, isVisible: false });
    expect(await videoRow(shown.body!.videoId as string)).toMatchObject({ isPaid: true, isVisible: true });
    const titles = (await jsonOf<Array<{ title: string }>>(await app.fetch('/api/videos', { cookie: athlete.cookie }))).map((v) => v.title);
    expect(titles).toContain('Paid Already');
    expect(titles).not.toContain('Hidden Until Paid');
    expect(DASHBOARD.videoProcessing).toBeTruthy();
  });

  it("Not Yet Paid can wait for one of the athlete's requests, never another user's", async () => {
    const clip = fs.readFileSync(makeVideo({ container: 'mp4' }));
    const own = await insertRequest(app, athlete.userId);
    const other = await createVerifiedUser(app);
    const foreign = await insertRequest(app, other.userId);
    const before = await app.db.select().from(userVideos);
    const refused = await tusUpload(app, admin.cookie, clip, meta({ title: 'Wrong Request', paid: 'false', requestId: foreign }));
    expect(refused.error).toMatchObject({ status: 400, body: { code: 'REQUEST_NOT_FOUND', message: ADMIN.video.failedFallback, title: ADMIN.video.uploadFailed } });
    expect(await app.db.select().from(userVideos)).toHaveLength(before.length);
    const kept = await tusUpload(app, admin.cookie, clip, meta({ title: 'For The Request', paid: 'false', requestId: own }));
    expect(await videoRow(kept.body!.videoId as string)).toMatchObject({ isPaid: false, isVisible: false, requestId: own });
  });

  it('a text file named .mp4 is refused by its bytes, and nothing is kept', async () => {
    const before = await app.db.select().from(userVideos);
    const result = await tusUpload(app, admin.cookie, Buffer.from('this is not a video, just text\n'.repeat(100)), meta({ filename: 'fake.mp4' }));
    expect(result.error?.status).toBe(415);
    expect(result.error?.body).toEqual({ code: 'INVALID_FILE_TYPE', message: ADMIN.video.invalidTypeText, title: ADMIN.video.invalidType });
    expect(await app.db.select().from(userVideos)).toHaveLength(before.length);
    expect(fs.readdirSync(path.join(app.dataDir, 'uploads'))).toEqual([]);
  });

  it('a title is required; a user who does not exist cannot get one', async () => {
    const clip = fs.readFileSync(makeVideo({ container: 'mp4' }));
    const untitled = await tusUpload(app, admin.cookie, clip, meta({ title: '   ' }));
    expect(untitled.error).toMatchObject({ status: 400, body: { code: 'TITLE_REQUIRED', message: ADMIN.video.titleRequired } });
    const nobody = await tusUpload(app, admin.cookie, clip, meta({ userId: 'no-such-user' }));
    expect(nobody.error?.status).toBe(404);
  });

  it('over 500MB is refused from its announced length, before a byte is stored', async () => {
    const res = await app.fetch('/api/admin/uploads', {
      method: 'POST',
      cookie: admin.cookie,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(500 * 1024 * 1024 + 1), 'upload-metadata': `title ${Buffer.from('Big').toString('base64')}` },
    });
    expect(res.status).toBe(413);
    expect(fs.readdirSync(path.join(app.dataDir, 'uploads'))).toEqual([]);
  });

  it("another admin cannot continue, check or cancel someone's upload", async () => {
    const clip = fs.readFileSync(makeVideo({ container: 'mp4', seconds: 4 }));
    const half = await tusUpload(app, admin.cookie, clip, meta(), { stopAfter: clip.length / 2, chunkSize: 16 * 1024 });
    expect(half.url).toBeTruthy();
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      const res = await app.fetch(new URL(half.url!).pathname, {
        method,
        cookie: otherAdmin.cookie,
        headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: method === 'PATCH' ? new Uint8Array(10) : undefined,
      });
      expect(res.status, method).toBe(404);
    }
    // The admin who started it finishes it.
    const rest = await tusUpload(app, admin.cookie, clip, meta(), { uploadUrl: half.url! });
    expect(rest.error).toBeNull();
  });
});

describe('resuming', () => {
  it('an upload cut off half-way resumes where it stopped and ends byte-identical', async () => {
    // No worker: the original stays in storage exactly as uploaded, to be compared.
    const quiet = await startTestApp({ runWorker: false });
    try {
      // No worker sends mail here either: the admin's address is confirmed directly.
      const email = uniqueEmail('resume');
      await quiet.fetch('/api/account/sign-up', { method: 'POST', json: { fullName: 'Res Uploader', email, password: 'secret123' } });
      await markVerified(quiet, email);
      const signIn = await quiet.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'secret123' } });
      const uploader = { cookie: cookiesFrom(signIn), userId: ((await jsonOf<{ user: { id: string } }>(signIn)).user.id) };
      await makeAdmin(quiet, uploader.userId);
      const owner = await insertPerson(quiet, { firstName: 'Res', lastName: 'Ume' });
      const clip = fs.readFileSync(makeVideo({ container: 'mp4', width: 640, height: 360, seconds: 6 }));
      const first = await tusUpload(quiet, uploader.cookie, clip, meta({ userId: owner }), { stopAfter: clip.length / 2, chunkSize: 32 * 1024 });
      const offset = Number((await quiet.fetch(new URL(first.url!).pathname, { method: 'HEAD', cookie: uploader.cookie, headers: { 'tus-resumable': '1.0.0' } })).headers.get('upload-offset'));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(clip.length);
      // A new client (a reopened laptop) carries on from the same upload URL.
      const second = await tusUpload(quiet, uploader.cookie, clip, meta({ userId: owner }), { uploadUrl: first.url!, chunkSize: 32 * 1024 });
      expect(second.error).toBeNull();
      const videoId = second.body!.videoId as string;
      const [row] = await quiet.db.select().from(userVideos).where(eq(userVideos.id, videoId));
      expect(row).toMatchObject({ processingState: 'queued', sourceKey: `user-videos/${owner}/${videoId}.source` });
      expect(sha(await readStored(quiet.server.deps.storage, row!.sourceKey!))).toBe(sha(clip));
    } finally {
      await quiet.close();
    }
  });
});

describe('with the videos in an S3 bucket', () => {
  it('the original is read from the bucket as ffmpeg goes, and the playable MP4 is stored there without its location', async () => {
    const s3 = await startTestS3();
    const bucketApp = await startTestApp({ rateLimitScale: 50, s3: s3.config });
    try {
      const uploader = await createVerifiedUser(bucketApp, { fullName: 'Bo Bucket' });
      await makeAdmin(bucketApp, uploader.userId);
      const player = await createVerifiedUser(bucketApp, { fullName: 'Pia Player' });
      const bytes = fs.readFileSync(makeVideo({ container: 'mp4', gps: true, indexAtEnd: true }));
      const result = await tusUpload(bucketApp, uploader.cookie, bytes, { ...meta(), userId: player.userId });
      expect(result.error).toBeNull();
      const videoId = result.body!.videoId as string;
      const row = async () => (await bucketApp.db.select().from(userVideos).where(eq(userVideos.id, videoId)))[0]!;
      await expect.poll(async () => (await row()).processingState, { timeout: 60_000, interval: 250 }).toBe('ready');
      const ready = await row();
      expect(storageOf(bucketApp).localPath(ready.videoUrl!)).toBeNull();
      const file = path.join(tmp, `${videoId}-bucket.mp4`);
      fs.writeFileSync(file, await readStored(storageOf(bucketApp), ready.videoUrl!));
      expect(isFaststart(file)).toBe(true);
      const info = probe(file);
      const tags = [info.format.tags ?? {}, ...info.streams.map((s) => s.tags ?? {})].flatMap((t) => Object.entries(t));
      expect(tags.filter(([k, v]) => /location|iso6709|gps/i.test(k) || v.includes('40.7128'))).toEqual([]);
      expect(await storageOf(bucketApp).list(`user-videos/${player.userId}/`)).not.toContain(`user-videos/${player.userId}/${videoId}.source`);
    } finally {
      await bucketApp.close();
      await s3.close();
    }
  });
});
