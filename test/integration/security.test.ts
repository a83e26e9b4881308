// Cross-site request protection, security headers, and what a visitor sees.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/common/messages';
import { contactMessages, session, user } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jsonOf, settle } from '../support/http';

let app: TestApp;
let member: Awaited<ReturnType<typeof createVerifiedUser>>;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  member = await createVerifiedUser(app);
});
afterAll(async () => {
  await app?.close();
});

/** A POST as another site's page (or a script with no Origin) would send it. */
function postFrom(origin: string | null, pathname: string, json: unknown, cookie?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (origin !== null) headers.origin = origin;
  if (cookie) headers.cookie = cookie;
  return fetch(`${app.url}${pathname}`, { method: 'POST', headers, body: JSON.stringify(json), redirect: 'manual' });
}

const FOREIGN = [null, 'https://evil.example', 'null', 'http://127.0.0.1:1', 'http://127.0.0.1.evil.example'];
const label = (o: string | null) => (o === null ? 'no Origin' : `Origin ${o}`);

async function expectRejected(res: Response) {
  expect(res.status).toBe(403);
  expect(await jsonOf(res)).toEqual({ code: 'INVALID_ORIGIN', message: AUTH_ERRORS.requestRejected });
  expect(res.headers.getSetCookie()).toHaveLength(0);
}

describe('origin check on state-changing requests', () => {
  it.each(FOREIGN.map((o) => [label(o), o] as const))('sign-up with %s is refused and creates nothing', async (_l, origin) => {
    const email = uniqueEmail('csrf');
    await expectRejected(await postFrom(origin, '/api/account/sign-up', { fullName: 'Cross Site', email, password: 'secret12' }));
    expect(await app.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
    await settle(100);
    expect(app.smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
  });

  it.each(FOREIGN.map((o) => [label(o), o] as const))('contact with %s is refused and stores nothing', async (_l, origin) => {
    const email = uniqueEmail('csrf');
    const body = { firstName: 'Cross', lastName: 'Site', email, subject: 'Hi', message: 'Hello' };
    await expectRejected(await postFrom(origin, '/api/contact', body));
    expect(await app.db.select().from(contactMessages).where(eq(contactMessages.email, email))).toHaveLength(0);
    expect(app.smtp.mails.filter((m) => m.to.includes(email) || m.replyTo?.includes(email))).toHaveLength(0);
  });

  it.each(FOREIGN.map((o) => [label(o), o] as const))('sign-in with %s is refused and starts no session', async (_l, origin) => {
    const before = (await app.db.select().from(session).where(eq(session.userId, member.userId))).length;
    await expectRejected(await postFrom(origin, '/api/auth/sign-in/email', { email: member.email, password: member.password }));
    expect(await app.db.select().from(session).where(eq(session.userId, member.userId))).toHaveLength(before);
  });

  it('sign-out from another site does not end the session', async () => {
    const res = await postFrom('https://evil.example', '/api/auth/sign-out', {}, member.cookie);
    expect(res.status).toBe(403);
    const me = await jsonOf<{ user: { id: string } | null }>(await app.fetch('/api/account/me', { cookie: member.cookie }));
    expect(me.user?.id).toBe(member.userId);
  });

  it('the same requests from our own origin go through', async () => {
    const res = await postFrom(app.origin, '/api/auth/sign-in/email', { email: member.email, password: member.password });
    expect(res.status).toBe(200);
    const local = await postFrom(app.origin.replace('127.0.0.1', 'localhost'), '/api/contact', {
      firstName: 'Local',
      lastName: 'Host',
      email: uniqueEmail('local'),
      subject: 'Hi',
      message: 'Hello',
    });
    expect(local.status).toBe(201);
  });
});

describe('security headers', () => {
  it.each(['/api/health', '/api/account/me', '/api/nothing-here', '/auth', '/admin'])('%s carries CSP and nosniff', async (pathname) => {
    const res = await app.fetch(pathname);
    const csp = res.headers.get('content-security-policy');
    expect(csp).toBeTruthy();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBeTruthy();
  });

  it('the session cookie is HttpOnly and SameSite=Lax', async () => {
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: member.email, password: member.password } });
    const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
  });
});

describe('visitors', () => {
  it('GET /api/account/me as a visitor answers {user:null} and is not cached', async () => {
    const res = await app.fetch('/api/account/me');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('an unknown API path is a JSON 404, not the web app', async () => {
    const res = await app.fetch('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect((await jsonOf(res)).code).toBe('NOT_FOUND');
  });

  it('the profile-photo store is not served from a public path', async () => {
    const res = await app.fetch(`/storage/profile-photos/${member.userId}/profile.jpg`);
    expect(res.status).not.toBe(200);
  });
});
