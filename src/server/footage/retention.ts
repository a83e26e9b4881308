// Game footage is kept FOOTAGE_RETENTION_DAYS (90) after its event (or its upload, if later), as the privacy page says,
// then deleted with everything made from it: the row (its face index and clips go by the foreign
// keys), the stored file and the review's clip pictures. Footage of an event with a request still
// open (received or approved, not delivered) is kept until none is: that request's reel needs it.
// Delivered reels are files of their own and stay. (Issue 33, finding 2; decision 0031.)
import { and, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../deps';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { appearances, events, footage, highlightRequests } from '../db/schema';
import { clipThumbnailKey } from '../reels/clip-thumbnail';

/**
 * The day a file goes: the days counted from its event's first day, or from its upload when that
 * came later (footage of a past event uploaded today is kept the full time, as families can ask
 * only once it is there).
 */
const deletesOnSql = (days: number) => sql<string>`(greatest(${events.startsOn}, (${footage.createdAt} at time zone 'UTC')::date) + ${days}::int)::text`;
/** A request received or approved, not yet delivered, still needs the event's footage. */
const heldBy = (eventId: unknown) => sql<boolean>`exists (select 1 from ${highlightRequests} r where r.event_id = ${eventId} and r.status in ('pending', 'ready_to_purchase'))`;
const heldSql = heldBy(footage.eventId);

export interface FootageRetention {
  /** YYYY-MM-DD, or null while a request holds it. */
  deletesOn: string | null;
  keptForRequest: boolean;
}

/** When each footage file of the event will be deleted, by id. */
export async function retentionOfEvent(db: Db, eventId: string, days: number): Promise<Map<string, FootageRetention>> {
  const rows = await db
    .select({ id: footage.id, deletesOn: deletesOnSql(days), held: heldSql })
    .from(footage)
    .innerJoin(events, eq(events.id, footage.eventId))
    .where(eq(footage.eventId, eventId));
  return new Map(rows.map((r) => [r.id, { deletesOn: r.held ? null : r.deletesOn, keptForRequest: r.held }]));
}

/** Deletes the footage past its days that no open request needs; returns how many files went. */
export async function deleteExpiredFootage(deps: Pick<AppDeps, 'db' | 'storage' | 'config'>): Promise<number> {
  const due = await deps.db
    .select({ id: footage.id, eventId: footage.eventId, sourceKey: footage.sourceKey })
    .from(footage)
    .innerJoin(events, eq(events.id, footage.eventId))
    .where(and(sql`${deletesOnSql(deps.config.footageRetentionDays)}::date < current_date`, sql`not ${heldSql}`));
  let deleted = 0;
  for (const file of due) {
    const clips = await deps.db.select({ id: appearances.id }).from(appearances).where(eq(appearances.footageId, file.id));
    // Only if still due when deleted: a request made in the meantime keeps it.
    const [gone] = await deps.db
      .delete(footage)
      .where(and(eq(footage.id, file.id), sql`not ${heldBy(file.eventId)}`))
      .returning({ id: footage.id });
    if (!gone) continue;
    deleted++;
    for (const key of [file.sourceKey, ...clips.map((c) => clipThumbnailKey(file.eventId, c.id))]) await deps.storage.delete(key).catch(() => {});
    await audit(deps.db, { actorId: null, action: 'footage.delete', subjectUserId: null, details: { footageId: file.id, reason: 'retention' } });
  }
  return deleted;
}
