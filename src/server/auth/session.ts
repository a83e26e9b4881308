// Who is asking: the session from the request's cookie, and whether that user is an admin.
import type { MiddlewareHandler } from 'hono';
import { ACCESS_DENIED, AUTH_REQUIRED, SECOND_FACTOR } from '../../common/messages';
import { IMPERSONATION } from '../../common/admin-messages';
import { audit } from '../audit/log';
import { isActiveAdmin } from './accounts';
import type { Db } from '../db/client';
import { apiError } from '../http/errors';
import type { Auth } from './auth';
import { secondFactorStep, type SecondFactorStep } from './two-factor';
import { endViewAsSessions } from './impersonation';
import { viewAsEndsAt } from './view-as-hour';
import { ViewerCache, viewerCacheOf } from './viewer-cache';
import { actingFor, familyShape } from '../family/members';

export interface Viewer {
  /**
   * The athlete this request acts for: the account's own profile, or one of the athletes the
   * holder added (the switcher's cookie, checked against the family; family/members.ts).
   */
  userId: string;
  /** The signed-in account (the family's holder): its password, address and closing are its own. */
  accountId: string;
  /** The athletes the holder added, besides the account's own profile. */
  familyAthleteIds: string[];
  /** The account's own athlete was erased on its own: the first added athlete stands in for it. */
  ownAthleteErased: boolean;
  email: string;
  name: string;
  /** An active admin whose session passed the second factor (two-factor.ts). */
  isAdmin: boolean;
  /** An active admin's session that has not passed the second factor: what it still needs. */
  adminSecondFactor: SecondFactorStep | null;
  /** The admin viewing the site as this user ("View as User"), if that is what this session is. */
  impersonatedBy: string | null;
  sessionExpiresAt: Date;
}

/** The family the session's account holds (family/members.ts): cached with the session. */
async function familyOfViewer(db: Db, accountId: string) {
  const { addedIds, ownErased } = await familyShape(db, accountId);
  return { familyAthleteIds: addedIds, ownAthleteErased: ownErased };
}

/** The viewer of a request: remembered for a few seconds per session cookie (viewer-cache.ts). */
export async function getViewer(auth: Auth, db: Db, headers: Headers): Promise<Viewer | null> {
  const cache = viewerCacheOf(auth);
  const key = cache ? ViewerCache.keyOf(headers) : null;
  if (!cache || !key) return lookUpViewer(auth, db, headers);
  const known = cache.get(key);
  if (known) return actingFor(db, known, headers);
  const generation = cache.generation;
  const viewer = await lookUpSession(auth, db, headers);
  if (viewer) cache.set(key, viewer, generation);
  return viewer && actingFor(db, viewer, headers);
}

/** The viewer from the database, past the cache (a live stream re-checks with it when a notice arrives). */
export async function lookUpViewer(auth: Auth, db: Db, headers: Headers): Promise<Viewer | null> {
  const viewer = await lookUpSession(auth, db, headers);
  return viewer && actingFor(db, viewer, headers);
}

async function lookUpSession(auth: Auth, db: Db, headers: Headers): Promise<Viewer | null> {
  const result = await auth.api.getSession({ headers });
  if (!result) return null;
  const impersonatedBy = (result.session as { impersonatedBy?: string | null }).impersonatedBy ?? null;
  if (impersonatedBy) {
    // The server holds a view-as session to its hour whatever its row says, and ends it the
    // moment its admin is no longer one, however the admins row was changed (issue 21).
    const ended = viewAsEndsAt(result.session) <= new Date() ? 'expired' : (await isActiveAdmin(db, impersonatedBy)) ? null : 'admin revoked';
    if (ended) {
      await endViewAsSessions(db, { sessionId: result.session.id }, ended);
      return null;
    }
  }
  const activeAdmin = impersonatedBy ? false : await isActiveAdmin(db, result.user.id);
  const adminSecondFactor = activeAdmin ? await secondFactorStep(db, result.user, result.session.id) : null;
  return {
    userId: result.user.id,
    accountId: result.user.id,
    ...(activeAdmin ? { familyAthleteIds: [], ownAthleteErased: false } : await familyOfViewer(db, result.user.id)),
    email: result.user.email,
    name: result.user.name,
    // A view-as session is the user's, whoever started it: never an admin's. An admin's own
    // session is an admin's only once it passed the second factor (issue 21).
    isAdmin: activeAdmin && !adminSecondFactor,
    adminSecondFactor,
    impersonatedBy,
    sessionExpiresAt: impersonatedBy ? viewAsEndsAt(result.session) : new Date(result.session.expiresAt),
  };
}

export type ViewerEnv = { Variables: { viewer: Viewer } };

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * API guard: a signed-in user (401 otherwise). A change made while an admin views the site as
 * the user is written to the audit log under the admin's name.
 */
export function requireUser(auth: Auth, db: Db): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return apiError(c, 401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
    c.set('viewer', viewer);
    await next();
    if (viewer.impersonatedBy && MUTATING.has(c.req.method) && c.res.status < 400) {
      await audit(db, {
        actorId: viewer.impersonatedBy,
        action: 'impersonation.change',
        subjectUserId: viewer.userId,
        details: { method: c.req.method, path: c.req.path, status: c.res.status },
      });
    }
  };
}

/**
 * Refuses what an admin viewing the site as a user must not do for them: what is the family's own
 * act (paying, agreeing to face matching), with the screen's own words when it has them.
 */
export function refuseWhileImpersonating(message: string = IMPERSONATION.refused, title?: string): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    if (c.var.viewer.impersonatedBy) return apiError(c, 403, 'IMPERSONATING', message, title);
    return next();
  };
}

/**
 * API guard: an active admin whose session passed the second factor (401 for visitors, 403 for
 * everyone else; an admin who has not passed it is told to set it up or to give the code).
 */
export function requireAdmin(auth: Auth, db: Db): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return apiError(c, 401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
    if (viewer.adminSecondFactor) {
      return apiError(c, 403, 'SECOND_FACTOR_REQUIRED', SECOND_FACTOR.required[viewer.adminSecondFactor], SECOND_FACTOR.required.title);
    }
    if (!viewer.isAdmin) return apiError(c, 403, 'NOT_ADMIN', ACCESS_DENIED.description, ACCESS_DENIED.title);
    c.set('viewer', viewer);
    return next();
  };
}
