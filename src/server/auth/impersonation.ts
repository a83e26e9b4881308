// "View as User": an admin starts a session as the user to see exactly what they see (the spec's
// impersonation), done on the server. A better-auth plugin with two endpoints, modelled on
// better-auth's admin plugin but with our own rules: only an active admin (admins table), never
// another admin, never while already viewing as someone, for one hour at most; the admin's own
// session waits in a signed cookie and comes back on exit; every start and end is in the audit
// log (and every change made meanwhile, by requireUser). The hour is the server's: better-auth
// never renews such a session (whatever cookies the browser sends), and it ends when its admin
// stops being one (issue 21).
import { and, eq, isNotNull, type SQL } from 'drizzle-orm';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, getSessionFromCtx } from 'better-auth/api';
import { deleteSessionCookie, expireCookie, setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';
import { IMPERSONATION } from '../../common/admin-messages';
import { isActiveAdmin } from './accounts';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { session as sessionTable } from '../db/schema';
import { SECOND_FACTOR } from '../../common/messages';
import { sessionPassedSecondFactor } from './two-factor';
import { IMPERSONATION_SECONDS, viewAsEndsAt } from './view-as-hour';

const ADMIN_COOKIE = 'admin_session';

type SessionTimes = { createdAt: Date | string; expiresAt: Date | string };

/** Why a visit ended, as the audit log's `impersonation.stop` says (the family sees when). */
export type VisitEnd = 'exit' | 'expired' | 'admin revoked' | 'signed out';

/**
 * Ends view-as sessions now: deletes them and writes each end to the audit log. By admin (every
 * session that admin started, e.g. when they stop being an admin) or by session id.
 */
export async function endViewAsSessions(db: Db, which: { adminId: string } | { sessionId: string }, reason: VisitEnd): Promise<number> {
  const where: SQL | undefined =
    'adminId' in which
      ? eq(sessionTable.impersonatedBy, which.adminId)
      : and(eq(sessionTable.id, which.sessionId), isNotNull(sessionTable.impersonatedBy));
  const ended = await db.delete(sessionTable).where(where).returning();
  for (const row of ended) await recordEnd(db, row, reason);
  return ended.length;
}

async function recordEnd(db: Db, row: SessionTimes & { id: string; userId: string; impersonatedBy: string | null }, reason: VisitEnd) {
  const expired = viewAsEndsAt(row).getTime() <= Date.now();
  await audit(db, {
    actorId: row.impersonatedBy,
    action: 'impersonation.stop',
    subjectUserId: row.userId,
    // An expired session is found after its hour: it ended at its expiry, not when it was found.
    details: { sessionIds: [row.id], reason: expired ? 'expired' : reason, endedAt: (expired ? viewAsEndsAt(row) : new Date()).toISOString() },
  });
}

export function impersonation(db: Db) {
  return {
    id: 'impersonation',
    schema: {
      session: { fields: { impersonatedBy: { type: 'string', required: false, fieldName: 'impersonatedBy' } } },
    },
    init: () => ({
      options: {
        databaseHooks: {
          session: {
            update: {
              // better-auth renews a session it looks up (to 30 days, unless the browser sends its
              // dont_remember cookie). A view-as session keeps its hour: the renewal's new expiry
              // is replaced by the session's own end (the session being looked up is the
              // request's; the after hook below holds even where it is not).
              before: async (data, endpoint) => {
                const current = endpoint?.context.session?.session as (SessionTimes & { impersonatedBy?: string | null }) | undefined;
                if (!current?.impersonatedBy || !('expiresAt' in data)) return;
                return { data: { ...data, expiresAt: viewAsEndsAt(current) } };
              },
              after: async (row) => {
                const updated = row as (SessionTimes & { id: string; impersonatedBy?: string | null }) | null;
                if (!updated?.impersonatedBy) return;
                const endsAt = viewAsEndsAt(updated);
                if (new Date(updated.expiresAt) > endsAt) await db.update(sessionTable).set({ expiresAt: endsAt }).where(eq(sessionTable.id, updated.id));
              },
            },
            delete: {
              // Signed out while viewing, or cleaned up by better-auth once expired: the visit
              // ended, and the family's list of visits says when.
              after: async (row) => {
                const ended = row as (SessionTimes & { id: string; userId: string; impersonatedBy?: string | null }) | null;
                if (ended?.impersonatedBy) await recordEnd(db, { ...ended, impersonatedBy: ended.impersonatedBy }, 'signed out');
              },
            },
          },
        },
      },
    }),
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
          // Only an admin session that passed the second factor may act as a family (issue 21).
          if (!(await sessionPassedSecondFactor(db, current.session.id))) {
            const step = (admin as { twoFactorEnabled?: boolean | null }).twoFactorEnabled ? 'verify' : 'enrol';
            throw APIError.fromStatus('FORBIDDEN', { message: SECOND_FACTOR.required[step] });
          }
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
        const ended = subjectId
          ? await db
              .delete(sessionTable)
              .where(and(eq(sessionTable.userId, subjectId), eq(sessionTable.impersonatedBy, adminSession.user.id)))
              .returning({ id: sessionTable.id })
          : [];
        await setSessionCookie(ctx, adminSession, false);
        expireCookie(ctx, adminCookie);
        await audit(db, {
          actorId: adminSession.user.id,
          action: 'impersonation.stop',
          subjectUserId: subjectId,
          details: { sessionIds: ended.map((e) => e.id), reason: 'exit', endedAt: new Date().toISOString() },
        });
        return ctx.json({ user: { id: adminSession.user.id, email: adminSession.user.email } });
      }),
    },
  } satisfies BetterAuthPlugin;
}
