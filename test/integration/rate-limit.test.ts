// Rate limits (src/server/http/rate-limit.ts): sign-in per address and per account, sign-up,
// password-reset requests and the contact form. Each test plays its own clients by connecting
// from its own loopback addresses; the server trusts no proxy header here, as in production.
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/common/messages';
import { contactMessages, rateLimitHits, user } from '../../src/server/db/schema';
import { RATE_RULES, type RateRule } from '../../src/server/http/rate-limit';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { encodeForm, requestFrom, settle, type RawResponse } from '../support/http';

const SCALE = 0.2;
/** The limit the server applies to `rule` at this scale (as RateLimiter computes it). */
const limitOf = (rule: RateRule) => Math.max(1, Math.round(rule.limit * SCALE));

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: SCALE });
});
afterAll(async () => {
  await app?.close();
});

const post = (ip: string, pathname: string, json: unknown, headers: Record<string, string> = {}) =>
  requestFrom(ip, `${app.url}${pathname}`, { method: 'POST', json, headers: { origin: app.origin, ...headers } });
const signIn = (ip: string, email: string, password = 'wrong-pass', headers: Record<string, string> = {}) =>
  post(ip, '/api/auth/sign-in/email', { email, password }, headers);

function expectLimited(res: RawResponse, rule: RateRule) {
  expect(res.status).toBe(429);
  expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', message: AUTH_ERRORS.tooManyAttempts });
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(rule.windowSeconds);
}

describe('rate limits', () => {
  it('sign-in: one address gets 429 after its limit, another address does not', async () => {
    const rule = RATE_RULES.signInPerIp;
    for (let i = 0; i < limitOf(rule); i++) {
      const res = await signIn('127.0.0.2', uniqueEmail('spray'));
      expect(res.status).toBe(401);
      expect(res.json().message).toBe(AUTH_ERRORS.invalidCredentials);
    }
    expectLimited(await signIn('127.0.0.2', uniqueEmail('spray')), rule);
    // A doubled slash does not reach an unguarded route.
    const sneaky = await post('127.0.0.2', '/api/auth//sign-in/email', { email: uniqueEmail('spray'), password: 'x12345' });
    expect([404, 429]).toContain(sneaky.status);
    // The counter lives in the database.
    const rows = await app.db.select().from(rateLimitHits).where(eq(rateLimitHits.key, `${rule.name}:127.0.0.2`));
    expect(rows[0]!.count).toBeGreaterThan(limitOf(rule));

    expect((await signIn('127.0.0.3', uniqueEmail('spray'))).status).toBe(401);
  });

  it('sign-in: a forged X-Forwarded-For does not give a fresh allowance', async () => {
    const rule = RATE_RULES.signInPerIp;
    for (let i = 0; i < limitOf(rule); i++) {
      const res = await signIn('127.0.0.4', uniqueEmail('forge'), 'wrong-pass', { 'x-forwarded-for': `10.0.0.${i + 1}` });
      expect(res.status).toBe(401);
    }
    expectLimited(await signIn('127.0.0.4', uniqueEmail('forge'), 'wrong-pass', { 'x-forwarded-for': '10.9.9.9' }), rule);
  });

  it('sign-in: one account is locked after its limit even from many addresses, right password included', async () => {
    const rule = RATE_RULES.signInPerAccount;
    const u = await createVerifiedUser(app);
    for (let i = 0; i < limitOf(rule); i++) {
      const res = await signIn(`127.0.1.${i + 1}`, i % 2 ? u.email.toUpperCase() : u.email);
      expect(res.status).toBe(401);
    }
    expectLimited(await signIn('127.0.1.100', u.email), rule);
    const right = await signIn('127.0.1.101', ` ${u.email.toUpperCase()} `, u.password);
    expectLimited(right, rule);
    expect(right.headers['set-cookie'] ?? []).toHaveLength(0);
    // Another account from a fresh address is not affected.
    expect((await signIn('127.0.1.102', uniqueEmail('other'))).status).toBe(401);
  });

  it('sign-up: an address gets 429 after its limit, and the refused sign-up creates nothing', async () => {
    const rule = RATE_RULES.signUpPerIp;
    for (let i = 0; i < limitOf(rule); i++) {
      const res = await post('127.0.0.20', '/api/account/sign-up', { fullName: 'Rate Limited', email: uniqueEmail('su'), password: 'secret12' });
      expect(res.status).toBe(201);
    }
    const email = uniqueEmail('su-refused');
    expectLimited(await post('127.0.0.20', '/api/account/sign-up', { fullName: 'Rate Limited', email, password: 'secret12' }), rule);
    expect(await app.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
    // The full registration shares the sign-up allowance.
    const regEmail = uniqueEmail('reg-refused');
    const form = new FormData();
    for (const [k, v] of Object.entries({
      firstName: 'Rate', lastName: 'Limited', email: regEmail, username: `rl_${Date.now().toString(36)}`,
      password: 'secret12', birthday: '2008-01-01', state: 'Texas', city: 'Austin', teamName: 'Team', event: 'other',
    })) form.set(k, v);
    const { body, contentType } = await encodeForm(form);
    const reg = await requestFrom('127.0.0.20', `${app.url}/api/account/register`, {
      method: 'POST',
      body,
      headers: { origin: app.origin, 'content-type': contentType },
    });
    expectLimited(reg, rule);
    expect(await app.db.select().from(user).where(eq(user.email, regEmail))).toHaveLength(0);
    await settle(300);
    expect(app.smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
  });

  it('password-reset requests: limited per address and per account', async () => {
    const ipRule = RATE_RULES.resetRequestPerIp;
    for (let i = 0; i < limitOf(ipRule); i++) {
      const res = await post('127.0.0.30', '/api/auth/request-password-reset', { email: uniqueEmail('rr'), redirectTo: '/reset-password' });
      expect(res.status).toBe(200);
    }
    expectLimited(
      await post('127.0.0.30', '/api/auth/request-password-reset', { email: uniqueEmail('rr'), redirectTo: '/reset-password' }),
      ipRule,
    );

    const accountRule = RATE_RULES.resetRequestPerAccount;
    const email = uniqueEmail('rr-account');
    for (let i = 0; i < limitOf(accountRule); i++) {
      const res = await post(`127.0.2.${i + 1}`, '/api/auth/request-password-reset', { email, redirectTo: '/reset-password' });
      expect(res.status).toBe(200);
    }
    expectLimited(
      await post('127.0.2.100', '/api/auth/request-password-reset', { email: email.toUpperCase(), redirectTo: '/reset-password' }),
      accountRule,
    );
  });

  it('contact: an address gets 429 after its limit, and the refused message is not stored or mailed', async () => {
    const rule = RATE_RULES.contactPerIp;
    const message = (email: string) => ({ firstName: 'Rate', lastName: 'Limited', email, subject: 'Hi', message: 'Hello there' });
    for (let i = 0; i < limitOf(rule); i++) {
      expect((await post('127.0.0.40', '/api/contact', message(uniqueEmail('c')))).status).toBe(201);
    }
    const email = uniqueEmail('c-refused');
    expectLimited(await post('127.0.0.40', '/api/contact', message(email)), rule);
    expect(await app.db.select().from(contactMessages).where(eq(contactMessages.email, email))).toHaveLength(0);
    await settle(300);
    expect(app.smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
    expect((await post('127.0.0.41', '/api/contact', message(uniqueEmail('c')))).status).toBe(201);
    expect(await app.db.select().from(rateLimitHits).where(like(rateLimitHits.key, 'contact:ip:%'))).toHaveLength(2);
  });
});
