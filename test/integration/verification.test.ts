// E-mail verification: the link in the sign-up mail signs the user in, is valid 24 hours, and
// cannot be forged; signing in before verifying sends a fresh link.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_LINK_TTL_SECONDS } from '../../src/common/constants';
import { AUTH_ERRORS } from '../../src/common/messages';
import { session, user } from '../../src/server/db/schema';
import { cookiesFrom, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jsonOf, settle } from '../support/http';
import { linkIn } from '../support/smtp';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
});
afterAll(async () => {
  await app?.close();
});

async function signUp(fullName = 'Casey Verify'): Promise<{ email: string; userId: string; link: URL }> {
  const email = uniqueEmail('verify');
  const res = await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName, email, password: 'secret12' } });
  expect(res.status).toBe(201);
  const { userId } = await jsonOf<{ userId: string }>(res);
  const link = new URL(linkIn(await app.smtp.waitFor(email, 'Confirm')));
  return { email, userId, link };
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
const isVerified = async (email: string) => (await app.db.select().from(user).where(eq(user.email, email)))[0]!.emailVerified;
const sessionsOf = (userId: string) => app.db.select().from(session).where(eq(session.userId, userId));
const me = async (cookie?: string) =>
  jsonOf<{ user: { id: string; email: string } | null }>(await app.fetch('/api/account/me', { cookie }));

describe('email verification', () => {
  it('the link verifies the address, signs the user in and redirects to /dashboard', async () => {
    const { email, userId, link } = await signUp();
    expect(await isVerified(email)).toBe(false);
    expect(link.searchParams.get('callbackURL')).toBe('/dashboard?verified=1');

    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(302);
    // The dashboard says "Email confirmed" once, from ?verified=1 (issue 7, rough edge 4).
    const landing = new URL(res.headers.get('location')!, app.origin);
    expect(landing.pathname).toBe('/dashboard');
    expect(landing.searchParams.get('verified')).toBe('1');
    const cookie = cookiesFrom(res);
    expect(cookie).toMatch(/session_token=/);

    expect(await isVerified(email)).toBe(true);
    expect((await me(cookie)).user).toMatchObject({ id: userId, email });
    // The dashboard's page guard lets the new session through.
    const dashboard = await app.fetch('/dashboard', { cookie });
    expect(dashboard.status).not.toBe(302);
  });

  it('the link expires 24 hours after it is sent', async () => {
    const { link } = await signUp();
    const token = link.searchParams.get('token')!;
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    const payload = b64json(parts[1]!) as { iat: number; exp: number };
    expect(payload.exp - payload.iat).toBe(86_400);
    expect(payload.exp - payload.iat).toBe(VERIFICATION_LINK_TTL_SECONDS);
    expect(Math.abs(payload.iat - Date.now() / 1000)).toBeLessThan(60);
  });

  it('a tampered token verifies nobody and signs nobody in', async () => {
    const victim = await signUp('Victim Person');
    const attacker = await signUp('Attacker Person');
    const [header, payload, signature] = attacker.link.searchParams.get('token')!.split('.') as [string, string, string];

    // 1) the attacker's signed token, re-pointed at the victim's address
    const claims = b64json(payload);
    claims.email = victim.email;
    const repointed = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    // 2) the victim's own token with a damaged signature
    const [vh, vp, vs] = victim.link.searchParams.get('token')!.split('.') as [string, string, string];
    const mid = Math.floor(vs.length / 2);
    const damaged = `${vh}.${vp}.${vs.slice(0, mid)}${vs[mid] === 'A' ? 'B' : 'A'}${vs.slice(mid + 1)}`;
    // 3) an unsigned token
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ ...b64json(vp) }),
    ).toString('base64url')}.`;

    for (const token of [repointed, damaged, unsigned, 'not-a-token']) {
      const link = new URL(victim.link);
      link.searchParams.set('token', token);
      const res = await fetch(link, { redirect: 'manual' });
      expect(res.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
      if (res.status === 302) expect(res.headers.get('location')).toMatch(/error=/);
      else expect(res.status).toBeGreaterThanOrEqual(400);
    }
    expect(await isVerified(victim.email)).toBe(false);
    expect(await isVerified(attacker.email)).toBe(false);
    expect(await sessionsOf(victim.userId)).toHaveLength(0);
  });

  it('a link whose callback was changed to another site neither redirects there nor verifies', async () => {
    const { email, userId, link } = await signUp();
    link.searchParams.set('callbackURL', 'https://evil.example/welcome');
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.headers.get('location') ?? '').not.toContain('evil.example');
    expect(res.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
    expect(await isVerified(email)).toBe(false);
    expect(await sessionsOf(userId)).toHaveLength(0);
  });

  it('an invalid link that lands on /dashboard is sent on to /auth with the error', async () => {
    const { link } = await signUp();
    link.searchParams.set('token', 'broken');
    const res = await fetch(link, { redirect: 'manual' });
    const location = res.headers.get('location');
    expect(res.status).toBe(302);
    const next = await app.fetch(new URL(location!, app.origin).pathname + new URL(location!, app.origin).search);
    expect(next.status).toBe(302);
    const target = new URL(next.headers.get('location')!, app.origin);
    expect(target.pathname).toBe('/auth');
    expect(target.searchParams.get('error')).toBeTruthy();
  });

  it('sign-in before verification is refused with the spec text and sends a new link that works', async () => {
    const { email, userId } = await signUp();
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'secret12' } });
    expect(res.status).toBe(403);
    expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.emailNotConfirmed);
    expect(cookiesFrom(res)).not.toMatch(/session_token=/);
    expect(await sessionsOf(userId)).toHaveLength(0);

    const deadline = Date.now() + 10_000;
    let mails = app.smtp.mails.filter((m) => m.to.includes(email));
    while (mails.length < 2 && Date.now() < deadline) {
      await settle(50);
      mails = app.smtp.mails.filter((m) => m.to.includes(email));
    }
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toContain('Confirm');

    const verify = await fetch(linkIn(mails[1]!), { redirect: 'manual' });
    expect(verify.status).toBe(302);
    const cookie = cookiesFrom(verify);
    expect((await me(cookie)).user).toMatchObject({ id: userId });

    // Once verified, the password signs in.
    const again = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'secret12' } });
    expect(again.status).toBe(200);
  });

  it('a wrong password on an unverified account sends no mail', async () => {
    const { email } = await signUp();
    const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'wrong-pass' } });
    expect(res.status).toBe(401);
    expect((await jsonOf(res)).message).toBe(AUTH_ERRORS.invalidCredentials);
    await settle(300);
    expect(app.smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});

describe('a confirmation link opened again (issue 22, item 6)', () => {
  /** An HS256 token signed with the test app's secret, as better-auth signs its links. */
  const signedToken = (claims: Record<string, unknown>) => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
    const signature = crypto.createHmac('sha256', 'test-secret-0123456789abcdef0123456789abcdef').update(unsigned).digest('base64url');
    return `${unsigned}.${signature}`;
  };

  it('without a session, sends the visitor to sign in, saying the address is already confirmed', async () => {
    const { email, userId, link } = await signUp();
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(302);
    const before = (await sessionsOf(userId)).length;

    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(302);
    const landing = new URL(again.headers.get('location')!, app.origin);
    expect(landing.pathname).toBe('/auth');
    expect(landing.searchParams.get('confirmed')).toBe('already');
    expect(landing.searchParams.get('email')).toBe(email);
    expect(landing.searchParams.has('error')).toBe(false);
    // Nobody is signed in by a second click: no cookie, no new session.
    expect(again.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
    expect(await sessionsOf(userId)).toHaveLength(before);
    expect(await isVerified(email)).toBe(true);
  });

  it('while signed in, goes to the dashboard, which says the address is already confirmed', async () => {
    const { userId, link } = await signUp();
    const first = await fetch(link, { redirect: 'manual' });
    const cookie = cookiesFrom(first);
    const before = (await sessionsOf(userId)).length;

    const again = await app.fetch(`${link.pathname}${link.search}`, { cookie });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('/dashboard?verified=already');
    expect(await sessionsOf(userId)).toHaveLength(before);
  });

  it('an expired or broken link still says the link expired, even for a confirmed address', async () => {
    const { email, link } = await signUp();
    await fetch(link, { redirect: 'manual' });
    const now = Math.floor(Date.now() / 1000);
    const expired = signedToken({ email, iat: now - 2 * 86_400, exp: now - 86_400 });
    for (const [token, code] of [
      [expired, 'TOKEN_EXPIRED'],
      ['broken', 'INVALID_TOKEN'],
    ] as const) {
      const url = new URL(link);
      url.searchParams.set('token', token);
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const landing = new URL(res.headers.get('location')!, app.origin);
      expect(landing.searchParams.get('error')).toBe(code);
      expect(landing.searchParams.has('confirmed')).toBe(false);
      expect(res.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]/);
    }
  });

  it('a link signed the same way but not expired confirms, so the expired one fails only for its age', async () => {
    const { email, userId } = await signUp();
    const now = Math.floor(Date.now() / 1000);
    const url = new URL('/api/auth/verify-email', app.origin);
    url.searchParams.set('token', signedToken({ email, iat: now, exp: now + 3600 }));
    url.searchParams.set('callbackURL', '/dashboard?verified=1');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/dashboard?verified=1');
    expect(cookiesFrom(res)).toMatch(/session_token=/);
    expect(await isVerified(email)).toBe(true);
    expect(await sessionsOf(userId)).toHaveLength(1);
  });
});
