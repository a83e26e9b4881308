// The athlete's videos: the list (GET /api/videos), streaming with Range, downloads, and
// thumbnails (PUT /api/videos/:id/thumbnail, served from /api/media/video-thumbnails/...).
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, INVALID_FILE_TYPE } from '../../src/common/messages';
import { MEDIA } from '../../src/common/dashboard-messages';
import { MEDIA_CACHE_CONTROL } from '../../src/common/constants';
import { userVideos } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { asJpeg, insertVideo, jpeg, jpegWithGps, keyOf, makeAdmin, readStored, storageOf, upload, type UploadFile } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
interface VideoBody {
  id: string;
  title: string;
  orientation: 'horizontal' | 'vertical';
  streamUrl: string | null;
  downloadUrl: string | null;
  thumbnailUrl: string | null;
  createdAt: string;
}

let app: TestApp;
let athlete: User;
let other: User;
let admin: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  [athlete, other, admin] = [await createVerifiedUser(app), await createVerifiedUser(app), await createVerifiedUser(app)];
  await makeAdmin(app, admin.userId);
});
afterAll(async () => {
  await app?.close();
});

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
const videoRow = async (id: string) => (await app.db.select().from(userVideos).where(eq(userVideos.id, id)))[0]!;
const get = (path: string, cookie?: string, headers: Record<string, string> = {}) => app.fetch(path, { cookie, headers });

describe('GET /api/videos', () => {
  it("lists only the caller's visible, active videos: newest first, horizontal before vertical", async () => {
    const user = await createVerifiedUser(app);
    const oldWide = await insertVideo(app, user.userId, { videoTitle: 'Old wide', createdAt: hoursAgo(5) });
    const newestTall = await insertVideo(app, user.userId, { videoTitle: 'Newest tall', width: 1080, height: 1920, createdAt: hoursAgo(0) });
    const olderTall = await insertVideo(app, user.userId, { videoTitle: 'Older tall', width: 720, height: 1280, createdAt: hoursAgo(6) });
    const newWide = await insertVideo(app, user.userId, { videoTitle: 'New wide', createdAt: hoursAgo(1) });
    const square = await insertVideo(app, user.userId, { videoTitle: 'Square', width: 1000, height: 1000, createdAt: hoursAgo(3) });
    const processing = await insertVideo(
      app,
      user.userId,
      { videoTitle: 'Processing', width: null, height: null, createdAt: hoursAgo(2) },
      { bytes: null },
    );
    await insertVideo(app, user.userId, { videoTitle: 'Hidden', isVisible: false, isPaid: false, createdAt: hoursAgo(0.5) });
    await insertVideo(app, user.userId, { videoTitle: 'Archived', status: 'archived', createdAt: hoursAgo(0.5) });
    await insertVideo(app, other.userId, { videoTitle: 'Not yours', createdAt: hoursAgo(0.5) });

    const res = await get('/api/videos', user.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const list = await jsonOf<VideoBody[]>(res);
    expect(list.map((v) => v.title)).toEqual(['New wide', 'Processing', 'Square', 'Old wide', 'Newest tall', 'Older tall']);
    expect(list.map((v) => v.id)).toEqual([newWide.id, processing.id, square.id, oldWide.id, newestTall.id, olderTall.id]);
    expect(list.map((v) => v.orientation)).toEqual(['horizontal', 'horizontal', 'horizontal', 'horizontal', 'vertical', 'vertical']);

    const byTitle = Object.fromEntries(list.map((v) => [v.title, v]));
    // No file yet: the dashboard shows "Video Being Processed".
    expect(byTitle.Processing).toMatchObject({ streamUrl: null, downloadUrl: null });
    expect(byTitle['New wide']).toMatchObject({
      streamUrl: `/api/videos/${newWide.id}/stream`,
      downloadUrl: `/api/videos/${newWide.id}/download`,
      thumbnailUrl: null,
    });
    expect((await get(`/api/videos/${processing.id}/stream`, user.cookie)).status).toBe(404);
  });

  it('gives an empty list to a user with no videos and 401 to a visitor', async () => {
    const fresh = await createVerifiedUser(app);
    expect(await jsonOf(await get('/api/videos', fresh.cookie))).toEqual([]);
    const res = await get('/api/videos');
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
  });
});

describe('GET /api/videos/:id/stream and /download', () => {
  let video: Awaited<ReturnType<typeof insertVideo>>;
  let bytes: Buffer;
  beforeAll(async () => {
    video = await insertVideo(app, athlete.userId, { videoTitle: 'Semifinal vs Rebels' });
    bytes = video.bytes!;
  });

  it('streams the whole file to the owner, announcing Range support', async () => {
    const res = await get(`/api/videos/${video.id}/stream`, athlete.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const res = await get(`/api/videos/${video.id}/stream`, athlete.cookie, { Range: 'bytes=10-99' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 10-99/${bytes.length}`);
    expect(res.headers.get('content-length')).toBe('90');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(10, 100))).toBe(true);
  });

  it('answers a suffix range and an open-ended range', async () => {
    const suffix = await get(`/api/videos/${video.id}/stream`, athlete.cookie, { Range: 'bytes=-50' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(`bytes ${bytes.length - 50}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 50))).toBe(true);

    const open = await get(`/api/videos/${video.id}/stream`, athlete.cookie, { Range: 'bytes=900-' });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 900-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(900))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 and the size', async () => {
    for (const range of [`bytes=${bytes.length}-`, `bytes=5000-6000`, 'bytes=99-10', 'bytes=-']) {
      const res = await get(`/api/videos/${video.id}/stream`, athlete.cookie, { Range: range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range'), range).toBe(`bytes */${bytes.length}`);
    }
  });

  it('answers another user 404 for stream and download, like a video that does not exist', async () => {
    for (const mode of ['stream', 'download']) {
      const res = await get(`/api/videos/${video.id}/${mode}`, other.cookie);
      expect(res.status).toBe(404);
      expect(await jsonOf(res)).toEqual({ code: 'NOT_FOUND', message: MEDIA.notFound });
    }
    expect((await get(`/api/videos/00000000-0000-4000-8000-000000000000/stream`, athlete.cookie)).status).toBe(404);
    expect((await get(`/api/videos/not-a-uuid/stream`, athlete.cookie)).status).toBe(404);
    expect((await get(`/api/videos/${video.id}/stream`)).status).toBe(401);
  });

  it('hides a hidden video from its owner (404) but serves it to an admin', async () => {
    const hidden = await insertVideo(app, athlete.userId, { videoTitle: 'Unpaid reel', isVisible: false, isPaid: false });
    expect((await get(`/api/videos/${hidden.id}/stream`, athlete.cookie)).status).toBe(404);
    expect((await get(`/api/videos/${hidden.id}/download`, athlete.cookie)).status).toBe(404);
    const res = await get(`/api/videos/${hidden.id}/stream`, admin.cookie);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(hidden.bytes!)).toBe(true);

    const archived = await insertVideo(app, athlete.userId, { videoTitle: 'Archived', status: 'archived' });
    expect((await get(`/api/videos/${archived.id}/stream`, athlete.cookie)).status).toBe(404);
  });

  it('downloads a video without a request as an attachment named "{athlete} – {title}.mp4", private and nosniff', async () => {
    const res = await get(`/api/videos/${video.id}/download`, athlete.cookie);
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment;/);
    expect(disposition).toContain('filename="Test Athlete - Semifinal vs Rebels.mp4"');
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Test Athlete – Semifinal vs Rebels.mp4')}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const ranged = await get(`/api/videos/${video.id}/download`, athlete.cookie, { Range: 'bytes=0-9' });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(0, 10))).toBe(true);
  });

  it('keeps a non-ASCII title in filename* with an ASCII fallback in filename', async () => {
    const title = 'Finale – Équipe Ñandú ⚡';
    const v = await insertVideo(app, athlete.userId, { videoTitle: title });
    const res = await get(`/api/videos/${v.id}/download`, athlete.cookie);
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition')!;
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition);
    expect(star).not.toBeNull();
    expect(decodeURIComponent(star![1]!)).toBe(`Test Athlete – ${title}.mp4`);
    const plain = /filename="([^"]*)"/.exec(disposition);
    expect(plain).not.toBeNull();
    expect(plain![1]).toMatch(/^[\x20-\x7e]+\.mp4$/);
    expect(plain![1]).toBe('Test Athlete - Finale - Equipe Nandu _.mp4');
  });

  it('makes a title with quotes or slashes safe in the file name', async () => {
    const v = await insertVideo(app, athlete.userId, { videoTitle: 'Game "7" / Finals\\2024' });
    const disposition = (await get(`/api/videos/${v.id}/download`, athlete.cookie)).headers.get('content-disposition')!;
    const plain = /filename="([^"]*)"/.exec(disposition)![1]!;
    expect(plain.endsWith('.mp4')).toBe(true);
    expect(plain).not.toMatch(/["\\/]/);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await app.fetch(`/api/videos/${video.id}/stream`, { method: 'HEAD', cookie: athlete.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('PUT /api/videos/:id/thumbnail', () => {
  const putThumbnail = (id: string, cookie: string | undefined, file: UploadFile) =>
    upload(app, `/api/videos/${id}/thumbnail`, { thumbnail: file }, { method: 'PUT', cookie });

  it('lets the owner set a thumbnail, stored without metadata and served from /api/media', async () => {
    const v = await insertVideo(app, athlete.userId, { videoTitle: 'Thumb me' });
    const res = await putThumbnail(v.id, athlete.cookie, asJpeg(await jpegWithGps(1280, 720), 'frame.jpg'));
    expect(res.status).toBe(200);
    const body = await jsonOf<VideoBody>(res);
    expect(body.id).toBe(v.id);
    expect(body.thumbnailUrl).toMatch(new RegExp(`^/api/media/video-thumbnails/${athlete.userId}/[A-Za-z0-9._-]+\\.jpg$`));
    expect((await videoRow(v.id)).thumbnailUrl).toBe(keyOf(body.thumbnailUrl));
    const stored = await sharp(await readStored(storageOf(app), keyOf(body.thumbnailUrl))).metadata();
    expect(stored.format).toBe('jpeg');
    expect(stored.exif).toBeUndefined();

    const listed = (await jsonOf<VideoBody[]>(await get('/api/videos', athlete.cookie))).find((x) => x.id === v.id)!;
    expect(listed.thumbnailUrl).toBe(body.thumbnailUrl);
    const served = await get(body.thumbnailUrl!, athlete.cookie);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');

    // A new thumbnail replaces the file.
    const again = await jsonOf<VideoBody>(await putThumbnail(v.id, athlete.cookie, asJpeg(await jpeg(1280, 720, '#000000'))));
    expect(again.thumbnailUrl).not.toBe(body.thumbnailUrl);
    expect(await storageOf(app).stat(keyOf(body.thumbnailUrl))).toBeNull();
    expect(await storageOf(app).list(`video-thumbnails/${athlete.userId}/`)).toContain(keyOf(again.thumbnailUrl));
  });

  it("answers another user 404 and changes nothing on someone else's video", async () => {
    const v = await insertVideo(app, athlete.userId, { videoTitle: 'Not theirs' });
    const before = await videoRow(v.id);
    const filesBefore = [
      ...(await storageOf(app).list(`video-thumbnails/${athlete.userId}/`)),
      ...(await storageOf(app).list(`video-thumbnails/${other.userId}/`)),
    ];
    const res = await putThumbnail(v.id, other.cookie, asJpeg(await jpeg(640, 360)));
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toEqual({ code: 'NOT_FOUND', message: MEDIA.notFound });
    expect(await videoRow(v.id)).toEqual(before);
    expect([
      ...(await storageOf(app).list(`video-thumbnails/${athlete.userId}/`)),
      ...(await storageOf(app).list(`video-thumbnails/${other.userId}/`)),
    ]).toEqual(filesBefore);
    expect((await putThumbnail(v.id, undefined, asJpeg(await jpeg(640, 360)))).status).toBe(401);
    expect((await videoRow(v.id)).thumbnailUrl).toBeNull();
  });

  it('refuses a file that is not an image with 400 Invalid File Type, changing nothing', async () => {
    const v = await insertVideo(app, athlete.userId, { videoTitle: 'Bad thumb' });
    const res = await putThumbnail(v.id, athlete.cookie, { bytes: Buffer.from('not an image at all'), name: 'frame.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ code: 'INVALID_FILE_TYPE', message: INVALID_FILE_TYPE.description, title: INVALID_FILE_TYPE.title });
    expect((await videoRow(v.id)).thumbnailUrl).toBeNull();
    const missing = await upload(app, `/api/videos/${v.id}/thumbnail`, {}, { method: 'PUT', cookie: athlete.cookie, fields: { x: '1' } });
    expect(missing.status).toBe(400);
  });

  it('stops serving the thumbnail to the owner once the video is hidden, but an admin still gets it', async () => {
    const v = await insertVideo(app, athlete.userId, { videoTitle: 'Soon hidden' });
    const body = await jsonOf<VideoBody>(await putThumbnail(v.id, athlete.cookie, asJpeg(await jpeg(640, 360))));
    expect((await get(body.thumbnailUrl!, athlete.cookie)).status).toBe(200);
    expect((await get(body.thumbnailUrl!, other.cookie)).status).toBe(404);

    await app.db.update(userVideos).set({ isVisible: false }).where(eq(userVideos.id, v.id));
    const res = await get(body.thumbnailUrl!, athlete.cookie);
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toEqual({ code: 'NOT_FOUND', message: MEDIA.notFound });
    expect((await get(body.thumbnailUrl!, admin.cookie)).status).toBe(200);
    // Nor may the owner replace the thumbnail of a hidden video.
    expect((await putThumbnail(v.id, athlete.cookie, asJpeg(await jpeg(640, 360)))).status).toBe(404);
  });

  it('never serves the video file itself through /api/media', async () => {
    const v = await insertVideo(app, athlete.userId, { videoTitle: 'Direct' });
    expect((await get(`/api/media/${v.key}`, athlete.cookie)).status).toBe(404);
    expect((await get(`/api/media/${v.key}`, admin.cookie)).status).toBe(404);
  });
});
