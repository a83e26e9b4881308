// Reading the job queue's own tables (pg-boss, schema pgboss) from a test.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/server/db/client';
import type { TestApp } from './app';

export interface JobRow {
  id: string;
  name: string;
  state: string;
  data: Record<string, unknown>;
  retry_count: number;
  output: { message?: string } | null;
}

/** Jobs of one kind, live and archived, oldest first. */
export async function jobsOf(app: TestApp, name: string): Promise<JobRow[]> {
  return queryRows<JobRow>(
    app.db,
    sql`SELECT id, name, state, data, retry_count, output, created_on FROM pgboss.job WHERE name = ${name}
        UNION ALL
        SELECT id, name, state, data, retry_count, output, created_on FROM pgboss.archive WHERE name = ${name}
        ORDER BY created_on`,
  );
}

/** Waits until no job of this kind is waiting or running (mail sent by earlier tests has gone out). */
export async function jobsSettled(app: TestApp, name: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = (await jobsOf(app, name)).filter((j) => ['created', 'retry', 'active'].includes(j.state));
    if (open.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${open.length} ${name} job(s) still open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
