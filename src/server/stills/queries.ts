// The athlete's stills as "Your Photos" shows them: visible ones, in their set order.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userStills } from '../db/schema';

export type StillRow = typeof userStills.$inferSelect;

/** Visible stills of `userId` by order_position (then upload time and id, so ties keep one order). */
export function visibleStills(db: Db, userId: string): Promise<StillRow[]> {
  return db
    .select()
    .from(userStills)
    .where(and(eq(userStills.userId, userId), eq(userStills.isVisible, true)))
    .orderBy(asc(userStills.orderPosition), asc(userStills.createdAt), asc(userStills.id));
}

/** The number a still has in "Your Photos" (1-based); a hidden one (an admin's view) goes by its position. */
export async function photoNumber(db: Db, still: StillRow): Promise<number> {
  const index = (await visibleStills(db, still.userId)).findIndex((s) => s.id === still.id);
  return index >= 0 ? index + 1 : still.orderPosition + 1;
}
