// Who an account is and whether it is an admin: the lookups the session, View as User and the
// admin commands share. Admin rows are written by admin/ (grant, revoke); read here.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { admins, user } from '../db/schema';

/** A user is an admin exactly when they have an active row in `admins`. */
export async function isActiveAdmin(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: admins.id })
    .from(admins)
    .where(and(eq(admins.userId, userId), eq(admins.isActive, true)))
    .limit(1);
  return rows.length > 0;
}

export async function findUserByEmail(db: Db, email: string): Promise<{ id: string; emailVerified: boolean } | null> {
  const rows = await db
    .select({ id: user.id, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  return (await findUserByEmail(db, email))?.id ?? null;
}
