// Who may reach the admin area: the API guard (401 / 403 / 200) and the page guards that
// redirect before any screen is sent. Admin status comes only from an active row in `admins`,
// in a session that passed the second factor.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED, AUTH_REQUIRED } from '../../src/common/messages';
import { admins } from '../../src/server/db/schema';
import { createVerifiedUser, sessionNoticeFor, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

let app: TestApp;
let regular: Awaited<ReturnType<typeof createVerifiedUser>>;
let inactive: Awaited<ReturnType<typeof createVerifiedUser>>;
let admin: Awaited<ReturnType<typeof createVerifiedUser>>;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  [regular, inactive, admin] = [
    await createVerifiedUser(app, { fullName: 'Regular Athlete' }),
    await createVerifiedUser(app, { fullName: 'Former Admin' }),
    await createVerifiedUser(app, { fullName: 'Active Admin' }),
  ];
  // Active admins have enrolled their second factor and signed in with it (issue 21); the
  // guard's answers to an admin who has not are in admin-two-factor.test.ts.
  await app.db.insert(admins).values({ userId: inactive.userId, isActive: false });
  await makeAdmin(app, admin.userId);
});
afterAll(async () => {
  await app?.close();
});

const whoami = (cookie?: string) => app.fetch('/api/admin/whoami', { cookie });
const locationOf = (res: Response) => res.headers.get('location');

describe('admin API guard', () => {
  it('a visitor gets 401', async () => {
    const res = await whoami();
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description });
  });

  it('a forged or stale cookie counts as a visitor', async () => {
    const res = await whoami('better-auth.session_token=forged.value');
    expect(res.status).toBe(401);
  });

  it('a signed-in non-admin gets 403 Access Denied', async () => {
    const res = await whoami(regular.cookie);
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toEqual({ code: 'NOT_ADMIN', message: ACCESS_DENIED.description, title: ACCESS_DENIED.title });
  });

  it('an admin whose row is inactive gets 403', async () => {
    const res = await whoami(inactive.cookie);
    expect(res.status).toBe(403);
    expect((await jsonOf(res)).message).toBe(ACCESS_DENIED.description);
  });

  it('an active admin gets 200 with their own identity', async () => {
    const res = await whoami(admin.cookie);
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ userId: admin.userId, email: admin.email, name: 'Active Admin' });
  });

  it('/api/account/me tells admins from everyone else', async () => {
    for (const [u, isAdmin] of [[regular, false], [inactive, false], [admin, true]] as const) {
      const me = await jsonOf<{ user: { isAdmin: boolean } }>(await app.fetch('/api/account/me', { cookie: u.cookie }));
      expect(me.user.isAdmin).toBe(isAdmin);
    }
  });

  it('deactivating an admin takes effect on the next request', async () => {
    const u = await createVerifiedUser(app, { fullName: 'Soon Former' });
    await makeAdmin(app, u.userId);
    expect((await whoami(u.cookie)).status).toBe(200);
    const heard = sessionNoticeFor(app, u.userId);
    await app.db.update(admins).set({ isActive: false }).where(eq(admins.userId, u.userId));
    // The database's notice reaches the app on another connection, a moment after the write.
    await heard;
    expect((await whoami(u.cookie)).status).toBe(403);
    const page = await app.fetch('/admin', { cookie: u.cookie });
    expect(page.status).toBe(302);
    expect(locationOf(page)).toBe('/dashboard?denied=admin');
  });
});

describe('page guards', () => {
  it('a visitor opening /admin pages is sent to /auth', async () => {
    for (const path of ['/admin', '/admin/users', '/admin/orders']) {
      const res = await app.fetch(path);
      expect(res.status).toBe(302);
      expect(locationOf(res)).toBe('/auth');
    }
  });

  it('a non-admin opening /admin pages is sent to /dashboard?denied=admin', async () => {
    for (const cookie of [regular.cookie, inactive.cookie]) {
      for (const path of ['/admin', '/admin/users']) {
        const res = await app.fetch(path, { cookie });
        expect(res.status).toBe(302);
        expect(locationOf(res)).toBe('/dashboard?denied=admin');
      }
    }
  });

  it('an active admin is let through to /admin', async () => {
    const res = await app.fetch('/admin/users', { cookie: admin.cookie });
    expect(res.status).not.toBe(302);
  });

  it('a visitor opening /dashboard is sent to /auth', async () => {
    for (const path of ['/dashboard', '/dashboard/anything']) {
      const res = await app.fetch(path);
      expect(res.status).toBe(302);
      expect(locationOf(res)).toBe('/auth');
    }
  });

  it('a signed-in user is let through to /dashboard', async () => {
    const res = await app.fetch('/dashboard', { cookie: regular.cookie });
    expect(res.status).not.toBe(302);
  });
});
