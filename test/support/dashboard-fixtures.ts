// Fixtures for the dashboard API tests: test images made with sharp, multipart uploads, and
// videos, stills and admins put straight into the database and storage.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { admins, user, userProfiles, userStills, userVideos } from '../../src/server/db/schema';
import { storageKeys } from '../../src/server/storage/keys';
import type { Storage } from '../../src/server/storage/storage';
import type { TestApp } from './app';
import { enrolDirectly } from './two-factor';

export interface UploadFile {
  bytes: Buffer;
  name: string;
  type: string;
}

/** The storage driver of the running app. */
export const storageOf = (app: TestApp): Storage => app.server.deps.storage;

/** A storage key from a media URL as the API returns it (/api/media/{key}). */
export function keyOf(url: string | null | undefined): string {
  if (!url?.startsWith('/api/media/')) throw new Error(`not a media URL: ${url}`);
  return url.slice('/api/media/'.length);
}

/** The whole content of a stored object. */
export async function readStored(storage: Storage, key: string): Promise<Buffer> {
  const stream: Readable | null = await storage.read(key);
  if (!stream) throw new Error(`no stored object ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A plain JPEG of one colour. */
export function jpeg(width = 640, height = 480, background = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).jpeg().toBuffer();
}

/** A JPEG that carries a camera make and a GPS position in its EXIF block. */
export function jpegWithGps(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Phone 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '30/1 16/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 44/1 0/1' },
    })
    .toBuffer();
}

/**
 * A valid PNG of random pixels of at least `minBytes` bytes: noise does not compress, and level 0
 * skips the compression work, so even a 10 MB picture takes a fraction of a second.
 */
export async function noisyPng(minBytes: number, width = 1024): Promise<Buffer> {
  const height = Math.ceil(minBytes / (width * 3)) + 4;
  const png = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  if (png.byteLength < minBytes) throw new Error(`noisy PNG came out at ${png.byteLength} bytes`);
  return png;
}

/** Sends files (and text fields) as multipart/form-data, as the dashboard's upload helper does. */
export function upload(
  app: TestApp,
  pathname: string,
  files: Record<string, UploadFile>,
  opts: { cookie?: string; method?: string; fields?: Record<string, string> } = {},
): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(opts.fields ?? {})) form.set(k, v);
  for (const [field, f] of Object.entries(files)) form.set(field, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return app.fetch(pathname, { method: opts.method ?? 'POST', body: form, cookie: opts.cookie });
}

export const asJpeg = (bytes: Buffer, name = 'photo.jpg'): UploadFile => ({ bytes, name, type: 'image/jpeg' });

/**
 * Makes `userId` an administrator (an active row in admins) with an enrolled second factor, and
 * the sessions it already has passed it (issue 21): the test's cookie is an admin's. The factor's
 * secret and recovery codes come back for tests that sign in again.
 */
export async function makeAdmin(app: TestApp, userId: string, isActive = true): Promise<{ secret: string; backupCodes: string[] }> {
  await app.db.insert(admins).values({ userId, isActive });
  return enrolDirectly(app, userId);
}

export type VideoInsert = Partial<typeof userVideos.$inferInsert>;

/**
 * A video row for `userId`, visible and active unless told otherwise. With `bytes` (the default:
 * 1000 random bytes) a file is stored under the video's key and the row points at it; with
 * `bytes: null` the row has no video_url ("Video Being Processed").
 */
export async function insertVideo(
  app: TestApp,
  userId: string,
  values: VideoInsert = {},
  opts: { bytes?: Buffer | null } = {},
): Promise<{ id: string; key: string | null; bytes: Buffer | null; row: typeof userVideos.$inferSelect }> {
  const id = randomUUID();
  const bytes = opts.bytes === undefined ? randomBytes(1000) : opts.bytes;
  const key = bytes ? storageKeys.video(userId, id, 'mp4') : null;
  if (key && bytes) await storageOf(app).put(key, bytes, 'video/mp4');
  const [row] = await app.db
    .insert(userVideos)
    .values({
      id,
      userId,
      videoTitle: 'Game Highlights',
      videoUrl: key,
      isVisible: true,
      isPaid: true,
      isProcessed: Boolean(key),
      status: 'active',
      width: 1920,
      height: 1080,
      ...values,
    })
    .returning();
  return { id, key, bytes, row: row! };
}

/** A still (a stored JPEG) for `userId` at `orderPosition`. */
export async function insertStill(
  app: TestApp,
  userId: string,
  orderPosition: number,
  originalFilename: string | null = null,
): Promise<{ id: string; key: string; bytes: Buffer }> {
  const key = storageKeys.still(userId, 'jpg');
  const bytes = await jpeg(320, 240, '#228844');
  await storageOf(app).put(key, bytes, 'image/jpeg');
  const [row] = await app.db.insert(userStills).values({ userId, storageUrl: key, orderPosition, originalFilename }).returning();
  return { id: row!.id, key, bytes };
}

let people = 0;
/**
 * A user (and, by the trigger, a profile) put straight into the database, for lists and
 * searches: no password, no session.
 */
export async function insertPerson(
  app: TestApp,
  values: { firstName?: string; lastName?: string; email?: string; phone?: string | null; createdAt?: Date } = {},
): Promise<string> {
  people += 1;
  const id = `person-${Date.now().toString(36)}-${people}`;
  const email = values.email ?? `${id}@example.com`;
  await app.db.insert(user).values({ id, name: `${values.firstName ?? ''} ${values.lastName ?? ''}`.trim() || 'x', email, emailVerified: true, createdAt: values.createdAt });
  await app.db
    .update(userProfiles)
    .set({ firstName: values.firstName ?? '', lastName: values.lastName ?? '', phone: values.phone ?? null, ...(values.createdAt ? { createdAt: values.createdAt } : {}) })
    .where(eq(userProfiles.id, id));
  return id;
}
