// One suite, run against both storage drivers: local disk, and S3 against a real s3rver.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createStorage, type Storage } from '../../src/server/storage/storage';
import { startTestS3 } from '../support/s3';

interface Fixture {
  storage: Storage;
  /** Everything the driver has written anywhere (files on disk, objects in the bucket). */
  everything(): Promise<string[]>;
  close(): Promise<void>;
}

async function walk(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

async function diskFixture(): Promise<Fixture> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'storage-test-'));
  const storage = createStorage({ dataDir, s3: null });
  // Walk the whole temp folder, so a write that escaped data/storage would show up too.
  return { storage, everything: () => walk(dataDir), close: () => fsp.rm(dataDir, { recursive: true, force: true }) };
}

async function s3Fixture(): Promise<Fixture> {
  const s3 = await startTestS3();
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'storage-test-'));
  const storage = createStorage({ dataDir, s3: s3.config });
  const raw = new S3Client({
    region: s3.config.region,
    endpoint: s3.config.endpoint ?? undefined,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.config.accessKeyId, secretAccessKey: s3.config.secretAccessKey },
  });
  return {
    storage,
    async everything() {
      const objects: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await raw.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, ContinuationToken }));
        for (const o of page.Contents ?? []) objects.push(`bucket:${o.Key}`);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return [...objects, ...(await walk(dataDir))].sort();
    },
    async close() {
      raw.destroy();
      await s3.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  if (!stream) throw new Error('expected a stream, got null');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const INVALID_KEYS = [
  '../x',
  'a/b',
  'avatars/u1/../../etc',
  'avatars/u1/../../../etc/passwd',
  '/etc/passwd',
  '/avatars/u1/x.jpg',
  'avatars/u1/..',
  'avatars/u1/x/y.jpg',
  'avatars/../u1.jpg',
  'avatars\\u1\\x.jpg',
  'Avatars/u1/x.jpg',
  'avatars/u1/',
  'avatars/u1/x.jpg\0',
  '',
];

describe.each([
  { driver: 'disk', kind: 'disk', start: diskFixture },
  { driver: 's3 (s3rver)', kind: 's3', start: s3Fixture },
])('storage: $driver', ({ kind, start }) => {
  let fx: Fixture;
  let storage: Storage;

  beforeAll(async () => {
    fx = await start();
    storage = fx.storage;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('is the driver createStorage picks for this configuration', () => {
    expect(storage.kind).toBe(kind);
  });

  it('put then stat gives the size and content type', async () => {
    const data = randomBytes(1234);
    await storage.put('stat-test/u1/photo.jpg', data, 'image/jpeg');
    expect(await storage.stat('stat-test/u1/photo.jpg')).toEqual({ size: 1234, contentType: 'image/jpeg' });
  });

  it('read returns exactly the bytes written', async () => {
    const data = randomBytes(300_000); // several stream chunks
    await storage.put('read-test/u1/video.mp4', data, 'video/mp4');
    const back = await bytesOf(await storage.read('read-test/u1/video.mp4'));
    expect(back.length).toBe(data.length);
    expect(back.equals(data)).toBe(true);
  });

  it('an empty object reads back empty', async () => {
    await storage.put('read-test/u1/empty.txt', Buffer.alloc(0), 'text/plain');
    expect(await storage.stat('read-test/u1/empty.txt')).toEqual({ size: 0, contentType: 'text/plain' });
    expect((await bytesOf(await storage.read('read-test/u1/empty.txt'))).length).toBe(0);
  });

  it('read with a range returns exactly bytes start..end, both included', async () => {
    const data = randomBytes(100_000);
    await storage.put('range-test/u1/clip.mp4', data, 'video/mp4');
    const ranges = [
      { start: 0, end: 0 },
      { start: 0, end: 99 },
      { start: 10, end: 19 },
      { start: 65_530, end: 65_545 }, // across a 64 KiB boundary
      { start: 50_000, end: 99_999 },
      { start: 99_999, end: 99_999 },
    ];
    for (const range of ranges) {
      const back = await bytesOf(await storage.read('range-test/u1/clip.mp4', range));
      expect(back.length, `range ${range.start}-${range.end}`).toBe(range.end - range.start + 1);
      expect(back.equals(data.subarray(range.start, range.end + 1)), `range ${range.start}-${range.end}`).toBe(true);
    }
  });

  it('read and stat of a missing key give null', async () => {
    expect(await storage.stat('missing/u1/nothing.jpg')).toBeNull();
    expect(await storage.read('missing/u1/nothing.jpg')).toBeNull();
    expect(await storage.read('missing/u1/nothing.jpg', { start: 0, end: 10 })).toBeNull();
    await storage.put('missing/u2/present.jpg', Buffer.from('x'), 'image/jpeg');
    expect(await storage.stat('missing/u2/absent.jpg')).toBeNull();
    expect(await storage.read('missing/u2/absent.jpg')).toBeNull();
  });

  it('delete removes the object, and deleting a missing key is fine', async () => {
    await storage.put('delete-test/u1/a.jpg', Buffer.from('abc'), 'image/jpeg');
    await storage.put('delete-test/u1/b.jpg', Buffer.from('def'), 'image/jpeg');
    await storage.delete('delete-test/u1/a.jpg');
    expect(await storage.stat('delete-test/u1/a.jpg')).toBeNull();
    expect(await storage.read('delete-test/u1/a.jpg')).toBeNull();
    expect(await storage.list('delete-test/u1/')).toEqual(['delete-test/u1/b.jpg']);
    await expect(storage.delete('delete-test/u1/a.jpg')).resolves.toBeUndefined();
    await expect(storage.delete('delete-test/nobody/never.jpg')).resolves.toBeUndefined();
    expect((await bytesOf(await storage.read('delete-test/u1/b.jpg'))).toString()).toBe('def');
  });

  it('list returns the keys under a prefix and no others', async () => {
    const keys = [
      'avatars/u1/a.jpg',
      'avatars/u1/b.webp',
      'avatars/u10/c.jpg', // shares the text "avatars/u1" but not the folder
      'avatars/u2/d.jpg',
      'avatars-old/u1/e.jpg',
      'photos/u1/f.jpg',
    ];
    for (const key of keys) await storage.put(key, Buffer.from(key), 'image/jpeg');
    expect(await storage.list('avatars/u1/')).toEqual(['avatars/u1/a.jpg', 'avatars/u1/b.webp']);
    expect(await storage.list('avatars/u10/')).toEqual(['avatars/u10/c.jpg']);
    expect(await storage.list('avatars/')).toEqual([
      'avatars/u1/a.jpg',
      'avatars/u1/b.webp',
      'avatars/u10/c.jpg',
      'avatars/u2/d.jpg',
    ]);
    expect(await storage.list('avatars/nobody/')).toEqual([]);
    expect(await storage.list('no-such-area/')).toEqual([]);
    // What list returns can be used as keys.
    for (const key of await storage.list('avatars/u1/')) expect(await storage.stat(key)).not.toBeNull();
  });

  it('list returns every key when there are more than one page of them (S3 pages by 1000)', async () => {
    const keys = Array.from({ length: 1003 }, (_, i) => `many/u1/k${String(i).padStart(4, '0')}.jpg`);
    for (let i = 0; i < keys.length; i += 25) {
      await Promise.all(keys.slice(i, i + 25).map((key) => storage.put(key, Buffer.from('x'), 'image/jpeg')));
    }
    await storage.put('many/u2/other.jpg', Buffer.from('x'), 'image/jpeg');
    expect(await storage.list('many/u1/')).toEqual(keys);
  });

  it('list refuses a prefix that is not a key folder', async () => {
    for (const prefix of ['', '../', 'avatars', 'avatars/u1', 'avatars/../', '/etc/', 'avatars/u1/x/', 'avatars/u1/a']) {
      await expect(storage.list(prefix), JSON.stringify(prefix)).rejects.toThrow(/invalid storage prefix/);
    }
  });

  it('refuses invalid keys with an error, and writes nothing', async () => {
    const before = await fx.everything();
    for (const key of INVALID_KEYS) {
      const label = JSON.stringify(key);
      await expect(storage.put(key, Buffer.from('evil'), 'text/plain'), label).rejects.toThrow(/invalid storage key/);
      // stat answers "no such object" (the media route makes that a 404, not a 500).
      expect(await storage.stat(key), label).toBeNull();
      await expect(storage.read(key), label).rejects.toThrow(/invalid storage key/);
      await expect(storage.read(key, { start: 0, end: 1 }), label).rejects.toThrow(/invalid storage key/);
      await expect(storage.delete(key), label).rejects.toThrow(/invalid storage key/);
    }
    expect(await fx.everything()).toEqual(before);
  });

  it('overwriting a key replaces its content, size and content type', async () => {
    const key = 'overwrite-test/u1/photo.jpg';
    await storage.put(key, Buffer.from('the first, longer version'), 'image/jpeg');
    await storage.put(key, Buffer.from('second'), 'image/webp');
    expect(await storage.stat(key)).toEqual({ size: 6, contentType: 'image/webp' });
    expect((await bytesOf(await storage.read(key))).toString()).toBe('second');
    expect(await storage.list('overwrite-test/u1/')).toEqual([key]);
  });
});

describe('disk storage on its own', () => {
  it('list leaves out the .meta.json sidecars and .tmp files of interrupted writes', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'storage-test-'));
    try {
      const storage = createStorage({ dataDir, s3: null });
      await storage.put('avatars/u1/a.jpg', Buffer.from('a'), 'image/jpeg');
      const folder = path.join(dataDir, 'storage', 'avatars', 'u1');
      // What a put that died before its rename leaves behind.
      await fsp.writeFile(path.join(folder, 'b.jpg.0b8e2f1c-6a7d-4a4b-9c55-3f1d2e9a7b10.tmp'), 'half');
      await fsp.writeFile(path.join(folder, 'b.jpg.meta.json'), '{"contentType":"image/jpeg"}');
      expect((await fsp.readdir(folder)).sort()).toEqual([
        'a.jpg',
        'a.jpg.meta.json',
        'b.jpg.0b8e2f1c-6a7d-4a4b-9c55-3f1d2e9a7b10.tmp',
        'b.jpg.meta.json',
      ]);
      expect(await storage.list('avatars/u1/')).toEqual(['avatars/u1/a.jpg']);
      expect(await storage.list('avatars/')).toEqual(['avatars/u1/a.jpg']);
      expect(await storage.stat('avatars/u1/b.jpg')).toBeNull();
      expect(await storage.read('avatars/u1/b.jpg')).toBeNull();
    } finally {
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });
});
