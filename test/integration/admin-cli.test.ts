// `npm run admin -- grant|revoke <email>` (src/server/cli/admin.ts), run as its own process the
// way an operator runs it: against an embedded database in DATA_DIR (the default), or against
// a fresh PostgreSQL database through DATABASE_URL when TEST_DATABASE_URL is set.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/client';
import { admins, events, user } from '../../src/server/db/schema';
import { noDatabaseIn } from '../../src/server/admin/service';
import { createPostgresDatabase, createVerifiedUser, sessionNoticeFor, startTestApp } from '../support/app';
import { enrolByApi } from '../support/two-factor';
import { openPgliteFromTemplate } from '../support/pglite-template';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const adminUrl = process.env.TEST_DATABASE_URL;
// Each test starts the command line (and the embedded database) a few times: seconds each, and
// several times that on a busy machine running other test files beside it.
vi.setConfig({ testTimeout: 120_000 });

let dataDir: string;
let databaseUrl: string | null = null;
let dropDatabase = async () => {};

const people = {
  coach: { id: 'cli-user-coach', name: 'Coach Carter', email: 'coach.carter@example.com' },
  parent: { id: 'cli-user-parent', name: 'Pat Parent', email: 'pat.parent@example.com' },
  third: { id: 'cli-user-third', name: 'Third Person', email: 'third.person@example.com' },
  fourth: { id: 'cli-user-fourth', name: 'Fourth Person', email: 'fourth.person@example.com' },
};
/** Signed up, but never followed the confirmation link. */
const unconfirmed = { id: 'cli-user-unconfirmed', name: 'Not Confirmed', email: 'not.confirmed@example.com' };

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({ url: databaseUrl, pgliteDir: path.join(dataDir, 'db') });
  try {
    await database.migrate();
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      [path.join(root, 'src/server/cli/admin.ts'), ...args],
      { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const adminRow = (userId: string) =>
  withDb(async (db) => (await db.select().from(admins).where(eq(admins.userId, userId)))[0] ?? null);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-cli-'));
  if (adminUrl) {
    const fresh = await createPostgresDatabase(adminUrl, 't_cli');
    databaseUrl = fresh.url;
    dropDatabase = fresh.drop;
  }
  // The embedded database starts from the migrated template (a fresh initdb takes seconds).
  const database = databaseUrl
    ? await openDatabase({ url: databaseUrl, pgliteDir: '' })
    : await openPgliteFromTemplate(path.join(dataDir, 'db'));
  try {
    await database.migrate();
    await database.db.insert(user).values(Object.values(people).map((p) => ({ ...p, emailVerified: true })));
    await database.db.insert(user).values({ ...unconfirmed, emailVerified: false });
  } finally {
    await database.close();
  }
});

afterAll(async () => {
  await dropDatabase();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('admin CLI', () => {
  it('grant makes an active admin row; revoke sets it inactive', async () => {
    const granted = await cli('grant', people.coach.email.toUpperCase());
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain('is now an admin');
    expect(await adminRow(people.coach.id)).toMatchObject({ isActive: true });

    const revoked = await cli('revoke', people.coach.email);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('is no longer an admin');
    expect(await adminRow(people.coach.id)).toMatchObject({ isActive: false });
  });

  it('revoking someone who is not an admin says so', async () => {
    const res = await cli('revoke', people.parent.email);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('was not an admin');
  });

  it('an unknown email exits 1 with a clear message', async () => {
    const res = await cli('grant', 'nobody.here@example.com');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No account with the email nobody.here@example.com');
  });

  it('refuses to grant admin to an account whose email is not confirmed (issue 6, threat 10)', async () => {
    const res = await cli('grant', unconfirmed.email);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`The email ${unconfirmed.email} is not confirmed yet`);
    expect(await adminRow(unconfirmed.id)).toBeNull();
  });

  it('seed-demo (npm run seed:demo) needs no email, adds the sample events once and says they are demo data (issue 34)', async () => {
    await withDb((db) => db.delete(events));
    const added = await cli('seed-demo');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added the demo events (sample data for trying the product, not real events): Austin Fall League, Chicago 3v3.');
    expect(await withDb((db) => db.select({ id: events.id, demo: events.demo }).from(events).orderBy(asc(events.id)))).toEqual([
      { id: 'austin-fall-league-2024', demo: true },
      { id: 'chicago-3v3-2024', demo: true },
    ]);
    const again = await cli('seed-demo');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('The demo events are already there; nothing was added.');
  });

  it.skipIf(Boolean(adminUrl))('refuses a data folder that holds no database (DATA_DIR not set as the server has it), and makes no database there', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-cli-empty-'));
    try {
      for (const args of [['grant', people.parent.email], ['revoke', people.parent.email], ['erase', people.parent.email]]) {
        const res = await new Promise<Run>((resolve) =>
          execFile(tsx, [path.join(root, 'src/server/cli/admin.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: elsewhere, DATABASE_URL: '' }, timeout: 30_000 }, (error, stdout, stderr) =>
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
          ),
        );
        expect(res.code).toBe(1);
        expect(res.stderr.trim()).toBe(noDatabaseIn(elsewhere));
      }
      expect(fs.existsSync(path.join(elsewhere, 'db'))).toBe(false);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('without a command or an email it prints the usage and exits 2', async () => {
    const runs = await Promise.all([cli(), cli('grant'), cli('promote', people.parent.email)]);
    for (const res of runs) {
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('usage: npm run admin -- grant <email>');
    }
  });

  it.skipIf(Boolean(adminUrl))('never opens the embedded database while a live process holds it, even one that does not answer', async () => {
    const lock = path.join(dataDir, 'db.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, holder: 'the web server' }));
    try {
      const res = await cli('grant', people.fourth.email);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('is in use by another process that does not answer on its admin channel');
      expect(res.stderr).toContain('DATABASE_URL');
      expect(await adminRow(people.fourth.id)).toBeNull();
      // The lock of the live holder is left alone.
      expect(JSON.parse(fs.readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });

  it.skipIf(Boolean(adminUrl))('takes over a lock left behind by a process that died, and releases it', async () => {
    const lock = path.join(dataDir, 'db.lock');
    const dead = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, ['-e', '']);
      child.on('exit', () => resolve(child.pid!));
    });
    fs.writeFileSync(lock, JSON.stringify({ pid: dead, holder: 'a crashed server' }));
    const res = await cli('grant', people.third.email);
    expect(res.code).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it.runIf(Boolean(adminUrl))('with DATABASE_URL it ignores a lock in DATA_DIR (PostgreSQL takes many processes)', async () => {
    const lock = path.join(dataDir, 'db.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, holder: 'the web server' }));
    try {
      const res = await cli('grant', people.third.email);
      expect(res.code).toBe(0);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });

  it('afterwards the admins table holds exactly what was granted and revoked', async () => {
    const rows = await withDb((db) => db.select({ userId: admins.userId, isActive: admins.isActive }).from(admins));
    expect(rows.sort((a, b) => a.userId.localeCompare(b.userId))).toEqual([
      { userId: people.coach.id, isActive: false },
      { userId: people.third.id, isActive: true },
    ]);
  });
});

describe('admin CLI while the server runs on the embedded database (issue 8: the first admin)', () => {
  it.skipIf(Boolean(adminUrl))('grants and revokes through the running server, with the same rules', async () => {
    const app = await startTestApp();
    const lock = path.join(app.dataDir, 'db.lock');
    // As `npm start` does: the server holds the data folder.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, holder: 'the web server' }));
    const run = (...args: string[]) =>
      new Promise<Run>((resolve) => {
        execFile(tsx, [path.join(root, 'src/server/cli/admin.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: app.dataDir, DATABASE_URL: '' }, timeout: 90_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
        );
      });
    try {
      const owner = await createVerifiedUser(app, { fullName: 'First Admin' });
      const granted = await run('grant', owner.email);
      expect(granted).toMatchObject({ code: 0 });
      expect(granted.stdout).toContain(`${owner.email} is now an admin.`);
      expect((await app.db.select().from(admins).where(eq(admins.userId, owner.userId)))[0]).toMatchObject({ isActive: true });
      // The running server sees it at once: the new admin is asked to enrol a second factor
      // (issue 21), and once it has, the admin API answers.
      const before = await app.fetch('/api/admin/whoami', { cookie: owner.cookie });
      expect(before.status).toBe(403);
      expect((await before.json()) as { code: string }).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
      const enrolled = await enrolByApi(app, owner.cookie, owner.password);
      owner.cookie = enrolled.cookie;
      expect((await app.fetch('/api/admin/whoami', { cookie: owner.cookie })).status).toBe(200);

      // The same refusals as the direct path.
      const res = await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName: 'Not Yet', email: 'not.yet.cli@example.com', password: 'secret12' } });
      expect(res.status).toBe(201);
      const unconfirmedRun = await run('grant', 'not.yet.cli@example.com');
      expect(unconfirmedRun.code).toBe(1);
      expect(unconfirmedRun.stderr).toContain('is not confirmed yet');
      expect((await run('grant', 'nobody.cli@example.com')).stderr).toContain('No account with the email');

      const heard = sessionNoticeFor(app, owner.userId, 30_000);
      const revoked = await run('revoke', owner.email);
      expect(revoked.stdout).toContain('is no longer an admin');
      // The server's session cache forgets the admin when the database's notice reaches it.
      await heard;
      expect((await app.fetch('/api/admin/whoami', { cookie: owner.cookie })).status).toBe(403);
      // The channel is the server's own: a wrong secret gets nothing.
      fs.writeFileSync(path.join(app.dataDir, 'admin-channel.key'), 'wrong');
      expect((await run('grant', owner.email)).code).toBe(1);
      expect((await app.db.select().from(admins).where(eq(admins.userId, owner.userId)))[0]).toMatchObject({ isActive: false });
    } finally {
      fs.rmSync(lock, { force: true });
      await app.close();
    }
  }, 90_000);
});
