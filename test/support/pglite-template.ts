// A migrated PGlite database, empty but for the demo events, made once and kept in the temp folder as a data-dir dump.
// Starting PGlite from it takes well under a second, where a fresh initdb takes several; the
// server still runs its migrations on it (a no-op unless the template is behind).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, openDatabase, type Database, type Db } from '../../src/server/db/client';
import { seedDemoEvents } from '../../src/server/events/demo';
import * as schema from '../../src/server/db/schema';

const demoEventsFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/server/events/demo.ts');
const pglitePackage = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/@electric-sql/pglite/package.json');

/** Changes whenever a migration or the PGlite version changes. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(fs.existsSync(pglitePackage) ? fs.readFileSync(pglitePackage) : 'pglite');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) walk(full);
      else hash.update(name).update(fs.readFileSync(full));
    }
  };
  walk(migrationsFolder);
  hash.update(fs.readFileSync(demoEventsFile));
  return hash.digest('hex').slice(0, 16);
}

let cached: Promise<Uint8Array<ArrayBuffer>> | null = null;

/** The bytes of the template's data-dir dump (a tar). */
export function pgliteTemplate(): Promise<Uint8Array<ArrayBuffer>> {
  cached ??= (async () => {
    const file = path.join(os.tmpdir(), `giot-pglite-template-${templateKey()}.tar`);
    if (fs.existsSync(file)) return new Uint8Array(fs.readFileSync(file));
    const client = await PGlite.create('memory://', { extensions: { pg_trgm } });
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    // The tests were written against the sample events; a fresh install has none (demo.ts).
    await seedDemoEvents(db as unknown as Db);
    const bytes = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
    await client.close();
    // Write under a private name and rename, so a parallel worker never reads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, file);
    // Templates of older migrations are of no further use.
    for (const name of fs.readdirSync(os.tmpdir())) {
      if (/^giot-pglite-template-[0-9a-f]+\.tar$/.test(name) && path.join(os.tmpdir(), name) !== file) {
        fs.rmSync(path.join(os.tmpdir(), name), { force: true });
      }
    }
    return bytes;
  })();
  return cached;
}

/** Opens a PGlite database started from the template: in memory, or in `dir` on disk. */
export async function openPgliteFromTemplate(dir?: string): Promise<Database> {
  return openDatabase({ url: null, pgliteDir: dir ?? 'memory://', loadDataDir: new Blob([await pgliteTemplate()]) });
}
