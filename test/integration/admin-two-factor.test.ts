// A second factor for admins (issue 21): a stolen admin password is not enough. Admins enrol an
// authenticator app (better-auth's twoFactor plugin) with recovery codes; /admin and /api/admin
// need a session that passed the factor; an admin granted without one is made to enrol and gets
// no admin data before; codes are limited per account and address, and one code works once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR } from '../../src/common/messages';
import { RATE_RULES } from '../../src/server/http/rate-limit';
import { and, eq } from 'drizzle-orm';
import { runAdminCommand } from '../../src/server/admin/service';
import { admins, auditLog, session, twoFactor } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf, requestFrom } from '../support/http';
import { secretOfUri, totp, wrongTotp } from '../support/totp';
import { enrolByApi, jar } from '../support/two-factor';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let family: User;

beforeAll(async () => {
  app = await startTestApp();
  family = await createVerifiedUser(app, { fullName: 'Fay Family' });
});
afterAll(async () => {
  await app?.close();
});

const post = (pathname: string, cookie: string | undefined, json: unknown) => app.fetch(pathname, { method: 'POST', cookie, json });
const signIn = (u: { email: string; password: string }, cookie?: string) => post('/api/auth/sign-in/email', cookie, { email: u.email, password: u.password });
const whoami = (cookie: string) => app.fetch('/api/admin/whoami', { cookie });
const me = async (cookie: string) => jsonOf<{ user: { isAdmin: boolean; secondFactor: string | null } | null }>(await app.fetch('/api/account/me', { cookie }));
const hasSession = (cookie: string) => /session_token=/.test(cookie);

/** An accepted code (previous, current or next step) not used yet in this file: each works once. */
const used = new Set<string>();
async function freshTotp(secret: string): Promise<string> {
  // Near the end of a 30 s step the previous step's code would be two steps old by the time a
  // busy machine sends it: wait for the next step first.
  const intoStep = (Date.now() / 1000) % 30;
  if (intoStep > 24) await new Promise((resolve) => setTimeout(resolve, (30.2 - intoStep) * 1000));
  for (const steps of [0, 1, -1]) {
    const code = totp(secret, { steps });
    if (!used.has(`${secret}:${code}`)) {
      used.add(`${secret}:${code}`);
      return code;
    }
  }
  throw new Error('every accepted code was used');
}

/** An account granted admin the way the command does it (an active admins row), with no factor. */
async function grantedAdmin(name: string): Promise<User> {
  const u = await createVerifiedUser(app, { fullName: name });
  await app.db.insert(admins).values({ userId: u.userId, isActive: true });
  return u;
}

/** Signs in with the password: the answer asks for the code and carries only the challenge cookie. */
async function passwordStep(u: User): Promise<string> {
  const res = await signIn(u);
  expect(res.status).toBe(200);
  expect(await jsonOf(res)).toMatchObject({ twoFactorRedirect: true });
  const cookie = jar(res);
  expect(hasSession(cookie)).toBe(false);
  return cookie;
}

describe('a lost factor, and a factor added (issue 33)', () => {
  it('enrolling a second factor mails the admin; signing in with it later does not', async () => {
    const admin = await grantedAdmin('Mia Mailed');
    const signedIn = await signIn(admin);
    const enrolled = await enrolByApi(app, jar(signedIn), admin.password);
    const mail = await app.smtp.waitFor(admin.email, 'A second factor was added to your admin account');
    expect(mail.text).toContain('reset-second-factor');
    used.add(`${enrolled.secret}:${totp(enrolled.secret)}`); // the code enrolment took
    const cookie = await passwordStep(admin);
    expect((await post('/api/auth/two-factor/verify-totp', cookie, { code: await freshTotp(enrolled.secret) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(app.smtp.mails.filter((m) => m.to.includes(admin.email) && m.subject.includes('second factor'))).toHaveLength(1);
  });

  it('npm run admin -- reset-second-factor removes the factor, ends every session, is audited; the next sign-in enrols anew', async () => {
    const admin = await grantedAdmin('Lou Lost-Phone');
    const enrolled = await enrolByApi(app, jar(await signIn(admin)), admin.password);
    expect((await whoami(enrolled.cookie)).status).toBe(200);
    expect(await runAdminCommand(app.server.deps, 'reset-second-factor', admin.email)).toEqual({
      ok: true,
      message: `${admin.email} has no second factor now and is signed out everywhere; the next sign-in asks to set up a new one.`,
    });
    expect(await app.db.select().from(twoFactor).where(eq(twoFactor.userId, admin.userId))).toEqual([]);
    expect(await app.db.select().from(session).where(eq(session.userId, admin.userId))).toEqual([]);
    expect((await whoami(enrolled.cookie)).status).toBe(401);
    const [entry] = await app.db.select().from(auditLog).where(and(eq(auditLog.subjectUserId, admin.userId), eq(auditLog.action, 'admin.reset-second-factor')));
    expect(entry).toBeTruthy();
    // The password alone now gives a session sent to enrolment, not the code step.
    const again = await signIn(admin);
    expect(await jsonOf(again)).not.toHaveProperty('twoFactorRedirect');
    expect((await me(jar(again))).user).toMatchObject({ isAdmin: false, secondFactor: 'enrol' });
    expect(await runAdminCommand(app.server.deps, 'reset-second-factor', 'nobody.here@example.com')).toEqual({ ok: false, message: 'No account with the email nobody.here@example.com.' });
  });
});

describe('an admin granted without a second factor', () => {
  it('gets no admin data and is sent to enrolment, until a code from the app confirms it', async () => {
    const admin = await grantedAdmin('Nia New-Admin');
    // The next sign-in gives a session (no factor yet) that reaches no admin route or page.
    const signedIn = await signIn(admin);
    expect(signedIn.status).toBe(200);
    expect(await jsonOf(signedIn)).not.toHaveProperty('twoFactorRedirect');
    const cookie = jar(signedIn);
    for (const path of ['/api/admin/whoami', '/api/admin/users', '/api/admin/stats']) {
      const res = await app.fetch(path, { cookie });
      expect(res.status, path).toBe(403);
      expect(await jsonOf(res)).toEqual({ code: 'SECOND_FACTOR_REQUIRED', message: SECOND_FACTOR.required.enrol, title: SECOND_FACTOR.required.title });
    }
    const page = await app.fetch('/admin/users', { cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(SECOND_FACTOR.setupPath);
    expect(await me(cookie)).toMatchObject({ user: { isAdmin: false, secondFactor: 'enrol' } });
    // Nor can it view the site as a family.
    const view = await post('/api/auth/impersonation/start', cookie, { userId: family.userId });
    expect(view.status).toBe(403);
    expect((await jsonOf(view)).message).toBe(SECOND_FACTOR.required.enrol);
    // The enrolment page itself is let through (served as the app shell, or 503 where the web app
    // is not built, as in the unit-test stage): not sent elsewhere.
    const setup = await app.fetch('/two-factor/setup', { cookie });
    expect(setup.headers.get('location')).toBeNull();
    expect([200, 503]).toContain(setup.status);

    // Enrolment: the password first, then the app's code.
    const wrongPassword = await post('/api/auth/two-factor/enable', cookie, { password: 'not-my-password' });
    expect(wrongPassword.status).toBe(400);
    expect((await jsonOf(wrongPassword)).message).toBe(SECOND_FACTOR.wrongPassword);
    const enable = await post('/api/auth/two-factor/enable', cookie, { password: admin.password, method: 'otp', issuer: 'Evil' });
    expect(enable.status).toBe(200);
    const { totpURI, backupCodes } = await jsonOf<{ totpURI: string; backupCodes: string[] }>(enable);
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Get%20It%20On%20Tape:/);
    expect(backupCodes).toHaveLength(10);
    const secret = secretOfUri(totpURI);
    // Started but not confirmed: still nothing.
    expect((await whoami(cookie)).status).toBe(403);
    const wrong = await post('/api/auth/two-factor/verify-totp', cookie, { code: wrongTotp(secret) });
    expect(wrong.status).toBe(401);
    expect((await jsonOf(wrong)).message).toBe(SECOND_FACTOR.invalidCode);
    expect((await whoami(cookie)).status).toBe(403);

    const confirm = await post('/api/auth/two-factor/verify-totp', cookie, { code: await freshTotp(secret) });
    expect(confirm.status).toBe(200);
    expect(await jsonOf(confirm)).toEqual({ status: true }); // no session token in the body
    const passed = jar(cookie, confirm);
    expect((await whoami(passed)).status).toBe(200);
    expect(await me(passed)).toMatchObject({ user: { isAdmin: true, secondFactor: null } });
    // The admin page is let through now (the app shell, or 503 where the web app is not built).
    const adminPage = await app.fetch('/admin/users', { cookie: passed });
    expect(adminPage.headers.get('location')).toBeNull();
    expect([200, 503]).toContain(adminPage.status);
    // Enrolled once: starting again is refused.
    const again = await post('/api/auth/two-factor/enable', passed, { password: admin.password });
    expect(again.status).toBe(400);
    expect((await jsonOf(again)).message).toBe(SECOND_FACTOR.alreadyEnrolled);
  });

  it('an older session of an admin who enrolled elsewhere must give a code before admin rights', async () => {
    const admin = await grantedAdmin('Oli Older-Session');
    const older = jar(await signIn(admin));
    await enrolByApi(app, admin.cookie, admin.password);
    expect(await me(older)).toMatchObject({ user: { isAdmin: false, secondFactor: 'verify' } });
    const refused = await whoami(older);
    expect(refused.status).toBe(403);
    expect((await jsonOf(refused)).message).toBe(SECOND_FACTOR.required.verify);
    expect((await app.fetch('/admin', { cookie: older })).headers.get('location')).toBe(SECOND_FACTOR.promptPath);
    expect((await post('/api/auth/impersonation/start', older, { userId: family.userId })).status).toBe(403);
  });
});

describe('signing in as an enrolled admin', () => {
  let admin: User;
  let secret: string;
  let backupCodes: string[];

  beforeAll(async () => {
    admin = await grantedAdmin('Ada Enrolled');
    ({ secret, backupCodes } = await enrolByApi(app, admin.cookie, admin.password));
    used.add(`${secret}:${totp(secret)}`); // the code that confirmed enrolment
  });

  it('the password alone gives no session; a wrong code neither; the right code does', async () => {
    const challenge = await passwordStep(admin);
    expect((await whoami(challenge)).status).toBe(401);
    const wrong = await post('/api/auth/two-factor/verify-totp', challenge, { code: wrongTotp(secret) });
    expect(wrong.status).toBe(401);
    expect((await jsonOf(wrong)).message).toBe(SECOND_FACTOR.invalidCode);
    expect(hasSession(jar(challenge, wrong))).toBe(false);
    const badFormat = await post('/api/auth/two-factor/verify-totp', challenge, { code: '12ab56' });
    expect(badFormat.status).toBe(400);
    expect((await jsonOf(badFormat)).message).toBe(SECOND_FACTOR.codeFormat);

    const right = await post('/api/auth/two-factor/verify-totp', challenge, { code: await freshTotp(secret), trustDevice: true });
    expect(right.status).toBe(200);
    expect(await jsonOf(right)).toEqual({ status: true });
    const cookie = jar(challenge, right);
    expect(hasSession(cookie)).toBe(true);
    expect(cookie).not.toMatch(/trust_device/); // no "remember this device": every sign-in asks
    expect((await whoami(cookie)).status).toBe(200);
    const view = await post('/api/auth/impersonation/start', cookie, { userId: family.userId });
    expect(view.status).toBe(200);
  });

  it('a code that was used is refused the second time, within its window', async () => {
    const first = await passwordStep(admin);
    // Taken once the password step is done, so it is still within its window when sent.
    const code = await freshTotp(secret);
    const used = await post('/api/auth/two-factor/verify-totp', first, { code });
    expect(used.status).toBe(200);
    const second = await passwordStep(admin);
    const replay = await post('/api/auth/two-factor/verify-totp', second, { code });
    expect(replay.status).toBe(401);
    expect(await jsonOf(replay)).toMatchObject({ code: 'CODE_ALREADY_USED', message: SECOND_FACTOR.codeUsed });
    expect(hasSession(jar(second, replay))).toBe(false);
  });

  it('a recovery code signs in once', async () => {
    const [recovery] = backupCodes;
    const first = await passwordStep(admin);
    const ok = await post('/api/auth/two-factor/verify-backup-code', first, { code: ` ${recovery!.replace('-', '')} ` });
    expect(ok.status).toBe(200);
    expect((await whoami(jar(first, ok))).status).toBe(200);
    const second = await passwordStep(admin);
    const again = await post('/api/auth/two-factor/verify-backup-code', second, { code: recovery });
    expect(again.status).toBe(401);
    expect((await jsonOf(again)).message).toBe(SECOND_FACTOR.invalidRecoveryCode);
    const other = await post('/api/auth/two-factor/verify-backup-code', second, { code: backupCodes[1] });
    expect(other.status).toBe(200);
  });

  it('a code without a sign-in in progress is refused', async () => {
    const res = await post('/api/auth/two-factor/verify-totp', undefined, { code: totp(secret) });
    expect(res.status).toBe(401);
    expect((await jsonOf(res)).message).toBe(SECOND_FACTOR.expired);
  });
});

describe('guessing codes', () => {
  const raw = (ip: string, pathname: string, cookie: string, json: unknown) =>
    requestFrom(ip, `${app.url}${pathname}`, { method: 'POST', json, headers: { origin: app.origin, cookie } });
  const challengeFrom = async (ip: string, u: User) => {
    const res = await raw(ip, '/api/auth/sign-in/email', '', { email: u.email, password: u.password });
    expect(res.status).toBe(200);
    return jar([res.headers['set-cookie'] ?? []].flat());
  };

  it('is limited per account at an address, and per account from many addresses', async () => {
    const victim = await grantedAdmin('Val Victim');
    const { secret } = await enrolByApi(app, victim.cookie, victim.password);
    const perPair = RATE_RULES.twoFactorPerAccountAddress.limit;
    // One address: five wrong codes, then 429 (the plugin alone would allow five per sign-in, then a new sign-in).
    let challenge = await challengeFrom('127.0.21.1', victim);
    for (let i = 0; i < perPair; i++) {
      expect((await raw('127.0.21.1', '/api/auth/two-factor/verify-totp', challenge, { code: wrongTotp(secret) })).status).toBe(401);
    }
    challenge = await challengeFrom('127.0.21.1', victim);
    const limited = await raw('127.0.21.1', '/api/auth/two-factor/verify-totp', challenge, { code: totp(secret) });
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });

    // Other addresses: the account's own ceiling (ten an hour) stops a spread-out guess, right code included.
    const perAccount = RATE_RULES.twoFactorPerAccount.limit;
    let n = perPair + 1; // the code that confirmed enrolment counted too
    let address = 2;
    while (n < perAccount) {
      const ip = `127.0.21.${address++}`;
      const c = await challengeFrom(ip, victim);
      const r = await raw(ip, '/api/auth/two-factor/verify-totp', c, { code: wrongTotp(secret) });
      expect(r.status, `${n} ${r.body}`).toBe(401);
      n++;
    }
    const fresh = `127.0.21.${address}`;
    const last = await raw(fresh, '/api/auth/two-factor/verify-totp', await challengeFrom(fresh, victim), { code: totp(secret) });
    expect(last.status).toBe(429);
    expect(last.json()).toMatchObject({ code: 'RATE_LIMITED' });

    // Recovery codes share the limits.
    const recovery = await raw(fresh, '/api/auth/two-factor/verify-backup-code', await challengeFrom(fresh, victim), { code: 'abcde-12345' });
    expect(recovery.status).toBe(429);
  });
});

describe('families', () => {
  it('sign in with their password alone, and cannot start an admin enrolment', async () => {
    const res = await signIn(family);
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).not.toHaveProperty('twoFactorRedirect');
    const cookie = jar(res);
    expect(hasSession(cookie)).toBe(true);
    expect(await me(cookie)).toMatchObject({ user: { isAdmin: false, secondFactor: null } });
    expect((await app.fetch('/api/profile', { cookie })).status).toBe(200);
    const enable = await post('/api/auth/two-factor/enable', cookie, { password: family.password });
    expect(enable.status).toBe(403);
    expect((await jsonOf(enable)).message).toBe(SECOND_FACTOR.notAdmin);
    expect((await whoami(cookie)).status).toBe(403);
  });

  it("the plugin's other endpoints stay closed", async () => {
    for (const path of ['/api/auth/two-factor/disable', '/api/auth/two-factor/get-totp-uri', '/api/auth/two-factor/generate-backup-codes', '/api/auth/two-factor/send-otp']) {
      expect((await post(path, family.cookie, { password: family.password })).status, path).toBe(404);
    }
  });
});

describe('fixtures', () => {
  it('makeAdmin gives an enrolled admin whose current session passed the factor', async () => {
    const u = await createVerifiedUser(app, { fullName: 'Fix Ture' });
    const { secret } = await makeAdmin(app, u.userId);
    expect((await whoami(u.cookie)).status).toBe(200);
    const challenge = await passwordStep(u);
    const res = await post('/api/auth/two-factor/verify-totp', challenge, { code: totp(secret) });
    expect(res.status).toBe(200);
  });
});
