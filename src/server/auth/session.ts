// Who is asking: the session from the request's cookie, and whether that user is an admin.
import type { MiddlewareHandler } from 'hono';
import { ACCESS_DENIED, AUTH_REQUIRED } from '../../common/messages';
import { isActiveAdmin } from '../admin/queries';
import type { Db } from '../db/client';
import { apiError } from '../http/errors';
import type { Auth } from './auth';

export interface Viewer {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

export async function getViewer(auth: Auth, db: Db, headers: Headers): Promise<Viewer | null> {
  const result = await auth.api.getSession({ headers });
  if (!result) return null;
  return {
    userId: result.user.id,
    email: result.user.email,
    name: result.user.name,
    isAdmin: await isActiveAdmin(db, result.user.id),
  };
}

export type ViewerEnv = { Variables: { viewer: Viewer } };

/** API guard: a signed-in user (401 otherwise). */
export function requireUser(auth: Auth, db: Db): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return apiError(c, 401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
    c.set('viewer', viewer);
    return next();
  };
}

/** API guard: an active admin (401 for visitors, 403 for everyone else). */
export function requireAdmin(auth: Auth, db: Db): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const viewer = await getViewer(auth, db, c.req.raw.headers);
    if (!viewer) return apiError(c, 401, 'UNAUTHENTICATED', AUTH_REQUIRED.description, AUTH_REQUIRED.title);
    if (!viewer.isAdmin) return apiError(c, 403, 'NOT_ADMIN', ACCESS_DENIED.description, ACCESS_DENIED.title);
    c.set('viewer', viewer);
    return next();
  };
}
