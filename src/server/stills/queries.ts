// The athlete's stills as "Your Photos" shows them: visible ones, in their set order.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { userStills } from '../db/schema';
import { mediaUrl } from '../storage/keys';

export type StillRow = typeof userStills.$inferSelect;

/** Visible stills of `userId` by order_position (then upload time and id, so ties keep one order). */
const visibleStillsOf = preparedQuery((db) =>
  db
    .select()
    .from(userStills)
    .where(and(eq(userStills.userId, sql.placeholder('userId')), eq(userStills.isVisible, true)))
    .orderBy(asc(userStills.orderPosition), asc(userStills.createdAt), asc(userStills.id))
    .prepare('visible_stills_of_user'),
);

export function visibleStills(db: Db, userId: string): Promise<StillRow[]> {
  return visibleStillsOf(db).execute({ userId });
}

/** The number a still has in "Your Photos" (1-based); a hidden one (an admin's view) goes by its position. */
export async function photoNumber(db: Db, still: StillRow): Promise<number> {
  const index = (await visibleStills(db, still.userId)).findIndex((s) => s.id === still.id);
  return index >= 0 ? index + 1 : still.orderPosition + 1;
}

/** "Your Photos" as the family's dashboard gets it: each visible still with its image and download address. */
export async function familyStills(db: Db, userId: string) {
  return (await visibleStills(db, userId)).map((r) => ({
    id: r.id,
    url: mediaUrl(r.storageUrl)!,
    downloadUrl: `/api/stills/${r.id}/download`,
    originalFilename: r.originalFilename,
    orderPosition: r.orderPosition,
  }));
}
