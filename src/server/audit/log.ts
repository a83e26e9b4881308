// The audit log: what admins did to a family's data (docs/security.md). Rows are only added.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

export type AuditAction =
  | 'impersonation.start'
  | 'impersonation.stop'
  | 'impersonation.change'
  | 'request.acknowledge'
  | 'request.undo'
  | 'request.deliver'
  | 'video.upload'
  | 'footage.upload'
  | 'footage.delete'
  | 'footage.reindex'
  | 'footage.offset'
  | 'reel.render'
  | 'event.create'
  | 'event.update'
  | 'game.create'
  | 'game.update'
  | 'video.delete'
  | 'stills.replace'
  | 'waiting-list.archive'
  | 'promo.create'
  | 'promo.activate'
  | 'promo.deactivate'
  | 'admin.grant'
  | 'admin.revoke';

export async function audit(
  db: Db,
  entry: { actorId: string | null; action: AuditAction; subjectUserId: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
}

/** When support viewed a user's account: each visit's start and end, newest first. */
export async function supportVisits(db: Db, userId: string, limit = 10) {
  const rows = await db
    .select({ action: auditLog.action, at: auditLog.createdAt, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.subjectUserId, userId), inArray(auditLog.action, ['impersonation.start', 'impersonation.stop'])))
    .orderBy(desc(auditLog.createdAt))
    .limit(limit * 2);
  const visits: Array<{ startedAt: string; endedAt: string | null }> = [];
  // Rows come newest first: a stop belongs to the start that follows it in this list.
  let pendingStop: Date | null = null;
  for (const row of rows) {
    if (row.action === 'impersonation.stop') pendingStop = row.at;
    else {
      visits.push({ startedAt: row.at.toISOString(), endedAt: pendingStop?.toISOString() ?? null });
      pendingStop = null;
    }
  }
  return visits.slice(0, limit);
}
