// The waiting list: homepage sign-ups, for active admins only (the spec's client-side password
// gate is not reproduced). "Clear All Submissions" archives, so nothing is ever lost.
import { and, desc, isNull, lte, sql } from 'drizzle-orm';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { homepageSignups } from '../db/schema';
import { csvText } from '../http/csv-file';

export async function listWaitingList(db: Db) {
  const rows = await db
    .select()
    .from(homepageSignups)
    .where(isNull(homepageSignups.archivedAt))
    .orderBy(desc(homepageSignups.createdAt))
    .limit(5000);
  return {
    total: rows.length,
    entries: rows.map((r) => ({
      id: r.id,
      name: `${r.firstName} ${r.lastName}`.trim(),
      email: r.email,
      createdAt: r.createdAt.toISOString(),
      registered: r.status === 'completed',
    })),
  };
}

/**
 * Archives what the admin saw: entries up to `upTo`, the newest one the list showed (the server's
 * own time, so the admin's clock does not matter); entries that arrive meanwhile stay on the list.
 */
export async function archiveWaitingList(db: Db, adminId: string, upTo: Date): Promise<number> {
  const archived = await db
    .update(homepageSignups)
    .set({ archivedAt: new Date() })
    // The list gives times to the millisecond; the database keeps microseconds.
    .where(and(isNull(homepageSignups.archivedAt), lte(sql`date_trunc('milliseconds', ${homepageSignups.createdAt})`, upTo)))
    .returning({ id: homepageSignups.id });
  await audit(db, { actorId: adminId, action: 'waiting-list.archive', subjectUserId: null, details: { count: archived.length } });
  return archived.length;
}

/** RFC 4180 CSV; a cell that starts like a formula is quoted with a leading apostrophe (CSV injection). */
export function waitingListCsv(entries: Awaited<ReturnType<typeof listWaitingList>>['entries']): string {
  return csvText([['Name', 'Email', 'Date', 'Registered'], ...entries.map((e) => [e.name, e.email, e.createdAt, e.registered ? 'yes' : 'no'])]);
}
