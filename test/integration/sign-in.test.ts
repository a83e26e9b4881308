import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/common/messages';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';

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
});
