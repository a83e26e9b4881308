// One database handle for the whole server: PGlite in the data folder by default, PostgreSQL
// when DATABASE_URL is set. Both run the same migrations and the same Drizzle queries.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The node-postgres pool, when on PostgreSQL (for LISTEN/NOTIFY). */
  pool: pg.Pool | null;
  /** The embedded database itself, when on PGlite (the job queue talks to it directly). */
  pglite: PGlite | null;
  /** PostgreSQL's address, when on PostgreSQL (the job queue keeps its own pool). */
  url: string | null;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens PostgreSQL at `url`, or PGlite at `pgliteDir` ('memory://' for a throw-away one). */
export async function openDatabase(opts: {
  url: string | null;
  pgliteDir: string;
  /** A PGlite data-folder dump to start from (tests use a migrated template). */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    // An idle connection that the server drops (a restart, a failover, a terminated backend) is
    // an 'error' on the pool; unheard, it would end the process. The pool replaces the connection.
    pool.on('error', (error) => console.error('[db] an idle connection was lost:', error.message));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pool,
      pglite: null,
      url: opts.url,
      migrate: () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  if (!opts.pgliteDir.startsWith('memory://')) fs.mkdirSync(opts.pgliteDir, { recursive: true });
  // pg_trgm makes the admin users search fast (migration 0004).
  const client = await PGlite.create(opts.pgliteDir, { extensions: { pg_trgm }, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  const pdb = drizzlePglite(client, { schema });
  return {
    db: pdb as unknown as Db,
    kind: 'pglite',
    pool: null,
    pglite: client,
    url: null,
    migrate: () => migratePglite(pdb, { migrationsFolder }),
    close: () => client.close(),
  };
}

/** Rows of a raw SQL statement, the same on PGlite and node-postgres (both answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
