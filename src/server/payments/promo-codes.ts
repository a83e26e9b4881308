// Promo codes: matched case-insensitively against active codes only (the spec), up to their last
// day and their limit of paid orders (issue 36); created, deactivated and listed, with their uses,
// by admins. A code is unique whatever its case.
import { asc, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ADMIN } from '../../common/admin-messages';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { orders, promoCodes } from '../db/schema';

/** What a code may look like: letters, digits, dashes and underscores, as typed at checkout. */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type PromoCode = typeof promoCodes.$inferSelect;

/** Why a typed code does not apply: no such active code, past its last day, or used as often as it may be. */
export type PromoRefusal = 'invalid' | 'expired' | 'used_up';

/** Paid orders that used the code. */
const uses = sql<number>`(select count(*)::int from ${orders} o where o.promo_code = ${promoCodes.code} and o.status = 'completed')`;

/**
 * The code the buyer typed (any case), if it applies now: active, not past its last day (UTC),
 * and used by fewer paid orders than its limit. Otherwise why not.
 */
export async function promoFor(db: Db, typed: string): Promise<{ promo: PromoCode } | { refused: PromoRefusal }> {
  const code = typed.trim();
  if (!PROMO_CODE_PATTERN.test(code)) return { refused: 'invalid' };
  const [row] = await db
    .select({ promo: promoCodes, uses, today: sql<string>`(now() at time zone 'UTC')::date::text` })
    .from(promoCodes)
    .where(sql`lower(${promoCodes.code}) = ${code.toLowerCase()} AND ${promoCodes.active}`);
  if (!row) return { refused: 'invalid' };
  if (row.promo.expiresOn !== null && row.promo.expiresOn < row.today) return { refused: 'expired' };
  if (row.promo.maxUses !== null && row.uses >= row.promo.maxUses) return { refused: 'used_up' };
  return { promo: row.promo };
}

/** A day written YYYY-MM-DD that exists on the calendar. */
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

export const newPromoSchema = z.object({
  code: z.string({ error: ADMIN.promoCodes.invalidCode }).trim().regex(PROMO_CODE_PATTERN, ADMIN.promoCodes.invalidCode),
  discountPercent: z.coerce
    .number({ error: ADMIN.promoCodes.invalidPercent })
    .int(ADMIN.promoCodes.invalidPercent)
    .min(1, ADMIN.promoCodes.invalidPercent)
    .max(100, ADMIN.promoCodes.invalidPercent),
  // Optional: the last day it works (today or later), and how many paid orders may use it.
  expiresOn: z
    .string({ error: ADMIN.promoCodes.invalidExpiry })
    .trim()
    .refine((v) => v === '' || (isDay(v) && v >= new Date().toISOString().slice(0, 10)), ADMIN.promoCodes.invalidExpiry)
    .transform((v) => v || null)
    .nullish(),
  maxUses: z
    .union([z.literal(''), z.coerce.number({ error: ADMIN.promoCodes.invalidUses }).int(ADMIN.promoCodes.invalidUses).min(1, ADMIN.promoCodes.invalidUses).max(100_000, ADMIN.promoCodes.invalidUses)], { error: ADMIN.promoCodes.invalidUses })
    .transform((v) => (v === '' ? null : v))
    .nullish(),
});

export class PromoCodeTaken extends Error {}

export async function createPromo(db: Db, input: z.output<typeof newPromoSchema>): Promise<PromoCode> {
  try {
    const [row] = await db
      .insert(promoCodes)
      .values({ code: input.code, discountPercent: input.discountPercent, expiresOn: input.expiresOn ?? null, maxUses: input.maxUses ?? null })
      .returning();
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

/** Every code with how many paid orders used it, the active ones first. */
export async function listPromos(db: Db): Promise<Array<PromoCode & { uses: number }>> {
  const rows = await db
    .select({ promo: promoCodes, uses })
    .from(promoCodes)
    .orderBy(sql`${promoCodes.active} DESC`, asc(promoCodes.code));
  return rows.map((r) => ({ ...r.promo, uses: r.uses }));
}
