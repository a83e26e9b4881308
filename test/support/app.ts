// The real product, started in-process for a test file: its own database (a fresh PGlite, or a
// fresh PostgreSQL database when TEST_DATABASE_URL is set), a real SMTP server on loopback, a
// temporary data folder, and real HTTP on a free port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { loadConfig, type Config } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';
import { user, userProfiles } from '../../src/server/db/schema';
import { startServer, type RunningServer } from '../../src/server/server';
import { openPgliteFromTemplate } from './pglite-template';
import { seedDemoEvents } from '../../src/server/events/demo';
import { freePort } from './ports';
import { linkIn, startTestSmtp, type TestSmtp } from './smtp';
import { logger } from '../../src/server/observability/logger';

export interface TestApp {
  server: RunningServer;
  url: string;
  origin: string;
  smtp: TestSmtp;
  db: RunningServer['deps']['db'];
  dataDir: string;
  /** fetch against the app with our Origin header, as a browser on our pages would send. */
  fetch(pathname: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>;
  close(): Promise<void>;
}

async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { database: await openPgliteFromTemplate(), drop: async () => {} };
  }
  // One database per test file, made from scratch and dropped afterwards.
  const fresh = await createPostgresDatabase(adminUrl);
  const database = await openDatabase({ url: fresh.url, pgliteDir: '' });
  await database.migrate();
  await seedDemoEvents(database.db);
  return { database, drop: fresh.drop };
}

/** An empty PostgreSQL database on the server of `adminUrl`, and a way to drop it. */
export async function createPostgresDatabase(adminUrl: string, prefix = 't'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  // Tests and benchmarks read their own output: the server's request lines only when asked (LOG_LEVEL).
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  const smtp = await startTestSmtp();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-test-'));
  const { database, drop } = await openTestDatabase();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    port,
    host: '127.0.0.1',
    baseUrl: origin,
    dataDir,
    databaseUrl: null,
    smtpUrl: smtp.url,
    authSecret: 'test-secret-0123456789abcdef0123456789abcdef',
    logMailLinks: false,
    ...overrides,
  });
  // Every team notice mailed at once, unless a test of the daily summary says otherwise.
  if (!overrides.team) config.team = { ...config.team, mailsPerDay: 1000 };
  const server = await startServer(config, { database });
  return {
    server,
    url: server.url,
    origin,
    smtp,
    db: server.deps.db,
    dataDir,
    fetch(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('origin')) headers.set('origin', origin);
      if (init.cookie) headers.set('cookie', init.cookie);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(`${origin}${pathname}`, { ...init, headers, body, redirect: 'manual' });
    },
    async close() {
      await server.close();
      await drop();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique e-mail address for a test. */
export function uniqueEmail(prefix = 'athlete'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

/** The session cookie(s) a response set, ready for a Cookie header. */
export function cookiesFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c!.endsWith('='))
    .join('; ');
}

/**
 * Signs up through the simple form and follows the verification link; returns a session cookie.
 * The athlete's profile is then finished as the dashboard's step would (a 15-year-old with a
 * guardian's agreement) unless `finishProfile` is false: the quick sign-up alone cannot turn on
 * face matching or request a reel (issue 21, finding 5).
 */
export async function createVerifiedUser(
  app: TestApp,
  opts: { email?: string; password?: string; fullName?: string; finishProfile?: boolean } = {},
): Promise<{ email: string; password: string; userId: string; cookie: string }> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? 'secret123';
  const res = await app.fetch('/api/account/sign-up', {
    method: 'POST',
    json: { fullName: opts.fullName ?? 'Test Athlete', email, password },
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const { userId } = (await res.json()) as { userId: string };
  const mail = await app.smtp.waitFor(email, 'Confirm');
  const verify = await fetch(linkIn(mail), { redirect: 'manual' });
  const cookie = cookiesFrom(verify);
  if (!cookie) throw new Error(`verification gave no session (status ${verify.status})`);
  if (opts.finishProfile !== false) {
    await app.db
      .update(userProfiles)
      .set({ dateOfBirth: birthdayAtAge(15), guardianConsentAt: new Date() })
      .where(eq(userProfiles.id, userId));
  }
  return { email, password, userId, cookie };
}

/** The YYYY-MM-DD birthday of someone who turned `years` old half a year ago. */
export function birthdayAtAge(years: number, today = new Date()): string {
  const d = new Date(today);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCMonth(d.getUTCMonth() - 6);
  return d.toISOString().slice(0, 10);
}

/** Marks an account verified directly (for tests that are not about verification). */
export async function markVerified(app: TestApp, email: string): Promise<void> {
  await app.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
}

/**
 * Resolves when the app has heard the database's notice that the user's sessions changed. The
 * notice travels on its own connection, so a test that writes a session or admins row waits for
 * it before asking the app again, as the session cache does (auth/viewer-cache.ts).
 */
export function sessionNoticeFor(app: TestApp, userId: string, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no session notice within ${timeoutMs} ms`)), timeoutMs);
    const unsubscribe = app.server.deps.bus.subscribe((event) => {
      if (event.topic === 'sessions' && event.userId === userId) {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
  });
}
