// Password reset: the mail's link leads to /reset-password with a token, the token sets a new
// password once, and every old session is revoked.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/common/messages';
import { account, session } from '../../src/server/db/schema';
import { jobsOf } from '../support/jobs';
import { cookiesFrom, createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jsonOf, settle } from '../support/http';
import { linkIn } from '../support/smtp';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50, mailRetryDelaySeconds: 1 });
});
afterAll(async () => {
  await app?.close();
});

const requestReset = (json: unknown) => app.fetch('/api/auth/request-password-reset', { method: 'POST', json });
const resetPassword = (json: unknown) => app.fetch('/api/auth/reset-password', { method: 'POST', json });
const signIn = (email: string, password: string) =>
  app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password } });
const mailsTo = (email: string) => app.smtp.mails.filter((m) => m.to.includes(email));
const passwordHashOf = async (userId: string) =>
  (await app.db.select().from(account).where(eq(account.userId, userId)))[0]!.password;

/** Asks for a reset mail and follows its link; returns the token the page receives. */
async function tokenFor(email: string): Promise<string> {
  const res = await requestReset({ email, redirectTo: '/reset-password' });
  expect(res.status).toBe(200);
  const mail = await app.smtp.waitFor(email, 'Reset');
  const follow = await fetch(linkIn(mail), { redirect: 'manual' });
  expect(follow.status).toBe(302);
  const target = new URL(follow.headers.get('location')!, app.origin);
  expect(target.origin).toBe(app.origin);
  expect(target.pathname).toBe('/reset-password');
  const token = target.searchParams.get('token');
  expect(token).toBeTruthy();
  return token!;
}

describe('password reset', () => {
  it('mails a link to /reset-password; the new password works, the old one and old sessions do not', async () => {
    const u = await createVerifiedUser(app, { password: 'old-secret' });
    expect((await jsonOf<{ user: unknown }>(await app.fetch('/api/account/me', { cookie: u.cookie }))).user).not.toBeNull();
    const other = await signIn(u.email, 'old-secret');
    expect(other.status).toBe(200);
    const otherCookie = cookiesFrom(other);

    const token = await tokenFor(u.email);
    const res = await resetPassword({ newPassword: 'new-secret', token });
    expect(res.status).toBe(200);

    for (const cookie of [u.cookie, otherCookie]) {
      const me = await jsonOf<{ user: unknown }>(await app.fetch('/api/account/me', { cookie }));
      expect(me.user).toBeNull();
    }
    expect(await app.db.select().from(session).where(eq(session.userId, u.userId))).toHaveLength(0);

    const old = await signIn(u.email, 'old-secret');
    expect(old.status).toBe(401);
    expect((await jsonOf(old)).message).toBe(AUTH_ERRORS.invalidCredentials);
    const fresh = await signIn(u.email, 'new-secret');
    expect(fresh.status).toBe(200);
    expect(cookiesFrom(fresh)).toMatch(/session_token=/);
  });

  it('a token works once only', async () => {
    const u = await createVerifiedUser(app);
    const token = await tokenFor(u.email);
    expect((await resetPassword({ newPassword: 'first-new', token })).status).toBe(200);
    const hash = await passwordHashOf(u.userId);
    const again = await resetPassword({ newPassword: 'second-new', token });
    expect(again.status).toBe(400);
    expect((await jsonOf(again)).message).toBe(AUTH_ERRORS.invalidResetLink);
    expect(await passwordHashOf(u.userId)).toBe(hash);
    expect((await signIn(u.email, 'first-new')).status).toBe(200);
  });

  it('a bad token is refused with the spec text and changes nothing', async () => {
    const u = await createVerifiedUser(app);
    const hash = await passwordHashOf(u.userId);
    for (const token of ['not-a-real-token', 'x'.repeat(24)]) {
      const res = await resetPassword({ newPassword: 'new-secret', token });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.invalidResetLink);
    }
    expect(await passwordHashOf(u.userId)).toBe(hash);
    expect((await jsonOf<{ user: unknown }>(await app.fetch('/api/account/me', { cookie: u.cookie }))).user).not.toBeNull();
  });

  it('a bad link sends the browser to /reset-password with an error instead of a token', async () => {
    const u = await createVerifiedUser(app);
    await requestReset({ email: u.email, redirectTo: '/reset-password' });
    const link = new URL(linkIn(await app.smtp.waitFor(u.email, 'Reset')));
    link.pathname = link.pathname.replace(/[^/]+$/, 'forged-token');
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get('location')!, app.origin);
    expect(target.pathname).toBe('/reset-password');
    expect(target.searchParams.get('token')).toBeNull();
    expect(target.searchParams.get('error')).toBeTruthy();
  });

  it('a new password shorter than 6 is refused with the spec text', async () => {
    const u = await createVerifiedUser(app);
    const token = await tokenFor(u.email);
    const hash = await passwordHashOf(u.userId);
    const res = await resetPassword({ newPassword: 'abc', token });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.passwordTooShort);
    expect(await passwordHashOf(u.userId)).toBe(hash);
    // The token was not used up by the refused attempt.
    expect((await resetPassword({ newPassword: 'long-enough', token })).status).toBe(200);
  });

  it('a request without an email gets the spec text and sends nothing', async () => {
    const resetMails = () => app.smtp.mails.filter((m) => m.subject.includes('Reset')).length;
    const before = resetMails();
    for (const body of [{ redirectTo: '/reset-password' }, { email: '', redirectTo: '/reset-password' }]) {
      const res = await requestReset(body);
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.missingEmail);
    }
    const bad = await requestReset({ email: 'not-an-email', redirectTo: '/reset-password' });
    expect(bad.status).toBe(400);
    expect((await jsonOf(bad)).message).toBe(AUTH_ERRORS.invalidEmail);
    await settle(200);
    expect(resetMails()).toBe(before);
  });

  it('an unknown email gets the same answer as a known one, and no mail', async () => {
    const known = await createVerifiedUser(app);
    const email = uniqueEmail('nobody');
    const [a, b] = [await requestReset({ email, redirectTo: '/reset-password' }), await requestReset({ email: known.email, redirectTo: '/reset-password' })];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.text()).toBe(await b.text());
    await app.smtp.waitFor(known.email, 'Reset');
    await settle(300);
    expect(mailsTo(email)).toHaveLength(0);
  });

  it('the answer does not wait for the mail (issue 6, threat 8): with SMTP down it is the same, and the mail follows later', async () => {
    const u = await createVerifiedUser(app);
    app.smtp.setFailing(true);
    try {
      const res = await requestReset({ email: u.email, redirectTo: '/reset-password' });
      expect(res.status).toBe(200);
      // The reset mail is stored, its first delivery failed, and it waits for a retry.
      await expect
        .poll(async () => (await jobsOf(app, 'mail.deliver')).filter((j) => j.data.to === u.email && String(j.data.subject).includes('Reset') && j.state === 'retry').length, { timeout: 10_000 })
        .toBe(1);
      expect(mailsTo(u.email).filter((m) => m.subject.includes('Reset'))).toHaveLength(0);
    } finally {
      app.smtp.setFailing(false);
    }
    const mail = await app.smtp.waitFor(u.email, 'Reset', 15_000);
    const follow = await fetch(linkIn(mail), { redirect: 'manual' });
    expect(new URL(follow.headers.get('location')!, app.origin).searchParams.get('token')).toBeTruthy();
  });

  it('refuses to send a reset link that would hand the token to another site', async () => {
    const u = await createVerifiedUser(app);
    for (const redirectTo of ['https://evil.example/steal', '//evil.example/steal', `${app.origin}.evil.example/`]) {
      const res = await requestReset({ email: u.email, redirectTo });
      expect(res.status).toBe(403);
      expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.requestRejected);
    }
    await settle(300);
    expect(mailsTo(u.email).filter((m) => m.subject.includes('Reset'))).toHaveLength(0);
  });
});
