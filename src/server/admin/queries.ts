import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { admins } from '../db/schema';

export async function grantAdmin(db: Db, userId: string): Promise<void> {
  await db
    .insert(admins)
    .values({ userId, isActive: true })
    .onConflictDoUpdate({ target: admins.userId, set: { isActive: true } });
}

export async function revokeAdmin(db: Db, userId: string): Promise<boolean> {
  const rows = await db.update(admins).set({ isActive: false }).where(eq(admins.userId, userId)).returning({ id: admins.id });
  return rows.length > 0;
}
