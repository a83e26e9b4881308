// The audit log: what admins did to a family's data (docs/security.md). Rows are only added.
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
  | 'footage.rename'
  | 'roster.import'
  | 'roster.confirm'
  | 'people.athlete'
  | 'people.not-athlete'
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
  | 'order.refund'
  | 'admin.grant'
  | 'admin.revoke'
  | 'account.erase'
  | 'admin.reset-second-factor';

export async function audit(
  db: Db,
  entry: { actorId: string | null; action: AuditAction; subjectUserId: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
}
