// "View as User": an admin starts a session as the user to see exactly what they see (the spec's
// impersonation), done on the server. A better-auth plugin with two endpoints, modelled on
// better-auth's admin plugin but with our own rules: only an active admin (admins table), never
// another admin, never while already viewing as someone, for one hour at most; the admin's own
// session waits in a signed cookie and comes back on exit; every start and end is in the audit
// log (and every change made meanwhile, by requireUser).
import { and, eq } from 'drizzle-orm';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, getSessionFromCtx } from 'better-auth/api';
import { deleteSessionCookie, expireCookie, setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';
import { IMPERSONATION } from '../../common/admin-messages';
import { isActiveAdmin } from '../admin/queries';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { session as sessionTable } from '../db/schema';

export const IMPERSONATION_SECONDS = 60 * 60;
const ADMIN_COOKIE = 'admin_session';

export function impersonation(db: Db) {
  return {
    id: 'impersonation',
    schema: {
      session: { fields: { impersonatedBy: { type: 'string', required: false, fieldName: 'impersonatedBy' } } },
    },
    endpoints: {
      startImpersonation: createAuthEndpoint(
        '/impersonation/start',
        { method: 'POST', body: z.object({ userId: z.string().min(1).max(200) }) },
        async (ctx) => {
          const current = await getSessionFromCtx(ctx);
          if (!current) throw APIError.fromStatus('UNAUTHORIZED', { message: IMPERSONATION.notAllowed });
          const admin = current.user;
          if ((current.session as { impersonatedBy?: string | null }).impersonatedBy) {
            throw APIError.fromStatus('FORBIDDEN', { message: IMPERSONATION.alreadyViewing });
          }
          if (!(await isActiveAdmin(db, admin.id))) throw APIError.fromStatus('FORBIDDEN', { message: IMPERSONATION.notAllowed });
          const target = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
          if (!target) throw APIError.fromStatus('NOT_FOUND', { message: IMPERSONATION.noSuchUser });
          if (await isActiveAdmin(db, target.id)) throw APIError.fromStatus('FORBIDDEN', { message: IMPERSONATION.notAnAdmin });

          const created = await ctx.context.internalAdapter.createSession(
            target.id,
            true,
            { impersonatedBy: admin.id, expiresAt: new Date(Date.now() + IMPERSONATION_SECONDS * 1000) },
            true,
          );
          if (!created) throw APIError.fromStatus('INTERNAL_SERVER_ERROR');
          const adminCookie = ctx.context.createAuthCookie(ADMIN_COOKIE);
          await ctx.setSignedCookie(adminCookie.name, current.session.token, ctx.context.secret, {
            ...ctx.context.authCookies.sessionToken.attributes,
            maxAge: IMPERSONATION_SECONDS + 60 * 60 * 24,
          });
          deleteSessionCookie(ctx);
          await setSessionCookie(ctx, { session: created, user: target }, true);
          await audit(db, { actorId: admin.id, action: 'impersonation.start', subjectUserId: target.id, details: { sessionId: created.id } });
          return ctx.json({ user: { id: target.id, email: target.email }, expiresAt: created.expiresAt });
        },
      ),
      stopImpersonation: createAuthEndpoint('/impersonation/stop', { method: 'POST' }, async (ctx) => {
        // Works even after the hour is up: the admin's own session comes back from its cookie.
        const adminCookie = ctx.context.createAuthCookie(ADMIN_COOKIE);
        const adminToken = await ctx.getSignedCookie(adminCookie.name, ctx.context.secret);
        const adminSession = adminToken ? await ctx.context.internalAdapter.findSession(adminToken) : null;
        if (!adminSession || adminSession.session.expiresAt < new Date()) {
          expireCookie(ctx, adminCookie);
          throw APIError.fromStatus('BAD_REQUEST', { message: IMPERSONATION.notViewing });
        }
        const current = await getSessionFromCtx(ctx).catch(() => null);
        const viewed = current && (current.session as { impersonatedBy?: string | null }).impersonatedBy === adminSession.user.id ? current : null;
        // Every view-as session this admin started for that user ends now, expired or not.
        const subjectId = viewed?.user.id ?? null;
        if (subjectId) {
          await db.delete(sessionTable).where(and(eq(sessionTable.userId, subjectId), eq(sessionTable.impersonatedBy, adminSession.user.id)));
        }
        await setSessionCookie(ctx, adminSession, false);
        expireCookie(ctx, adminCookie);
        await audit(db, { actorId: adminSession.user.id, action: 'impersonation.stop', subjectUserId: subjectId });
        return ctx.json({ user: { id: adminSession.user.id, email: adminSession.user.email } });
      }),
    },
  } satisfies BetterAuthPlugin;
}
