// /api/auth/*: the few better-auth endpoints the product uses, each behind our input checks and
// rate limits, with better-auth's error texts replaced by the spec's. Every other better-auth
// endpoint (update-user, change-password, delete-user, …) answers 404: the product changes a
// profile through /api/profile, where the spec's rules are checked.
import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../common/constants';
import { AUTH_ERRORS, AUTH_REQUIRED, SECOND_FACTOR } from '../../common/messages';
import { emailSchema } from '../../common/schemas';
import { clientIp } from '../http/client-ip';
import type { AppDeps } from '../deps';
import { user } from '../db/schema';
import { secondFactorEnrolledMail } from '../mail/templates';
import { apiError, tooManyRequests } from '../http/errors';
import { accountAtAddress, RATE_RULES } from '../http/rate-limit';
import { CLIENT_IP_HEADER, trustedOrigins } from './auth';
import { isKnownDevice, knownDeviceCookie } from './known-device';
import { getViewer } from './session';
import { athleteCookie, holderOf } from '../family/members';
import { notifyOwnerOfFailedSignIns } from './sign-in-alerts';
import { claimTotpCode, releaseTotpCode } from './two-factor';

/** better-auth error codes mapped to the spec's texts. */
const SPEC_TEXT_BY_CODE: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: AUTH_ERRORS.invalidCredentials,
  EMAIL_NOT_VERIFIED: AUTH_ERRORS.emailNotConfirmed,
  USER_ALREADY_EXISTS: AUTH_ERRORS.alreadyRegistered,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: AUTH_ERRORS.alreadyRegistered,
  PASSWORD_TOO_SHORT: AUTH_ERRORS.passwordTooShort,
  INVALID_EMAIL: AUTH_ERRORS.invalidEmail,
  INVALID_TOKEN: AUTH_ERRORS.invalidResetLink,
  TOKEN_EXPIRED: AUTH_ERRORS.invalidResetLink,
  INVALID_REDIRECT_URL: AUTH_ERRORS.requestRejected,
  INVALID_CALLBACK_URL: AUTH_ERRORS.requestRejected,
  // The admins' second factor (two-factor.ts).
  INVALID_PASSWORD: SECOND_FACTOR.wrongPassword,
  INVALID_CODE: SECOND_FACTOR.invalidCode,
  INVALID_BACKUP_CODE: SECOND_FACTOR.invalidRecoveryCode,
  INVALID_TWO_FACTOR_COOKIE: SECOND_FACTOR.expired,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: SECOND_FACTOR.expired,
  ACCOUNT_TEMPORARILY_LOCKED: SECOND_FACTOR.locked,
  TOTP_ALREADY_ENABLED: SECOND_FACTOR.alreadyEnrolled,
  TOTP_NOT_ENABLED: SECOND_FACTOR.expired,
  BACKUP_CODES_NOT_ENABLED: SECOND_FACTOR.expired,
};

/** The endpoints the product calls, by method and path under /api/auth. Nothing else is served. */
const ALLOWED = new Set([
  'POST /sign-in/email',
  'POST /sign-out',
  'POST /request-password-reset',
  'POST /reset-password',
  'POST /send-verification-email',
  'GET /get-session',
  'GET /verify-email',
  'GET /reset-password/:token',
  // "View as User" and "Exit Admin View" (impersonation.ts checks who may).
  'POST /impersonation/start',
  'POST /impersonation/stop',
  // An admin's second factor: enrolment (admins only) and the code at sign-in (two-factor.ts).
  'POST /two-factor/enable',
  'POST /two-factor/verify-totp',
  'POST /two-factor/verify-backup-code',
]);

function endpointOf(method: string, path: string): string | null {
  const name = /^\/reset-password\/[\w-]+$/.test(path) ? '/reset-password/:token' : path;
  const key = `${method} ${name}`;
  return ALLOWED.has(key) ? key : null;
}

type JsonBody = Record<string, unknown>;

const emailOf = (body: JsonBody): string | null => {
  const parsed = emailSchema.safeParse(body.email);
  return parsed.success ? parsed.data : null;
};

/** The checks of each endpoint that takes a body: the spec's text for the first problem, or null. */
const VALIDATORS: Record<string, (body: JsonBody) => string | null> = {
  'POST /sign-in/email': (body) => {
    if (!body.email || !body.password) return AUTH_ERRORS.missingCredentials;
    if (!emailOf(body)) return AUTH_ERRORS.invalidEmail;
    if (typeof body.password !== 'string' || body.password.length > MAX_PASSWORD_LENGTH) return AUTH_ERRORS.invalidCredentials;
    return null;
  },
  'POST /request-password-reset': (body) => {
    if (!body.email) return AUTH_ERRORS.missingEmail;
    return emailOf(body) ? null : AUTH_ERRORS.invalidEmail;
  },
  'POST /reset-password': (body) =>
    z.object({ token: z.string().min(1).max(200), newPassword: z.string().min(6).max(MAX_PASSWORD_LENGTH) }).safeParse(body).success
      ? null
      : AUTH_ERRORS.passwordTooShort,
  'POST /send-verification-email': (body) => {
    if (!body.email) return AUTH_ERRORS.missingEmail;
    return emailOf(body) ? null : AUTH_ERRORS.invalidEmail;
  },
  'POST /two-factor/enable': (body) =>
    typeof body.password === 'string' && body.password.length > 0 && body.password.length <= MAX_PASSWORD_LENGTH ? null : SECOND_FACTOR.wrongPassword,
  'POST /two-factor/verify-totp': (body) => (typeof body.code === 'string' && TOTP_CODE.test(body.code.trim()) ? null : SECOND_FACTOR.codeFormat),
  'POST /two-factor/verify-backup-code': (body) =>
    typeof body.code === 'string' && RECOVERY_CODE.test(body.code.trim()) ? null : SECOND_FACTOR.recoveryFormat,
};

const TOTP_CODE = /^\d{6}$/;
/** The plugin's recovery codes: ten letters and digits shown as abcde-12345 (the dash may be left out). */
const RECOVERY_CODE = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;
const recoveryCodeOf = (code: string) => code.trim().replace(/^(.{5})-?(.{5})$/, '$1-$2');

/** A redirect target that stays on this site: a path of ours, or an absolute URL of a trusted origin. */
function isSameSite(target: unknown, origins: string[]): boolean {
  if (target === undefined) return true;
  if (typeof target !== 'string' || target.length > 500) return false;
  if (/^\/(?![/\\])/.test(target)) return true;
  try {
    return origins.includes(new URL(target).origin);
  } catch {
    return false;
  }
}

export function authRoutes(deps: AppDeps) {
  const { auth, db, limiter, config } = deps;
  const origins = trustedOrigins(config);
  const secureCookies = config.baseUrl.startsWith('https://');

  /** Hands the request to better-auth at its canonical path, with the caller's address and our body. */
  const forward = async (c: Context, path: string, body?: JsonBody) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, clientIp(c, config.trustProxy));
    headers.delete('content-length');
    if (body) headers.set('content-type', 'application/json');
    const url = new URL(c.req.raw.url);
    url.pathname = `/api/auth${path}`;
    const request = new Request(url, { method: c.req.method, headers, body: body ? JSON.stringify(body) : undefined });
    return withSpecTexts(await auth.handler(request));
  };

  const signIn = async (c: Context, body: JsonBody) => {
    const email = emailOf(body)!;
    body.email = email;
    const ip = clientIp(c, config.trustProxy);
    const cookie = c.req.header('cookie');
    const pair = accountAtAddress(email, ip);
    const limit = await limiter.check([
      [RATE_RULES.signInPerIp, ip],
      [RATE_RULES.signInPerAccountAddress, pair],
      [RATE_RULES.signInPerAccount, isKnownDevice(config.authSecret, cookie, email) ? null : email],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    const res = await forward(c, '/sign-in/email', body);
    if (res.status === 200) {
      await limiter.reset(RATE_RULES.signInPerAccountAddress, pair);
      // An account with a second factor: the browser becomes known only once its code is right.
      const pending = ((await res.clone().json().catch(() => null)) as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect;
      if (pending) return res;
      const headers = new Headers(res.headers);
      headers.append('Set-Cookie', knownDeviceCookie(config.authSecret, cookie, email, secureCookies));
      return new Response(res.body, { status: res.status, headers });
    }
    if (res.status === 401) {
      const failures = await limiter.hit(RATE_RULES.signInFailuresPerAccount, email);
      if (failures.count === limiter.limitOf(RATE_RULES.signInFailuresPerAccount)) await notifyOwnerOfFailedSignIns(deps, email);
    }
    return res;
  };

  /**
   * Answers at once, the same for every address, and asks better-auth for the reset only
   * afterwards: the mail goes through the stored outbox, so whether the account exists shows
   * neither in the answer nor in its timing.
   */
  const requestReset = async (c: Context, body: JsonBody) => {
    const email = emailOf(body)!;
    const ip = clientIp(c, config.trustProxy);
    if (!isSameSite(body.redirectTo, origins)) return apiError(c, 403, 'INVALID_REDIRECT_URL', AUTH_ERRORS.requestRejected);
    // Limits an attacker cannot spend for the owner (issue 21, finding 6): per address, per account
    // at that address, and an account-wide ceiling that the owner's known browser passes.
    const known = isKnownDevice(config.authSecret, c.req.header('cookie'), email);
    const limit = await limiter.check([
      [RATE_RULES.resetRequestPerIp, ip],
      [RATE_RULES.resetRequestPerAccountAddress, accountAtAddress(email, ip)],
      [RATE_RULES.resetRequestPerAccount, known ? null : email],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    const headers = new Headers({ [CLIENT_IP_HEADER]: ip });
    setImmediate(() => {
      // Past the account's mail cap the answer stays the same and no mail goes out.
      (known ? Promise.resolve({ allowed: true }) : limiter.check([[RATE_RULES.resetMailPerAccount, email], [RATE_RULES.unaskedMailPerRecipient, email]]))
        .then((mail) => {
          if (!mail.allowed) return;
          return auth.api.requestPasswordReset({ body: { email, redirectTo: body.redirectTo as string | undefined }, headers });
        })
        .catch((error: Error) => console.error('[auth] password reset request failed:', error.message));
    });
    return c.json({ status: true, message: 'If this email exists in our system, check your email for the reset link' });
  };

  /**
   * Starts enrolment: only an active admin's own session that has not enrolled yet, after its
   * password (better-auth checks it; limited like guessing one). Answers the authenticator's
   * otpauth URI and the recovery codes; the factor is on only once a code from the app is given.
   */
  const enrol = async (c: Context, body: JsonBody) => {
    const viewer = await getViewer(auth, deps.db, c.req.raw.headers);
    if (!viewer) return apiError(c, 401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
    if (viewer.isAdmin || viewer.adminSecondFactor === 'verify') return apiError(c, 400, 'TOTP_ALREADY_ENABLED', SECOND_FACTOR.alreadyEnrolled);
    if (viewer.adminSecondFactor !== 'enrol') return apiError(c, 403, 'NOT_ADMIN', SECOND_FACTOR.notAdmin);
    const limit = await limiter.check([
      [RATE_RULES.twoFactorEnrolPerUser, viewer.userId],
      [RATE_RULES.signInPerIp, clientIp(c, config.trustProxy)],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    return forward(c, '/two-factor/enable', { password: body.password, method: 'totp' });
  };

  /**
   * A code, at sign-in (the plugin's challenge cookie) or in a signed-in session (confirming
   * enrolment, or an admin's older session passing the factor): limited per address, per
   * account at the address and per account, like passwords (a browser is "known" to the account
   * only after a right code, not after the password); an authenticator code works once.
   * The answer carries no session token (the cookie does).
   */
  const verifyCode = async (c: Context, path: string, kind: 'totp' | 'recovery', rawCode: string) => {
    const code = kind === 'totp' ? rawCode.trim() : recoveryCodeOf(rawCode);
    const subject = await auth.api.secondFactorSubject({ headers: c.req.raw.headers });
    if (!subject) return apiError(c, 401, 'INVALID_TWO_FACTOR_COOKIE', SECOND_FACTOR.expired);
    const ip = clientIp(c, config.trustProxy);
    const pair = accountAtAddress(subject.userId, ip);
    const limit = await limiter.check([
      [RATE_RULES.twoFactorPerIp, ip],
      [RATE_RULES.twoFactorPerAccountAddress, pair],
      [RATE_RULES.twoFactorPerAccount, isKnownDevice(config.authSecret, c.req.header('cookie'), subject.email) ? null : subject.userId],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    if (kind === 'totp' && !(await claimTotpCode(deps.db, subject.userId, code))) {
      return apiError(c, 401, 'CODE_ALREADY_USED', SECOND_FACTOR.codeUsed);
    }
    // Confirming an enrolment (the factor not on yet): the admin is told by mail once it is.
    const [before] = await deps.db.select({ enabled: user.twoFactorEnabled }).from(user).where(eq(user.id, subject.userId));
    const res = await forward(c, path, { code });
    if (res.status !== 200) {
      if (kind === 'totp') await releaseTotpCode(deps.db, subject.userId, code);
      return res;
    }
    if (before && !before.enabled) await deps.mailer.send(secondFactorEnrolledMail(subject.email));
    await limiter.reset(RATE_RULES.twoFactorPerAccountAddress, pair);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.set('content-type', 'application/json');
    headers.append('Set-Cookie', knownDeviceCookie(config.authSecret, c.req.header('cookie'), subject.email, secureCookies));
    return new Response(JSON.stringify({ status: true }), { status: 200, headers });
  };

  /**
   * The confirmation link. better-auth answers a valid link for an address that is already
   * confirmed (a second click, an old mail) with a bare redirect to the callback: no error and no
   * new session. Such a visitor is told so instead of being dropped on the sign-in page unexplained.
   */
  const verifyEmail = async (c: Context, path: string) => {
    const res = await forward(c, path);
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) return res;
    const failed = new URL(location, config.baseUrl).searchParams.has('error');
    const signedIn = res.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie));
    if (failed || signedIn) return res;
    if (await getViewer(auth, deps.db, c.req.raw.headers)) return c.redirect(ALREADY_CONFIRMED_SIGNED_IN, 302);
    const email = emailInToken(c.req.query('token'));
    return c.redirect(`/auth?confirmed=already${email ? `&email=${encodeURIComponent(email)}` : ''}`, 302);
  };

  return new Hono().on(['GET', 'POST'], '/*', async (c) => {
    const path = c.req.path.replace(/^\/api\/auth/, '').replace(/\/{2,}/g, '/');
    const endpoint = endpointOf(c.req.method, path);
    if (!endpoint) return apiError(c, 404, 'NOT_FOUND', 'Not found');
    if (endpoint === 'GET /verify-email') return verifyEmail(c, path);
    if (c.req.method === 'GET') return forward(c, path);

    const raw: unknown = await c.req.json().catch(() => ({}));
    const body: JsonBody = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as JsonBody) : {};
    const problem = VALIDATORS[endpoint]?.(body);
    if (problem) return apiError(c, 400, 'VALIDATION_ERROR', problem);
    const ip = clientIp(c, config.trustProxy);

    switch (endpoint) {
      case 'POST /sign-in/email':
        return signIn(c, body);
      case 'POST /request-password-reset':
        return requestReset(c, body);
      case 'POST /reset-password': {
        const limit = await limiter.check([[RATE_RULES.resetPasswordPerIp, ip]]);
        if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
        return forward(c, path, { token: body.token, newPassword: body.newPassword });
      }
      case 'POST /send-verification-email': {
        const email = emailOf(body)!;
        if (!isSameSite(body.callbackURL, origins)) return apiError(c, 403, 'INVALID_CALLBACK_URL', AUTH_ERRORS.requestRejected);
        // The same rules as reset requests, counted apart from them (issue 21, finding 6).
        const known = isKnownDevice(config.authSecret, c.req.header('cookie'), email);
        const limit = await limiter.check([
          [RATE_RULES.verificationPerIp, ip],
          [RATE_RULES.verificationPerAccountAddress, accountAtAddress(email, ip)],
          [RATE_RULES.verificationPerAccount, known ? null : email],
        ]);
        if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
        const mail = known ? { allowed: true } : await limiter.check([[RATE_RULES.verificationMailPerAccount, email], [RATE_RULES.unaskedMailPerRecipient, email]]);
        if (!mail.allowed) return verificationNotSent(c);
        return forward(c, path, { email, callbackURL: body.callbackURL });
      }
      case 'POST /two-factor/enable':
        return enrol(c, body);
      case 'POST /two-factor/verify-totp':
        return verifyCode(c, path, 'totp', body.code as string);
      case 'POST /two-factor/verify-backup-code':
        return verifyCode(c, path, 'recovery', body.code as string);
      case 'POST /impersonation/start': {
        // An athlete a family added is viewed as its family: the holder's session, on that athlete.
        const athleteId = typeof body.userId === 'string' ? body.userId : '';
        const res = await forward(c, path, { userId: athleteId ? await holderOf(db, athleteId) : '' });
        if (res.status !== 200) return res;
        const headers = new Headers(res.headers);
        headers.append('Set-Cookie', athleteCookie(athleteId, secureCookies));
        return new Response(res.body, { status: res.status, headers });
      }
      default: // sign-out, impersonation/stop: nothing in the body is read
        return forward(c, path, {});
    }
  });
}

/** Where a signed-in visitor with an already-used confirmation link goes: the dashboard says so. */
const ALREADY_CONFIRMED_SIGNED_IN = '/dashboard?verified=already';

/**
 * The address in a confirmation token, to fill in the sign-in form. Read only after better-auth
 * has checked the token's signature, so it is the address the link was sent to.
 */
function emailInToken(token: string | undefined): string | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const parsed = emailSchema.safeParse((JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown }).email);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A confirmation resend past the account's mail cap: better-auth's own answer for an address it
 * sends nothing to ({status: true}, after its 500 ms floor), without a mail.
 */
async function verificationNotSent(c: Context): Promise<Response> {
  await new Promise((resolve) => setTimeout(resolve, VERIFICATION_ANSWER_FLOOR_MS));
  return c.json({ status: true });
}
const VERIFICATION_ANSWER_FLOOR_MS = 500;

/** Rewrites a better-auth JSON error so its message is the spec's text for that code. */
async function withSpecTexts(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get('content-type')?.includes('application/json')) return response;
  const body = (await response.clone().json().catch(() => null)) as { code?: string; message?: string } | null;
  const text = body?.code ? SPEC_TEXT_BY_CODE[body.code] : undefined;
  if (!body || !text) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...body, message: text }), { status: response.status, headers });
}
