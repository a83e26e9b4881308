// The family's list of support visits ("View as User"), read from the audit log: when each visit
// started and ended. Here with the view-as rules it follows (view-as-hour.ts), so the audit log
// itself knows nothing of sessions.
import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, session } from '../db/schema';
import { IMPERSONATION_SECONDS, viewAsEndsAt } from './view-as-hour';

/**
 * When support viewed a user's account: each visit's start and end, newest first. A visit ends by
 * Exit, sign-out, its hour, or its admin losing the role (each written as `impersonation.stop`
 * with its session); one whose session has run out unseen ended at its expiry.
 */
/** Whether support ever viewed the account, as a column of a query on user_profiles: most never were, and need no more. */
export const everVisitedColumn = sql<boolean>`exists (select 1 from audit_log a where a.subject_user_id = user_profiles.id and a.action = 'impersonation.start')`;

export async function supportVisits(db: Db, userId: string, limit = 10) {
  const starts = await db
    .select({ at: auditLog.createdAt, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.subjectUserId, userId), eq(auditLog.action, 'impersonation.start')))
    .orderBy(desc(auditLog.createdAt))
    .limit(limit);
  if (!starts.length) return [];
  const stops = await db
    .select({ at: auditLog.createdAt, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.subjectUserId, userId), eq(auditLog.action, 'impersonation.stop'), gte(auditLog.createdAt, starts.at(-1)!.at)))
    .orderBy(asc(auditLog.createdAt));
  const sessionOf = (details: unknown) => (details as { sessionId?: string }).sessionId ?? null;
  const ids = starts.map((s) => sessionOf(s.details)).filter((id): id is string => Boolean(id));
  const live = ids.length ? await db.select().from(session).where(inArray(session.id, ids)) : [];
  const now = new Date();
  return starts.map((start, i) => {
    const id = sessionOf(start.details);
    const stop = stops.find((s) => id && ((s.details as { sessionIds?: string[] }).sessionIds ?? []).includes(id));
    if (stop) return { startedAt: start.at.toISOString(), endedAt: (stop.details as { endedAt?: string }).endedAt ?? stop.at.toISOString() };
    // Older records name no session: the first stop after the start, before the next start.
    const next = starts[i - 1]?.at;
    const legacy = stops.find((s) => !(s.details as { sessionIds?: unknown }).sessionIds && s.at >= start.at && (!next || s.at < next));
    if (legacy) return { startedAt: start.at.toISOString(), endedAt: legacy.at.toISOString() };
    const row = live.find((r) => r.id === id);
    const endsAt = row ? viewAsEndsAt(row) : new Date(start.at.getTime() + IMPERSONATION_SECONDS * 1000);
    if (row && endsAt > now) return { startedAt: start.at.toISOString(), endedAt: null };
    // Gone without a record (older data): it ended by its hour at the latest.
    return { startedAt: start.at.toISOString(), endedAt: (endsAt < now ? endsAt : now).toISOString() };
  });
}
