// /api/account: sign-up (simple and full), the homepage sign-up, and who is signed in.
import { Hono, type Context } from 'hono';
import { eq } from 'drizzle-orm';
import { HEADSHOT_MAX_BYTES } from '../../common/constants';
import { CLOSE_ACCOUNT, FILE_TOO_LARGE_10MB } from '../../common/dashboard-messages';
import { AUTH_ERRORS, AUTH_REQUIRED, FIELD_ERRORS } from '../../common/messages';
import { firstIssue, homepageSignupSchema, registrationSchema, simpleSignUpSchema } from '../../common/schemas';
import { CLIENT_IP_HEADER } from '../auth/auth';
import { getViewer } from '../auth/session';
import { user, userProfiles } from '../db/schema';
import { isRegistrationEvent, listRegistrationEvents } from '../events/queries';
import { clientIp } from '../http/client-ip';
import type { AppDeps } from '../deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES } from '../http/rate-limit';
import { uploadLimit } from '../http/uploads';
import { eraseAccount } from './erasure';
import { refuseUnconfirmedErasure } from './erasure-consent';
import { AccountError, register, saveHomepageSignup, signUpSimple } from './service';

export function accountRoutes(deps: AppDeps) {
  const { db, auth, limiter, config } = deps;

  /** Headers for better-auth calls made on the caller's behalf: their address, nothing forged. */
  const forwardHeaders = (raw: Headers, ip: string) => {
    const headers = new Headers(raw);
    headers.set(CLIENT_IP_HEADER, ip);
    return headers;
  };

  const handleAccountError = (c: Context, error: unknown) => {
    if (error instanceof AccountError) return apiError(c, 409, error.code, error.message, error.title);
    console.error('[accounts] sign-up failed:', error);
    return apiError(c, 500, 'SIGNUP_FAILED', AUTH_ERRORS.generic);
  };

  return new Hono()
    .get('/me', async (c) => {
      const viewer = await getViewer(auth, db, c.req.raw.headers);
      c.header('Cache-Control', 'no-store');
      if (!viewer) return c.json({ user: null }, 200);
      const [profile] = await db
        .select({
          firstName: userProfiles.firstName,
          lastName: userProfiles.lastName,
          username: userProfiles.username,
          teamName: userProfiles.teamName,
          jerseyNumber: userProfiles.jerseyNumber,
          phone: userProfiles.phone,
          city: userProfiles.city,
          state: userProfiles.state,
          hasAvatar: userProfiles.avatarUrl,
        })
        .from(userProfiles)
        .where(eq(userProfiles.id, viewer.userId));
      // While an admin views the site as this user, the page says so (the spec's banner).
      const [admin] = viewer.impersonatedBy
        ? await db.select({ email: user.email }).from(user).where(eq(user.id, viewer.impersonatedBy))
        : [];
      return c.json({
        // secondFactor: what an admin still needs before the admin pages open ('enrol' or 'verify').
        user: { id: viewer.userId, email: viewer.email, name: viewer.name, isAdmin: viewer.isAdmin, secondFactor: viewer.adminSecondFactor },
        profile: profile ? { ...profile, hasAvatar: Boolean(profile.hasAvatar) } : null,
        impersonation: admin ? { adminEmail: admin.email, endsAt: viewer.sessionExpiresAt.toISOString() } : null,
      });
    })
    .post('/sign-up', async (c) => {
      const ip = clientIp(c, config.trustProxy);
      const parsed = simpleSignUpSchema.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
      const limit = await limiter.check([[RATE_RULES.signUpPerIp, ip]]);
      if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      try {
        const result = await signUpSimple(deps, parsed.data, forwardHeaders(c.req.raw.headers, ip));
        return c.json({ userId: result.userId, verificationRequired: true }, 201);
      } catch (error) {
        return handleAccountError(c, error);
      }
    })
    // The registration's Event list, for visitors: the events the provider runs, by name only.
    .get('/events', async (c) => {
      const limit = await limiter.check([[RATE_RULES.registrationEventsPerIp, clientIp(c, config.trustProxy)]]);
      if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      c.header('Cache-Control', 'no-store');
      return c.json(await listRegistrationEvents(db));
    })
    .post('/register', uploadLimit(HEADSHOT_MAX_BYTES + 256 * 1024, FILE_TOO_LARGE_10MB), async (c) => {
      const ip = clientIp(c, config.trustProxy);
      const form = await c.req.parseBody().catch(() => null);
      if (!form) return apiError(c, 400, 'VALIDATION_ERROR', AUTH_ERRORS.generic);
      const { headshot, ...fields } = form;
      const parsed = registrationSchema.safeParse(fields);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
      // The form offers the events the provider runs and "Other"; anything else is refused.
      if (!(await isRegistrationEvent(db, parsed.data.event))) return apiError(c, 400, 'VALIDATION_ERROR', FIELD_ERRORS.event);
      // The body limit leaves room for the other fields; the headshot itself gets the exact limit.
      if (headshot instanceof File && headshot.size > HEADSHOT_MAX_BYTES) {
        return apiError(c, 413, 'FILE_TOO_LARGE', FILE_TOO_LARGE_10MB.description, FILE_TOO_LARGE_10MB.title);
      }
      const limit = await limiter.check([[RATE_RULES.signUpPerIp, ip]]);
      if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      const headshotBytes =
        headshot instanceof File && headshot.size > 0 ? Buffer.from(await headshot.arrayBuffer()) : null;
      try {
        const result = await register(deps, parsed.data, headshotBytes, forwardHeaders(c.req.raw.headers, ip));
        return c.json({ userId: result.userId, verificationRequired: true, headshotSaved: result.headshotSaved, faceMatching: result.faceMatching }, 201);
      } catch (error) {
        return handleAccountError(c, error);
      }
    })
    .post('/homepage-signups', async (c) => {
      const ip = clientIp(c, config.trustProxy);
      const parsed = homepageSignupSchema.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
      const limit = await limiter.check([[RATE_RULES.homepageSignupPerIp, ip]]);
      if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      await saveHomepageSignup(db, parsed.data);
      return c.json({ saved: true }, 201);
    })
    // Closing the account: the account holder only (never a view-as visit), with their password
    // and the "cannot be undone" tick; everything is erased at once (erasure.ts).
    .post('/close', async (c) => {
      const viewer = await getViewer(auth, db, c.req.raw.headers);
      if (!viewer) return apiError(c, 401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
      if (viewer.impersonatedBy) return apiError(c, 403, 'VIEWING_AS_USER', CLOSE_ACCOUNT.viewingAs);
      const refused = await refuseUnconfirmedErasure(deps, c, viewer.accountId);
      if (refused) return refused;
      // The whole family: the account and every athlete it holds (erasure.ts).
      const outcome = await eraseAccount(deps, viewer.accountId, { kind: 'self' });
      if (!outcome.erased) return apiError(c, outcome.reason === 'admin' ? 409 : 404, outcome.reason === 'admin' ? 'ADMIN_ACCOUNT' : 'NOT_FOUND', outcome.reason === 'admin' ? CLOSE_ACCOUNT.admin : CLOSE_ACCOUNT.failed);
      return c.json({ erased: true });
    });
}
