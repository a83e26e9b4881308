import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTH_ERRORS } from '../../src/common/messages';
import { session } from '../../src/server/db/schema';
import { cookiesFrom, createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jsonOf } from '../support/http';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('sign in', () => {
  it('signs a verified user in and sets an httpOnly session cookie', async () => {
    const u = await createVerifiedUser(app);
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: u.email, password: u.password } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
  });

  it('refuses a wrong password with the spec text', async () => {
    const u = await createVerifiedUser(app);
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: u.email, password: 'wrong-pass' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe(AUTH_ERRORS.invalidCredentials);
  });

  it('refuses an unverified account with the spec text', async () => {
    const email = uniqueEmail();
    await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName: 'New Person', email, password: 'secret123' } });
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'secret123' } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(AUTH_ERRORS.emailNotConfirmed);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: uniqueEmail('ghost'), password: 'secret123' } });
    expect(res.status).toBe(401);
    expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.invalidCredentials);
    expect(res.headers.getSetCookie()).toHaveLength(0);
  });

  it('accepts the email in any letter case, and the session shows who is signed in', async () => {
    const u = await createVerifiedUser(app, { fullName: 'Case Study' });
    const res = await app.fetch('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: `  ${u.email.toUpperCase()}  `, password: u.password },
    });
    expect(res.status).toBe(200);
    const me = await jsonOf<{ user: { id: string; email: string; name: string; isAdmin: boolean } }>(
      await app.fetch('/api/account/me', { cookie: cookiesFrom(res) }),
    );
    expect(me.user).toEqual({ id: u.userId, email: u.email, name: 'Case Study', isAdmin: false, secondFactor: null });
  });

  it.each([
    ['no email', { password: 'secret123' }, AUTH_ERRORS.missingCredentials],
    ['no password', { email: 'someone@example.com' }, AUTH_ERRORS.missingCredentials],
    ['an empty body', {}, AUTH_ERRORS.missingCredentials],
    ['an invalid email', { email: 'someone', password: 'secret123' }, AUTH_ERRORS.invalidEmail],
  ])('refuses %s with the spec text', async (_what, json, message) => {
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', message });
    expect(res.headers.getSetCookie()).toHaveLength(0);
  });

  it('signing out ends the session on the server', async () => {
    const u = await createVerifiedUser(app);
    const res = await app.fetch('/api/auth/sign-out', { method: 'POST', cookie: u.cookie, json: {} });
    expect(res.status).toBe(200);
    const me = await jsonOf<{ user: unknown }>(await app.fetch('/api/account/me', { cookie: u.cookie }));
    expect(me.user).toBeNull();
    expect(await app.db.select().from(session).where(eq(session.userId, u.userId))).toHaveLength(0);
  });
});
