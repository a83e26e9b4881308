// Rate limits (src/server/http/rate-limit.ts): sign-in per address and per account, sign-up,
// password-reset requests and the contact form. Each test plays its own clients by connecting
// from its own loopback addresses; the server trusts no proxy header here (TRUST_PROXY unset).
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS, rateLimitedText } from '../../src/common/messages';
import { contactMessages, rateLimitHits, user } from '../../src/server/db/schema';
import { RATE_RULES, type RateRule } from '../../src/server/http/rate-limit';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { linkIn } from '../support/smtp';
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
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(rule.windowSeconds);
  // The text tells the real wait (issue 7: "say the real wait, from the server").
  expect(res.json()).toEqual({ code: 'RATE_LIMITED', message: rateLimitedText(Number(retryAfter)), retryAfterSeconds: Number(retryAfter) });
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

  it('sign-in: a spread-out attack on one account meets the account ceiling, and the owner still gets in', async () => {
    // Issue 6, threat 6: guessing one account from many addresses.
    const rule = RATE_RULES.signInPerAccount;
    const u = await createVerifiedUser(app);
    // The owner signed in once from their own browser, which now remembers the account.
    const before = await signIn('127.0.1.200', u.email, u.password);
    expect(before.status).toBe(200);
    const knownDevice = (before.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('giot_known='));
    expect(knownDevice).toBeTruthy();
    // The owner's sign-in counted as one attempt on the account; the attack uses up the rest.
    for (let i = 0; i < limitOf(rule) - 1; i++) {
      const res = await signIn(`127.0.1.${i + 1}`, i % 2 ? u.email.toUpperCase() : u.email);
      expect(res.status).toBe(401);
    }
    expectLimited(await signIn('127.0.1.100', u.email), rule);
    // The right password from a browser that never signed in to this account is held back too...
    const right = await signIn('127.0.1.101', ` ${u.email.toUpperCase()} `, u.password);
    expectLimited(right, rule);
    expect(right.headers['set-cookie'] ?? []).toHaveLength(0);
    // ...but the owner's own browser, which signed in before, is not.
    expect((await signIn('127.0.1.102', u.email, u.password, { cookie: knownDevice! })).status).toBe(200);
    // Another account from a fresh address is not affected.
    expect((await signIn('127.0.1.103', uniqueEmail('other'))).status).toBe(401);
  });

  it('sign-in: guessing from one address blocks that address only; the owner elsewhere gets in and is told (threat 6)', async () => {
    const pairRule = RATE_RULES.signInPerAccountAddress;
    const u = await createVerifiedUser(app);
    for (let i = 0; i < limitOf(pairRule); i++) expect((await signIn('127.0.3.1', u.email)).status).toBe(401);
    expectLimited(await signIn('127.0.3.1', u.email), pairRule);
    // Even the right password from the attacker's address waits out the window.
    expectLimited(await signIn('127.0.3.1', u.email, u.password), pairRule);
    // The owner, from an address with no failures, signs in.
    const owner = await signIn('127.0.3.2', u.email, u.password);
    expect(owner.status).toBe(200);
    // The owner was told about the failed attempts, once.
    const alert = await app.smtp.waitFor(u.email, 'Failed sign-in attempts');
    expect(alert.text).toContain('/auth?email=');
    await settle(300);
    expect(app.smtp.mails.filter((m) => m.to.includes(u.email) && m.subject.includes('Failed sign-in'))).toHaveLength(1);
    // A success clears that address's count: the owner's own typos later start from zero.
    const ownerKey = `${pairRule.name}:${u.email}|127.0.3.2`;
    expect(await app.db.select().from(rateLimitHits).where(eq(rateLimitHits.key, ownerKey))).toHaveLength(0);
  });

  it('sign-in: no alert mail is sent for an address that has no account', async () => {
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < limitOf(RATE_RULES.signInFailuresPerAccount) + 1; i++) await signIn(`127.0.4.${i + 1}`, ghost);
    await settle(300);
    expect(app.smtp.mails.filter((m) => m.to.includes(ghost))).toHaveLength(0);
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

describe('client address behind proxies (threat 1)', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await startTestApp({ rateLimitScale: SCALE, trustProxy: 1 });
  });
  afterAll(async () => {
    await proxied?.close();
  });
  const signInVia = (forwardedFor: string, email = uniqueEmail('px'), trusted = proxied) =>
    requestFrom('127.0.0.1', `${trusted.url}/api/auth/sign-in/email`, {
      method: 'POST',
      json: { email, password: 'wrong-pass' },
      headers: { origin: trusted.origin, 'x-forwarded-for': forwardedFor },
    });

  it('with TRUST_PROXY=1 the address our proxy appended counts, not what the client wrote before it', async () => {
    const rule = RATE_RULES.signInPerIp;
    // The client forges a new left-hand entry each time; our proxy appends the real 198.51.100.7.
    for (let i = 0; i < limitOf(rule); i++) expect((await signInVia(`10.0.0.${i + 1}, 198.51.100.7`)).status).toBe(401);
    expectLimited(await signInVia('10.0.0.99, 198.51.100.7'), rule);
    expectLimited(await signInVia('198.51.100.7'), rule);
    // Another real client behind the same proxy is not affected.
    expect((await signInVia('10.0.0.1, 198.51.100.8')).status).toBe(401);
    const keys = (await proxied.db.select().from(rateLimitHits)).map((r) => r.key).filter((k) => k.startsWith('sign-in:ip:'));
    expect(keys.sort()).toEqual(['sign-in:ip:198.51.100.7', 'sign-in:ip:198.51.100.8']);
  });

  it('sign-ups with forged left-hand entries are limited too', async () => {
    const rule = RATE_RULES.signUpPerIp;
    const signUp = (forwardedFor: string) =>
      requestFrom('127.0.0.1', `${proxied.url}/api/account/sign-up`, {
        method: 'POST',
        json: { fullName: 'Proxy Person', email: uniqueEmail('pxsu'), password: 'secret12' },
        headers: { origin: proxied.origin, 'x-forwarded-for': forwardedFor },
      });
    for (let i = 0; i < limitOf(rule); i++) expect((await signUp(`10.1.0.${i + 1}, 203.0.113.9`)).status).toBe(201);
    expectLimited(await signUp('10.1.0.200, 203.0.113.9'), rule);
  });

  it('with TRUST_PROXY=2 the entry two hops from the right counts', async () => {
    const twoHops = await startTestApp({ rateLimitScale: SCALE, trustProxy: 2 });
    try {
      const rule = RATE_RULES.signInPerIp;
      // client-written, real client (added by the outer proxy), outer proxy (added by the inner one)
      for (let i = 0; i < limitOf(rule); i++) {
        expect((await signInVia(`10.2.0.${i + 1}, 192.0.2.44, 172.16.0.1`, uniqueEmail('px2'), twoHops)).status).toBe(401);
      }
      expectLimited(await signInVia('10.2.0.99, 192.0.2.44, 172.16.0.1', uniqueEmail('px2'), twoHops), rule);
      expect((await signInVia('192.0.2.45, 172.16.0.1', uniqueEmail('px2'), twoHops)).status).toBe(401);
    } finally {
      await twoHops.close();
    }
  });
});

describe('reset and confirmation limits an attacker cannot spend for the owner (issue 21, finding 6)', () => {
  // At the real limits: the owner's allowance must survive what others do.
  let real: TestApp;
  beforeAll(async () => {
    real = await startTestApp({ rateLimitScale: 1, mailRetryDelaySeconds: 1 });
  });
  afterAll(async () => {
    await real?.close();
  });
  const from = (ip: string, pathname: string, json: unknown, cookie?: string) =>
    requestFrom(ip, `${real.url}${pathname}`, { method: 'POST', json, headers: { origin: real.origin, ...(cookie ? { cookie } : {}) } });
  const askReset = (ip: string, email: string, cookie?: string) =>
    from(ip, '/api/auth/request-password-reset', { email, redirectTo: '/reset-password' }, cookie);
  const resend = (ip: string, email: string, cookie?: string) =>
    from(ip, '/api/auth/send-verification-email', { email, callbackURL: '/dashboard' }, cookie);
  const mailsTo = (email: string, subject: string) => real.smtp.mails.filter((m) => m.to.includes(email) && m.subject.includes(subject));
  /** Waits until `count` mails arrived, then a little longer to see that no more follow. */
  async function expectMails(email: string, subject: string, count: number) {
    await expect.poll(() => mailsTo(email, subject).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
    await settle(1500);
    expect(mailsTo(email, subject)).toHaveLength(count);
  }

  it('password reset: asking from elsewhere does not block the owner’s known browser, and mails to the address are capped (3 a day not asked for from it)', async () => {
    const pair = RATE_RULES.resetRequestPerAccountAddress;
    const account = RATE_RULES.resetRequestPerAccount;
    const cap = RATE_RULES.resetMailPerAccount;
    // Mails the owner did not ask for from a known browser: at most 3 a day (issue 33, finding 4).
    const daily = RATE_RULES.unaskedMailPerRecipient;
    expect(daily.limit).toBe(3);
    expect(pair.limit).toBeLessThan(cap.limit);
    expect(cap.limit).toBeLessThan(account.limit);
    const u = await createVerifiedUser(real);
    // The owner's own browser has signed in to the account before.
    const signedIn = await from('127.0.6.200', '/api/auth/sign-in/email', { email: u.email, password: u.password });
    expect(signedIn.status).toBe(200);
    const knownDevice = (signedIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('giot_known='))!;
    expect(knownDevice).toBeTruthy();

    // Someone asks for the family's reset from one address until that address is refused...
    const answers: string[] = [];
    for (let i = 0; i < pair.limit; i++) {
      const res = await askReset('127.0.6.1', u.email);
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    expectLimited(await askReset('127.0.6.1', u.email.toUpperCase()), pair);
    // ...and the owner, from a browser that never signed in, still asks; past the day's cap of
    // mails nobody asked for from a known browser, none goes out (the answer is the same).
    const owner = await askReset('127.0.6.2', u.email);
    expect(owner.status).toBe(200);
    await expectMails(u.email, 'Reset', daily.limit);

    // Spread over many addresses, the requests meet the mail cap: answered the same, nothing sent.
    for (let i = 0; i < account.limit - pair.limit - 1; i++) {
      const res = await askReset(`127.0.7.${i + 1}`, u.email);
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers).size).toBe(1);
    expect((await askReset('127.0.8.1', uniqueEmail('nobody'))).body).toBe(answers[0]);
    await expectMails(u.email, 'Reset', daily.limit);
    // The account-wide ceiling holds a new browser back...
    expectLimited(await askReset('127.0.7.200', u.email), account);
    // ...but the owner's own browser still asks, and its mail is sent: a link that works.
    expect((await askReset('127.0.6.200', u.email, knownDevice)).status).toBe(200);
    await expectMails(u.email, 'Reset', daily.limit + 1);
    const follow = await fetch(linkIn(mailsTo(u.email, 'Reset').at(-1)!), { redirect: 'manual' });
    expect(new URL(follow.headers.get('location')!, real.origin).searchParams.get('token')).toBeTruthy();
  });

  it('resending the confirmation: one address cannot block the owner, and mails to the address are capped, resets and resends together', async () => {
    const pair = RATE_RULES.verificationPerAccountAddress;
    const daily = RATE_RULES.unaskedMailPerRecipient;
    const email = uniqueEmail('unconfirmed');
    expect((await from('127.0.9.100', '/api/account/sign-up', { fullName: 'Not Yet', email, password: 'secret12' })).status).toBe(201);
    await real.smtp.waitFor(email, 'Confirm');
    // Resends from one address until it is refused: each sends a new link, up to the day's cap.
    for (let i = 0; i < pair.limit; i++) expect((await resend('127.0.9.2', email)).status).toBe(200);
    expectLimited(await resend('127.0.9.2', email), pair);
    await expectMails(email, 'Confirm', 1 + Math.min(pair.limit, daily.limit));
    // The owner elsewhere is answered the same; past the cap no more mail reaches the address.
    const owner = await resend('127.0.9.3', email);
    expect(owner.status).toBe(200);
    expect(owner.json()).toEqual({ status: true });
    // Reset requests share the day's cap: the address gets no reset mail either.
    for (let i = 0; i < RATE_RULES.resetRequestPerAccountAddress.limit; i++) expect((await askReset('127.0.9.1', email)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await resend(`127.0.9.${10 + i}`, email);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: true });
    }
    await expectMails(email, 'Confirm', 1 + daily.limit);
    await expectMails(email, 'Reset', 0);
  });
});
