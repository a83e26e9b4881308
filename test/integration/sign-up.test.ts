// The simple sign-up of /auth (POST /api/account/sign-up): full name, e-mail, password.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../src/common/company';
import { AUTH_ERRORS, FIELD_ERRORS } from '../../src/common/messages';
import { user, userProfiles } from '../../src/server/db/schema';
import { startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jsonOf, settle } from '../support/http';
import { linkIn } from '../support/smtp';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
});
afterAll(async () => {
  await app?.close();
});

const signUp = (json: unknown) => app.fetch('/api/account/sign-up', { method: 'POST', json });
const usersWith = (email: string) => app.db.select().from(user).where(eq(user.email, email));
const mailsTo = (email: string) => app.smtp.mails.filter((m) => m.to.includes(email.toLowerCase()));

describe('simple sign-up', () => {
  it('creates the account, its profile (name split by the trigger) and sends a verification mail', async () => {
    const email = uniqueEmail('maria');
    const res = await signUp({ fullName: '  Maria de la Cruz ', email: email.toUpperCase(), password: 'secret1' });
    expect(res.status).toBe(201);
    const body = await jsonOf<{ userId: string; verificationRequired: boolean }>(res);
    expect(body.verificationRequired).toBe(true);

    const [row] = await usersWith(email);
    expect(row).toBeDefined();
    expect(row!.id).toBe(body.userId);
    expect(row!.emailVerified).toBe(false);

    const [profile] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, body.userId));
    expect(profile).toMatchObject({ email, firstName: 'Maria', lastName: 'de la Cruz' });

    const mail = await app.smtp.waitFor(email, 'Confirm');
    const link = new URL(linkIn(mail));
    expect(link.origin).toBe(app.origin);
    expect(link.pathname).toBe('/api/auth/verify-email');
    expect(link.searchParams.get('token')).toBeTruthy();
  });

  it('tells the team about the new account', async () => {
    const email = uniqueEmail('notify');
    const res = await signUp({ fullName: 'Team Notice', email, password: 'secret1' });
    expect(res.status).toBe(201);
    const { userId } = await jsonOf<{ userId: string }>(res);
    const note = await app.smtp.waitFor(COMPANY.teamInbox, email);
    expect(note.text).toContain(email);
    expect(note.text).toContain(userId);
  });

  it('still creates the account when mail cannot be sent; signing in later sends a new link', async () => {
    const email = uniqueEmail('nomail');
    app.smtp.setFailing(true);
    try {
      const res = await signUp({ fullName: 'No Mail', email, password: 'secret1' });
      expect(res.status).toBe(201);
      await settle(300);
    } finally {
      app.smtp.setFailing(false);
    }
    expect(await usersWith(email)).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(0);
    const signIn = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'secret1' } });
    expect(signIn.status).toBe(403);
    expect((await jsonOf(signIn)).message).toBe(AUTH_ERRORS.emailNotConfirmed);
    await app.smtp.waitFor(email, 'Confirm');
  });

  it('splits a one-word name into a first name and an empty last name', async () => {
    const email = uniqueEmail('mono');
    const res = await signUp({ fullName: 'Zendaya', email, password: 'secret1' });
    expect(res.status).toBe(201);
    const { userId } = await jsonOf<{ userId: string }>(res);
    const [profile] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, userId));
    expect(profile).toMatchObject({ firstName: 'Zendaya', lastName: '' });
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['a password shorter than 6', { fullName: 'Short Pass', password: 'abc12' }, AUTH_ERRORS.passwordTooShort],
    ['no password', { fullName: 'No Pass', password: '' }, FIELD_ERRORS.required('Password')],
    ['an invalid email', { fullName: 'Bad Mail', password: 'secret1', email: 'not-an-email' }, FIELD_ERRORS.email],
    ['an email without a domain dot', { fullName: 'Bad Mail', password: 'secret1', email: 'someone@localhost' }, FIELD_ERRORS.email],
    ['no full name', { password: 'secret1' }, FIELD_ERRORS.required('Full Name')],
    ['a blank full name', { fullName: '   ', password: 'secret1' }, FIELD_ERRORS.required('Full Name')],
  ];
  for (const [what, fields, message] of bad) {
    it(`refuses ${what} with the spec text and creates nothing`, async () => {
      const email = uniqueEmail('bad');
      const res = await signUp({ email, ...fields });
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', message });
      expect(await usersWith(email)).toHaveLength(0);
      if (typeof fields.email === 'string') expect(await usersWith(fields.email)).toHaveLength(0);
      await settle(100);
      expect(mailsTo(email)).toHaveLength(0);
    });
  }

  it('refuses a body that is not JSON', async () => {
    const res = await app.fetch('/api/account/sign-up', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'fullName=x',
    });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).code).toBe('VALIDATION_ERROR');
  });

  it('refuses an email that is already registered (any case) and sends no second mail', async () => {
    const email = uniqueEmail('twice');
    expect((await signUp({ fullName: 'First Try', email, password: 'secret1' })).status).toBe(201);
    await app.smtp.waitFor(email, 'Confirm');

    for (const again of [email, email.toUpperCase(), ` ${email} `]) {
      const res = await signUp({ fullName: 'Second Try', email: again, password: 'another1' });
      expect(res.status).toBe(409);
      expect(await jsonOf(res)).toMatchObject({ code: 'USER_ALREADY_EXISTS', message: AUTH_ERRORS.alreadyRegistered });
    }
    const rows = await usersWith(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe('First Try');
    await settle(200);
    expect(mailsTo(email)).toHaveLength(1);
  });
});
