// A database as an older release left it: the migrations up to a given one, in a folder of their
// own, so a test can fill it with that release's rows and then run the rest as an upgrade would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { migrationsFolder, type Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { createPostgresDatabase } from './app';

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/** A folder with the migrations up to and including `lastTag`; remove it when done. */
export function migrationsUpTo(lastTag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const kept = journal.entries.slice(0, last + 1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const e of kept) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

/**
 * A brand-new, empty database and a way to run a folder of migrations on it: PGlite, or a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set. Its cleanup goes on `cleanups`.
 */
export async function freshDatabase(cleanups: Array<() => Promise<void>>, prefix: string): Promise<{ db: Db; migrate: (folder: string) => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const fresh = await createPostgresDatabase(adminUrl, prefix);
    const pool = new pg.Pool({ connectionString: fresh.url });
    cleanups.push(async () => {
      await pool.end();
      await fresh.drop();
    });
    const db = drizzlePg(pool, { schema });
    return { db: db as unknown as Db, migrate: (folder) => migratePg(db, { migrationsFolder: folder }) };
  }
  const client = await PGlite.create('memory://', { extensions: { pg_trgm } });
  cleanups.push(() => client.close());
  const db = drizzlePglite(client, { schema });
  return { db: db as unknown as Db, migrate: (folder) => migratePglite(db, { migrationsFolder: folder }) };
}
