// /api/auth/*: better-auth's handler, with our rate limits and input checks in front of it and
// its error texts replaced by the spec's, so every client shows the same words.
import { Hono, type Context } from 'hono';
import { AUTH_ERRORS } from '../../common/messages';
import { clientIp } from '../http/client-ip';
import type { AppDeps } from '../http/deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES, type RateRule } from '../http/rate-limit';
import { CLIENT_IP_HEADER } from './auth';

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
};

const isEmail = (v: unknown): v is string => typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

type JsonBody = Record<string, unknown>;

/** What each guarded endpoint checks before better-auth sees it. */
interface Guard {
  validate(body: JsonBody): string | null;
  limits(ip: string, body: JsonBody): Array<[RateRule, string | null]>;
}

const emailOf = (body: JsonBody) => (typeof body.email === 'string' ? body.email.trim().toLowerCase() : null);

const GUARDS: Record<string, Guard> = {
  '/sign-in/email': {
    validate(body) {
      if (!body.email || !body.password) return AUTH_ERRORS.missingCredentials;
      if (!isEmail(body.email)) return AUTH_ERRORS.invalidEmail;
      return null;
    },
    limits: (ip, body) => [
      [RATE_RULES.signInPerIp, ip],
      [RATE_RULES.signInPerAccount, emailOf(body)],
    ],
  },
  '/request-password-reset': {
    validate(body) {
      if (!body.email) return AUTH_ERRORS.missingEmail;
      if (!isEmail(body.email)) return AUTH_ERRORS.invalidEmail;
      return null;
    },
    limits: (ip, body) => [
      [RATE_RULES.resetRequestPerIp, ip],
      [RATE_RULES.resetRequestPerAccount, emailOf(body)],
    ],
  },
  '/reset-password': {
    validate(body) {
      if (typeof body.newPassword !== 'string' || body.newPassword.length < 6) return AUTH_ERRORS.passwordTooShort;
      return null;
    },
    limits: (ip) => [[RATE_RULES.resetPasswordPerIp, ip]],
  },
  '/send-verification-email': {
    validate(body) {
      if (!body.email) return AUTH_ERRORS.missingEmail;
      return null;
    },
    limits: (ip, body) => [
      [RATE_RULES.verificationPerIp, ip],
      [RATE_RULES.resetRequestPerAccount, emailOf(body)],
    ],
  },
};

export function authRoutes(deps: AppDeps) {
  const { auth, limiter, config } = deps;

  const forward = async (c: Context, body?: JsonBody) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, clientIp(c, config.trustProxy));
    const request = new Request(c.req.raw.url, {
      method: c.req.method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    return withSpecTexts(await auth.handler(request));
  };

  return new Hono().on(['GET', 'POST'], '/*', async (c) => {
    const path = c.req.path.replace(/^\/api\/auth/, '').replace(/\/+/g, '/');
    if (c.req.method === 'GET') return forward(c);
    const body = ((await c.req.json().catch(() => ({}))) ?? {}) as JsonBody;
    // Sign-up trims the address; sign-in and reset must accept what sign-up accepted.
    if (typeof body.email === 'string') body.email = body.email.trim();
    const guard = GUARDS[path];
    if (guard) {
      const problem = guard.validate(body);
      if (problem) return apiError(c, 400, 'VALIDATION_ERROR', problem);
      const limit = await limiter.check(guard.limits(clientIp(c, config.trustProxy), body));
      if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    }
    return forward(c, body);
  });
}

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
