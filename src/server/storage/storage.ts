// Private file storage behind one interface. Keys are built on the server only (see keys.ts);
// nothing here is ever served from a public path.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
  contentType: string;
}

export interface Storage {
  readonly kind: 'disk';
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  stat(key: string): Promise<StoredObject | null>;
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9-]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9._-]+$/;

export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
}

export function createStorage(opts: { rootDir: string }): Storage {
  return createDiskStorage(opts.rootDir);
}

function createDiskStorage(rootDir: string): Storage {
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
      await fsp.writeFile(meta(key), JSON.stringify({ contentType }));
      await fsp.rename(tmp, target);
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
  };
}
