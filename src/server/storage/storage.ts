// Private file storage behind one interface. Keys are built on the server only (see keys.ts);
// nothing here is ever served from a public path.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';
import { createS3Storage } from './s3';

export interface StoredObject {
  size: number;
  contentType: string;
}

export interface Storage {
  readonly kind: 'disk' | 's3';
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /**
   * Stores a local file under `key`, streaming it (videos are too large to hold in memory). With
   * `move` the local file is taken over (on disk, a rename when it can be).
   */
  putFile(key: string, filePath: string, contentType: string, opts?: { move?: boolean }): Promise<void>;
  /** Writes the object to a local file (ffmpeg reads files); false when there is no such object. */
  download(key: string, filePath: string): Promise<boolean>;
  /** Null when there is no such object, and for a key that is not valid (it cannot name one). */
  stat(key: string): Promise<StoredObject | null>;
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  delete(key: string): Promise<void>;
  /**
   * The object's own file when it lies on this machine's disk (ffmpeg reads it where it is, a
   * camera-hour is not copied for a 10-second clip); null otherwise.
   */
  localPath(key: string): string | null;
  /** The keys under a folder prefix such as `avatars/{userId}/` or `avatars/`, sorted. */
  list(prefix: string): Promise<string[]>;
}

const KEY_PATTERN = /^[a-z0-9-]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9._-]+$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..');
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid storage key: ${key}`);
}

/** A prefix names a folder of keys: `area/` or `area/owner/`, always ending in a slash. */
const PREFIX_PATTERN = /^[a-z0-9-]+\/(?:[A-Za-z0-9_-]+\/)?$/;

export function assertValidPrefix(prefix: string): void {
  if (!PREFIX_PATTERN.test(prefix) || prefix.includes('..')) throw new Error(`invalid storage prefix: ${prefix}`);
}

/** The driver the configuration names: S3 when S3_BUCKET is set, local disk otherwise. */
export function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Storage {
  if (config.s3) return createS3Storage(config.s3);
  return createDiskStorage(path.join(config.dataDir, 'storage'));
}

export function createDiskStorage(rootDir: string): Storage {
  const file = (key: string) => {
    assertValidKey(key);
    return path.join(rootDir, key);
  };
  const meta = (key: string) => `${file(key)}.meta.json`;
  return {
    kind: 'disk',
    async put(key, data, contentType) {
      const target = file(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Write to a temporary name and rename, so a reader never sees half a file.
      const tmp = `${target}.${randomUUID()}.tmp`;
      await fsp.writeFile(tmp, data);
      await storeDurably(tmp, target, meta(key), contentType);
    },
    async putFile(key, filePath, contentType, opts = {}) {
      const target = file(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomUUID()}.tmp`;
      if (opts.move) {
        // A rename on the same disk; a copy between disks.
        await fsp.rename(filePath, tmp).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EXDEV') throw error;
          await pipeline(fs.createReadStream(filePath), fs.createWriteStream(tmp));
          await fsp.rm(filePath, { force: true });
        });
      } else {
        await pipeline(fs.createReadStream(filePath), fs.createWriteStream(tmp));
      }
      await storeDurably(tmp, target, meta(key), contentType);
    },
    localPath(key) {
      const source = file(key);
      return fs.existsSync(source) ? source : null;
    },
    async download(key, filePath) {
      const source = file(key);
      if (!fs.existsSync(source)) return false;
      await fsp.copyFile(source, filePath);
      return true;
    },
    async stat(key) {
      try {
        const [st, m] = await Promise.all([fsp.stat(file(key)), fsp.readFile(meta(key), 'utf8')]);
        return { size: st.size, contentType: (JSON.parse(m) as { contentType: string }).contentType };
      } catch {
        return null;
      }
    },
    async read(key, range) {
      const target = file(key);
      if (!fs.existsSync(target)) return null;
      return fs.createReadStream(target, range);
    },
    async delete(key) {
      await fsp.rm(file(key), { force: true });
      await fsp.rm(meta(key), { force: true });
    },
    async list(prefix) {
      assertValidPrefix(prefix);
      const dir = path.join(rootDir, prefix);
      // One level under `area/owner/`, two under `area/`.
      const folders = prefix.split('/').length === 3 ? [prefix] : (await subfolders(dir)).map((d) => `${prefix}${d}/`);
      const keys: string[] = [];
      for (const folder of folders) {
        const names = await filesIn(path.join(rootDir, folder));
        const present = new Set(names);
        // A stored object is a file with its .meta.json beside it; that leaves out the sidecars
        // themselves and any .tmp left by an interrupted put.
        for (const name of names) {
          const key = `${folder}${name}`;
          if (present.has(`${name}.meta.json`) && KEY_PATTERN.test(key)) keys.push(key);
        }
      }
      return keys.sort();
    },
  };
}

/**
 * Puts the written `tmp` in place as `target`, with its content type beside it, once both are on
 * the disk itself: the caller records the object in the database next (a video row, a finished
 * upload the admin may now delete from the camera's card), and a crash must not leave that row
 * naming an empty or half-written file. Renaming the synced file means a reader never sees half.
 */
async function storeDurably(tmp: string, target: string, metaFile: string, contentType: string): Promise<void> {
  await fsp.writeFile(metaFile, JSON.stringify({ contentType }));
  await Promise.all([syncToDisk(tmp, 'r+'), syncToDisk(metaFile, 'r+')]);
  await fsp.rename(tmp, target);
  // The new name itself is an entry of the folder, on disk only once the folder is.
  await syncToDisk(path.dirname(target), 'r');
}

async function syncToDisk(file: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await fsp.open(file, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function subfolders(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

async function filesIn(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}
