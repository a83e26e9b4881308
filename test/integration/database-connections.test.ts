// PostgreSQL only: a pooled connection that the database drops (a restart, a failover, an
// operator ending backends) must not take the server down; the next request gets a new one.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let app: TestApp;

beforeAll(async () => {
  if (onPostgres) app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe.skipIf(!onPostgres)('lost database connections', () => {
  it('the server keeps answering after its idle connections are terminated', async () => {
    const user = await createVerifiedUser(app);
    expect((await app.fetch('/api/profile', { cookie: user.cookie })).status).toBe(200);
    const database = app.server.deps.database.url!;
    // The requests' connections, not the job queue's: pg-boss (10.4) records a finished job (the
    // sign-up's mail) without awaiting it, so one of its connections ended at that moment rejects
    // where no code can catch it. The servers log and live through that (process-guard.ts, its
    // own test); here it would only be an unhandled rejection in the test process.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND state = 'idle' AND application_name <> 'job queue'`,
        [new URL(database).pathname.slice(1)],
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((r) => setTimeout(r, 300));
    // The terminated connections were dropped from the pool; new ones serve the next requests.
    for (let i = 0; i < 3; i++) expect((await app.fetch('/api/profile', { cookie: user.cookie })).status).toBe(200);
  });
});
