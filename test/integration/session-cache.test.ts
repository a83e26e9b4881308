// The session cache (auth/viewer-cache.ts) saves the session lookup on signed-in requests, and
// revocation still holds: a signed-out device, a revoked admin and an ended "View as User"
// session stop working as soon as the database's notice arrives, and at the latest
// SESSION_CACHE_SECONDS later when a notice is lost.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViewerCache, viewerCacheOf } from '../../src/server/auth/viewer-cache';
import type { Viewer } from '../../src/server/auth/session';
import { admins, session } from '../../src/server/db/schema';
import { createVerifiedUser, sessionNoticeFor, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jar } from '../support/two-factor';

let app: TestApp;
const TTL_S = 2;

beforeAll(async () => {
  app = await startTestApp({ sessionCacheSeconds: TTL_S });
}, 60_000);
afterAll(() => app?.close());

const cache = () => viewerCacheOf(app.server.deps.auth)!;
const status = async (path: string, cookie: string) => (await app.fetch(path, { cookie })).status;

/** Deletes a session row without telling anyone, as a lost notice would leave the caches. */
async function deleteSilently(sessionId: string) {
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.delete(session).where(eq(session.id, sessionId));
  });
}

describe('the session cache', () => {
  it('answers a known session from memory, and stops a silently deleted one within its bound', async () => {
    const user = await createVerifiedUser(app);
    expect(await status('/api/profile', user.cookie)).toBe(200);
    expect(cache().size).toBeGreaterThan(0);
    const [row] = await app.db.select().from(session).where(eq(session.userId, user.userId));
    await deleteSilently(row!.id);
    // No notice came: the remembered answer still stands (this is what the cache saves)…
    expect(await status('/api/profile', user.cookie)).toBe(200);
    // …but never longer than the bound.
    await new Promise((r) => setTimeout(r, TTL_S * 1000 + 200));
    expect(await status('/api/profile', user.cookie)).toBe(401);
  });

  it('a signed-out device stops at once', async () => {
    const user = await createVerifiedUser(app);
    const other = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: user.email, password: user.password } });
    const secondDevice = jar(other);
    expect(await status('/api/profile', user.cookie)).toBe(200);
    expect(await status('/api/profile', secondDevice)).toBe(200);
    const heard = sessionNoticeFor(app, user.userId);
    expect((await app.fetch('/api/auth/sign-out', { method: 'POST', cookie: user.cookie })).status).toBe(200);
    await heard;
    expect(await status('/api/profile', user.cookie)).toBe(401);
    // The other device's session is its own and goes on.
    expect(await status('/api/profile', secondDevice)).toBe(200);
  });

  it('a revoked admin is refused at once, by whatever wrote the admins row', async () => {
    const admin = await createVerifiedUser(app, { email: `cache-admin-${Date.now()}@example.com` });
    await makeAdmin(app, admin.userId);
    expect(await status('/api/admin/whoami', admin.cookie)).toBe(200);
    expect(await status('/api/admin/whoami', admin.cookie)).toBe(200);
    const heard = sessionNoticeFor(app, admin.userId);
    await app.db.update(admins).set({ isActive: false }).where(eq(admins.userId, admin.userId));
    await heard;
    expect(await status('/api/admin/whoami', admin.cookie)).toBe(403);
  });

  it('an ended "View as User" session stops at once, and so does one whose admin is revoked', async () => {
    const admin = await createVerifiedUser(app, { email: `cache-viewer-${Date.now()}@example.com` });
    await makeAdmin(app, admin.userId);
    const family = await createVerifiedUser(app);

    const started = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: family.userId } });
    expect(started.status).toBe(200);
    const viewing = jar(admin.cookie, started);
    expect(await status('/api/profile', viewing)).toBe(200);
    const ended = sessionNoticeFor(app, family.userId);
    const stopped = await app.fetch('/api/auth/impersonation/stop', { method: 'POST', cookie: viewing });
    expect(stopped.status).toBe(200);
    await ended;
    expect(await status('/api/profile', viewing)).toBe(401);

    // A second visit, then the admin loses the role: the visit's cached answer goes with it.
    const again = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: jar(viewing, stopped), json: { userId: family.userId } });
    expect(again.status).toBe(200);
    const viewingAgain = jar(viewing, stopped, again);
    expect(await status('/api/profile', viewingAgain)).toBe(200);
    const revoked = sessionNoticeFor(app, admin.userId);
    await app.db.update(admins).set({ isActive: false }).where(eq(admins.userId, admin.userId));
    await revoked;
    expect(await status('/api/profile', viewingAgain)).toBe(401);
  });
});

describe('ViewerCache', () => {
  const viewer = (over: Partial<Viewer> = {}): Viewer => ({
    userId: 'u1',
    accountId: 'u1',
    familyAthleteIds: [],
    ownAthleteErased: false,
    email: 'u1@example.com',
    name: 'U One',
    isAdmin: false,
    adminSecondFactor: null,
    impersonatedBy: null,
    sessionExpiresAt: new Date(10_000_000),
    ...over,
  });

  it('keeps an entry for its time-to-live and never past the session’s own end', () => {
    let now = 0;
    const c = new ViewerCache(5000, () => now);
    c.set('a', viewer(), c.generation);
    c.set('b', viewer({ userId: 'u2', sessionExpiresAt: new Date(1000) }), c.generation);
    now = 999;
    expect(c.get('a')?.userId).toBe('u1');
    expect(c.get('b')?.userId).toBe('u2');
    now = 1000;
    expect(c.get('b')).toBeUndefined();
    now = 5000;
    expect(c.get('a')).toBeUndefined();
  });

  it('does not store what a lookup found when a notice came during it', () => {
    const c = new ViewerCache(5000);
    const before = c.generation;
    c.forgetUser('someone-else');
    c.set('a', viewer(), before);
    expect(c.get('a')).toBeUndefined();
  });

  it('forgets a user’s sessions and the view-as sessions they started, and never keeps an admin waiting for the second factor', () => {
    const c = new ViewerCache(5000, () => 0);
    c.set('own', viewer(), c.generation);
    c.set('visit', viewer({ userId: 'family', impersonatedBy: 'u1' }), c.generation);
    c.set('other', viewer({ userId: 'u3' }), c.generation);
    c.set('pending', viewer({ userId: 'u4', adminSecondFactor: 'verify' }), c.generation);
    c.forgetUser('u1');
    expect([c.get('own'), c.get('visit'), c.get('pending')]).toEqual([undefined, undefined, undefined]);
    expect(c.get('other')?.userId).toBe('u3');
  });

  it('keys a request by its session cookie only', () => {
    const a = ViewerCache.keyOf(new Headers({ cookie: 'x=1; better-auth.session_token=abc.sig; y=2' }));
    const b = ViewerCache.keyOf(new Headers({ cookie: '__Secure-better-auth.session_token=abc.sig' }));
    expect(a).toBe(b);
    expect(a).not.toContain('abc');
    expect(ViewerCache.keyOf(new Headers({ cookie: 'x=1' }))).toBeNull();
    expect(ViewerCache.keyOf(new Headers())).toBeNull();
  });
});
