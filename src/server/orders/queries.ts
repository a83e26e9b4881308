// Orders as the admins see them: newest first, with the customer's name and e-mail, paged.
import { desc, eq, sql } from 'drizzle-orm';
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
      customerName: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || null,
      email: r.email ?? null,
    })),
  };
}
