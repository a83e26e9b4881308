// Orders as the admins see them (newest first, with the customer's name and e-mail, paged), and
// which of a user's requests are paid for.
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, userProfiles } from '../db/schema';

export const ORDERS_PAGE_SIZE = 25;

export async function listOrders(db: Db, page: number) {
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(orders)) as [{ total: number }];
  const rows = await db
    .select({
      id: orders.id,
      amount: orders.amount,
      status: orders.status,
      createdAt: orders.createdAt,
      paymentId: orders.stripePaymentId,
      promoCode: orders.promoCode,
      discountCents: orders.discountCents,
      provider: orders.provider,
      firstName: userProfiles.firstName,
      lastName: userProfiles.lastName,
      email: userProfiles.email,
    })
    .from(orders)
    .leftJoin(userProfiles, eq(userProfiles.id, orders.userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((page - 1) * ORDERS_PAGE_SIZE);
  return {
    total,
    page,
    pageSize: ORDERS_PAGE_SIZE,
    orders: rows.map((r) => ({
      id: r.id,
      amount: r.amount,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      paymentId: r.paymentId,
      promoCode: r.promoCode,
      discountCents: r.discountCents,
      provider: r.provider,
      customerName: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || null,
      email: r.email ?? null,
    })),
  };
}

/** The user's requests that have been paid for. */
export async function paidRequestIds(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db
    .select({ requestId: orders.requestId })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'completed'), isNotNull(orders.requestId)));
  return new Set(rows.map((r) => r.requestId!));
}

/**
 * Whether a request is paid, as a column of a query on highlight_requests: its owner's completed
 * order (one at most, orders_one_completed_per_request_idx). Written out with its tables, as
 * drizzle leaves a column in a subquery unqualified.
 */
export const requestPaidColumn = sql<boolean>`exists (select 1 from orders o where o.request_id = highlight_requests.id
  and o.user_id = highlight_requests.user_id and o.status = 'completed')`;
