// Promo codes: matched case-insensitively against active codes only (the spec); created,
// deactivated and listed by admins. A code is unique whatever its case.
import { asc, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ADMIN } from '../../common/admin-messages';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { promoCodes } from '../db/schema';

/** What a code may look like: letters, digits, dashes and underscores, as typed at checkout. */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type PromoCode = typeof promoCodes.$inferSelect;

/** The active code matching what the buyer typed (any case), or null. */
export async function findActivePromo(db: Db, typed: string): Promise<PromoCode | null> {
  const code = typed.trim();
  if (!PROMO_CODE_PATTERN.test(code)) return null;
  const [promo] = await db
    .select()
    .from(promoCodes)
    .where(sql`lower(${promoCodes.code}) = ${code.toLowerCase()} AND ${promoCodes.active}`);
  return promo ?? null;
}

export const newPromoSchema = z.object({
  code: z.string({ error: ADMIN.promoCodes.invalidCode }).trim().regex(PROMO_CODE_PATTERN, ADMIN.promoCodes.invalidCode),
  discountPercent: z.coerce
    .number({ error: ADMIN.promoCodes.invalidPercent })
    .int(ADMIN.promoCodes.invalidPercent)
    .min(1, ADMIN.promoCodes.invalidPercent)
    .max(100, ADMIN.promoCodes.invalidPercent),
});

export class PromoCodeTaken extends Error {}

export async function createPromo(db: Db, input: z.output<typeof newPromoSchema>): Promise<PromoCode> {
  try {
    const [row] = await db.insert(promoCodes).values({ code: input.code, discountPercent: input.discountPercent }).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new PromoCodeTaken(ADMIN.promoCodes.taken);
    throw error;
  }
}

/** Turns a code on or off; null when there is no such code (in any case). */
export async function setPromoActive(db: Db, code: string, active: boolean): Promise<PromoCode | null> {
  const [row] = await db
    .update(promoCodes)
    .set({ active })
    .where(sql`lower(${promoCodes.code}) = ${code.trim().toLowerCase()}`)
    .returning();
  return row ?? null;
}

export function listPromos(db: Db): Promise<PromoCode[]> {
  return db.select().from(promoCodes).orderBy(sql`${promoCodes.active} DESC`, asc(promoCodes.code));
}
