// Avatar and banner uploads (POST /api/profile/avatar, /api/profile/banner) and the private
// media route that serves them (GET /api/media/{bucket}/{userId}/{file}).
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, FILE_TOO_LARGE_5MB, INVALID_FILE_TYPE } from '../../src/common/messages';
import { FILE_TOO_LARGE_10MB, MEDIA } from '../../src/common/dashboard-messages';
import { AVATAR_SIZE_PX, MEDIA_CACHE_CONTROL } from '../../src/common/constants';
import { userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import {
  asJpeg,
  jpeg,
  jpegWithGps,
  keyOf,
  makeAdmin,
  noisyPng,
  readStored,
  storageOf,
  upload,
  type UploadFile,
} from '../support/dashboard-fixtures';
import { GPS_TAGS, gpsTagsIn } from '../support/exif';
import { jsonOf, settle } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
interface ProfileBody {
  id: string;
  avatarUrl: string | null;
  originalAvatarUrl: string | null;
  bannerUrl: string | null;
}

let app: TestApp;
let athlete: User;
let other: User;
let admin: User;
let bigPng: Buffer; // a valid image between 5 and 10 MB

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  [athlete, other, admin] = [await createVerifiedUser(app), await createVerifiedUser(app), await createVerifiedUser(app)];
  await makeAdmin(app, admin.userId);
  bigPng = await noisyPng(6 * 1024 * 1024);
});
afterAll(async () => {
  await app?.close();
});

const MB5 = 5 * 1024 * 1024;
const profileRow = async (id: string) => (await app.db.select().from(userProfiles).where(eq(userProfiles.id, id)))[0]!;
const files = (bucket: string, userId: string) => storageOf(app).list(`${bucket}/${userId}/`);
const exists = async (key: string) => (await storageOf(app).stat(key)) !== null;

async function postAvatar(user: User, avatar: UploadFile, original?: UploadFile) {
  return upload(app, '/api/profile/avatar', original ? { avatar, original } : { avatar }, { cookie: user.cookie });
}
const postBanner = (user: User, banner: UploadFile) => upload(app, '/api/profile/banner', { banner }, { cookie: user.cookie });

async function okProfile(res: Response): Promise<ProfileBody> {
  expect(res.status).toBe(200);
  return jsonOf<ProfileBody>(res);
}

/** A request that must be refused with `status` and `text`, leaving the profile row and the user's files as they were. */
async function expectRefusedUnchanged(
  user: User,
  send: () => Promise<Response>,
  status: number,
  code: string,
  text: { title: string; description: string },
) {
  const before = await profileRow(user.userId);
  const avatarsBefore = await files('avatars', user.userId);
  const bannersBefore = await files('profile-banners', user.userId);
  const res = await send();
  expect(res.status).toBe(status);
  expect(await jsonOf(res)).toEqual({ code, message: text.description, title: text.title });
  expect(await profileRow(user.userId)).toEqual(before);
  expect(await files('avatars', user.userId)).toEqual(avatarsBefore);
  expect(await files('profile-banners', user.userId)).toEqual(bannersBefore);
}

describe('POST /api/profile/avatar', () => {
  it('stores the cropped avatar (at most 320x320) and the original, and points the profile at them', async () => {
    const res = await postAvatar(athlete, asJpeg(await jpeg(800, 800), 'avatar.jpg'), asJpeg(await jpeg(1600, 1200), 'original.jpg'));
    const body = await okProfile(res);
    expect(body.avatarUrl).toMatch(new RegExp(`^/api/media/avatars/${athlete.userId}/[A-Za-z0-9._-]+\\.jpg$`));
    expect(body.originalAvatarUrl).toMatch(new RegExp(`^/api/media/avatars/${athlete.userId}/[A-Za-z0-9._-]+\\.jpg$`));
    expect(body.originalAvatarUrl).not.toBe(body.avatarUrl);

    const avatar = await sharp(await readStored(storageOf(app), keyOf(body.avatarUrl))).metadata();
    expect(avatar.format).toBe('jpeg');
    expect(avatar.width).toBeLessThanOrEqual(AVATAR_SIZE_PX);
    expect(avatar.height).toBeLessThanOrEqual(AVATAR_SIZE_PX);
    expect(await exists(keyOf(body.originalAvatarUrl))).toBe(true);
    expect(await files('avatars', athlete.userId)).toEqual([keyOf(body.avatarUrl), keyOf(body.originalAvatarUrl)].sort());

    const row = await profileRow(athlete.userId);
    expect(row.avatarUrl).toBe(keyOf(body.avatarUrl));
    expect(row.originalAvatarUrl).toBe(keyOf(body.originalAvatarUrl));
    expect(await jsonOf(await app.fetch('/api/profile', { cookie: athlete.cookie }))).toMatchObject({
      avatarUrl: body.avatarUrl,
      originalAvatarUrl: body.originalAvatarUrl,
    });
  });

  it('re-cropping (avatar only) keeps the original and removes the replaced avatar file', async () => {
    const first = await okProfile(await postAvatar(athlete, asJpeg(await jpeg(320, 320, '#112233')), asJpeg(await jpeg(1000, 800))));
    const second = await okProfile(await postAvatar(athlete, asJpeg(await jpeg(320, 320, '#445566'))));
    expect(second.originalAvatarUrl).toBe(first.originalAvatarUrl);
    expect(second.avatarUrl).not.toBe(first.avatarUrl);
    expect(await exists(keyOf(first.avatarUrl))).toBe(false);
    expect(await exists(keyOf(second.avatarUrl))).toBe(true);
    expect(await exists(keyOf(second.originalAvatarUrl))).toBe(true);
    expect(await files('avatars', athlete.userId)).toEqual([keyOf(second.avatarUrl), keyOf(second.originalAvatarUrl)].sort());

    // A new picture with a new original removes both replaced files.
    const third = await okProfile(await postAvatar(athlete, asJpeg(await jpeg(320, 320, '#778899')), asJpeg(await jpeg(900, 900))));
    expect(third.originalAvatarUrl).not.toBe(second.originalAvatarUrl);
    expect(await exists(keyOf(second.avatarUrl))).toBe(false);
    expect(await exists(keyOf(second.originalAvatarUrl))).toBe(false);
    expect(await files('avatars', athlete.userId)).toEqual([keyOf(third.avatarUrl), keyOf(third.originalAvatarUrl)].sort());
  });

  it('refuses an avatar over 5MB with 413 and the File Too Large texts, changing nothing', async () => {
    expect(bigPng.byteLength).toBeGreaterThan(MB5);
    await expectRefusedUnchanged(athlete, () => postAvatar(athlete, { bytes: bigPng, name: 'big.png', type: 'image/png' }), 413, 'FILE_TOO_LARGE', FILE_TOO_LARGE_5MB);
  });

  it('refuses an original over 5MB even with a good avatar, changing nothing', async () => {
    const good = asJpeg(await jpeg(320, 320));
    await expectRefusedUnchanged(
      athlete,
      () => postAvatar(athlete, good, { bytes: bigPng, name: 'big.png', type: 'image/png' }),
      413,
      'FILE_TOO_LARGE',
      FILE_TOO_LARGE_5MB,
    );
  });

  it('refuses a text file and a non-image renamed .jpg with 400 Invalid File Type, changing nothing', async () => {
    const text = { bytes: Buffer.from('just some notes, not a picture\n'), name: 'notes.txt', type: 'text/plain' };
    await expectRefusedUnchanged(athlete, () => postAvatar(athlete, text), 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE);
    const renamed = { bytes: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n'), name: 'photo.jpg', type: 'image/jpeg' };
    await expectRefusedUnchanged(athlete, () => postAvatar(athlete, renamed), 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE);
    // A good avatar with a bad original is refused as a whole.
    const good = asJpeg(await jpeg(320, 320));
    await expectRefusedUnchanged(athlete, () => postAvatar(athlete, good, renamed), 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE);
    // No avatar field at all.
    await expectRefusedUnchanged(athlete, () => upload(app, '/api/profile/avatar', { original: good }, { cookie: athlete.cookie }), 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE);
  });

  it('stores copies without EXIF or GPS, whatever the upload carried', async () => {
    const withGps = await jpegWithGps();
    expect(gpsTagsIn((await sharp(withGps).metadata()).exif)).toEqual(expect.arrayContaining([GPS_TAGS.latitude, GPS_TAGS.longitude]));
    const body = await okProfile(await postAvatar(other, asJpeg(withGps, 'gps.jpg'), asJpeg(withGps, 'gps-original.jpg')));
    for (const url of [body.avatarUrl, body.originalAvatarUrl]) {
      const stored = await readStored(storageOf(app), keyOf(url));
      const meta = await sharp(stored).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(gpsTagsIn(meta.exif)).toEqual([]);
      expect(stored.includes(Buffer.from('TestCam'))).toBe(false);
    }
  });

  it('is refused to a visitor with 401', async () => {
    const res = await upload(app, '/api/profile/avatar', { avatar: asJpeg(await jpeg(320, 320)) });
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ message: AUTH_REQUIRED.description });
  });
});

describe('POST /api/profile/banner', () => {
  it('stores the banner, points the profile at it, and removes the one it replaces', async () => {
    const first = await okProfile(await postBanner(athlete, asJpeg(await jpeg(1600, 400), 'banner.jpg')));
    expect(first.bannerUrl).toMatch(new RegExp(`^/api/media/profile-banners/${athlete.userId}/[A-Za-z0-9._-]+\\.jpg$`));
    expect(await exists(keyOf(first.bannerUrl))).toBe(true);
    expect((await profileRow(athlete.userId)).bannerUrl).toBe(keyOf(first.bannerUrl));

    const second = await okProfile(await postBanner(athlete, asJpeg(await jpeg(1600, 400, '#aa0000'), 'banner2.jpg')));
    expect(second.bannerUrl).not.toBe(first.bannerUrl);
    expect(await exists(keyOf(first.bannerUrl))).toBe(false);
    expect(await files('profile-banners', athlete.userId)).toEqual([keyOf(second.bannerUrl)]);
  });

  it('accepts a valid image between 5 and 10MB', async () => {
    expect(bigPng.byteLength).toBeGreaterThan(MB5);
    expect(bigPng.byteLength).toBeLessThan(10 * 1024 * 1024);
    const body = await okProfile(await postBanner(other, { bytes: bigPng, name: 'wide.png', type: 'image/png' }));
    const meta = await sharp(await readStored(storageOf(app), keyOf(body.bannerUrl))).metadata();
    expect(meta.format).toBe('jpeg');
  });

  it('refuses a banner over 10MB with 413 and the 10MB texts, changing nothing', async () => {
    const huge = await noisyPng(10 * 1024 * 1024 + 200_000);
    await expectRefusedUnchanged(athlete, () => postBanner(athlete, { bytes: huge, name: 'huge.png', type: 'image/png' }), 413, 'FILE_TOO_LARGE', FILE_TOO_LARGE_10MB);
    // This 413 is sent before the body is read, with "Connection: keep-alive"; the HTTP server
    // then drains the rest for up to 500 ms and closes the socket if that is not enough. Let that
    // happen now, so the next test's request does not go out on a socket that is being closed.
    await settle(1000);
  });

  it('refuses a file that is not an image with 400 Invalid File Type, changing nothing', async () => {
    const text = { bytes: Buffer.from('<html>not a picture</html>'), name: 'banner.jpg', type: 'image/jpeg' };
    await expectRefusedUnchanged(athlete, () => postBanner(athlete, text), 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE);
  });
});

describe('GET /api/media/...', () => {
  let avatarUrl: string;
  let bannerUrl: string;
  beforeAll(async () => {
    const profile = await jsonOf<ProfileBody>(await app.fetch('/api/profile', { cookie: athlete.cookie }));
    avatarUrl = profile.avatarUrl!;
    bannerUrl = profile.bannerUrl!;
    expect(avatarUrl).toBeTruthy();
    expect(bannerUrl).toBeTruthy();
  });

  it('serves the owner their pictures as private, nosniff JPEGs', async () => {
    for (const url of [avatarUrl, bannerUrl]) {
      const res = await app.fetch(url, { cookie: athlete.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.equals(await readStored(storageOf(app), keyOf(url)))).toBe(true);
    }
  });

  it("answers another user 404 for the athlete's avatar and banner, exactly like a missing file", async () => {
    const profile = await jsonOf<ProfileBody>(await app.fetch('/api/profile', { cookie: athlete.cookie }));
    for (const url of [avatarUrl, bannerUrl, profile.originalAvatarUrl!]) {
      const res = await app.fetch(url, { cookie: other.cookie });
      expect(res.status).toBe(404);
      expect(await jsonOf(res)).toEqual({ code: 'NOT_FOUND', message: MEDIA.notFound });
    }
    const missing = await app.fetch(`/api/media/avatars/${other.userId}/avatar-nothing.jpg`, { cookie: other.cookie });
    expect(missing.status).toBe(404);
  });

  it('answers a visitor 401', async () => {
    for (const url of [avatarUrl, bannerUrl]) {
      const res = await app.fetch(url);
      expect(res.status).toBe(401);
      expect(await jsonOf(res)).toEqual({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
    }
  });

  it('serves an active admin, but not an admin whose row is inactive', async () => {
    for (const url of [avatarUrl, bannerUrl]) {
      const res = await app.fetch(url, { cookie: admin.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
    }
    const former = await createVerifiedUser(app);
    await makeAdmin(app, former.userId, false);
    expect((await app.fetch(avatarUrl, { cookie: former.cookie })).status).toBe(404);
  });

  it('answers 404 for paths outside the known buckets or with ..', async () => {
    const avatarFile = keyOf(avatarUrl).split('/')[2]!;
    const paths = [
      `/api/media/secrets/${athlete.userId}/${avatarFile}`,
      `/api/media/storage/avatars/${athlete.userId}/${avatarFile}`,
      `/api/media/avatars/${athlete.userId}`,
      `/api/media/avatars/${athlete.userId}/..${avatarFile}`,
      `/api/media/avatars/${athlete.userId}/..%2F${avatarFile}`,
      `/api/media/avatars/..%2F${athlete.userId}/${avatarFile}`,
      `/api/media/avatars/${athlete.userId}/..%2F..%2F..%2Fdb`,
      `/api/media/avatars/${athlete.userId}/%2e%2e%2f%2e%2e%2fsecret.json`,
      `/api/media/profile-banners/${athlete.userId}/${avatarFile}`,
      `/api/media/avatars/${athlete.userId}/${avatarFile}.meta.json`,
    ];
    for (const cookie of [athlete.cookie, admin.cookie]) {
      for (const p of paths) {
        const res = await app.fetch(p, { cookie });
        expect(res.status, p).toBe(404);
      }
    }
  });
});
