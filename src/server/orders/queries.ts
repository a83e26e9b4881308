// Orders as the admins see them (issue 36 item 3): newest first, with the family, the athlete,
// the event and the refunds; searched by family, athlete, e-mail, code or order; filtered by
// date, event and status; totalled per day and per event; and the same rows as a CSV file.
// Also which of a user's requests are paid for.
import { and, desc, eq, gte, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ORDER_FILTERS } from '../../common/admin-messages';
import { ORDER_STATUSES } from '../../common/order-statuses';
import { hasControlCharacters } from '../../common/schemas';
import type { Db } from '../db/client';
import { containing } from '../db/like';
import { highlightRequests, orders, refunds, userProfiles } from '../db/schema';
import { csvText } from '../http/csv-file';

export const ORDERS_PAGE_SIZE = 25;
/** A CSV export holds at most this many orders (a season's are far fewer). */
export const ORDERS_CSV_MAX = 50_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const isTimeZone = (v: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(v);
  } catch {
    return false;
  }
};

export const ordersQuerySchema = z
  .object({
    q: z.string().trim().max(200, ORDER_FILTERS.tooLong).refine((v) => !hasControlCharacters(v), ORDER_FILTERS.tooLong).optional(),
    status: z.enum(ORDER_STATUSES, { message: ORDER_FILTERS.badStatus }).optional(),
    event: z.string().trim().max(200, ORDER_FILTERS.tooLong).optional(),
    from: z.string().refine(isDay, ORDER_FILTERS.badDate).optional(),
    to: z.string().refine(isDay, ORDER_FILTERS.badDate).optional(),
    /** The admin's time zone: what "a day" means for the dates and the totals. */
    tz: z.string().max(64).refine(isTimeZone, ORDER_FILTERS.badTimeZone).default('UTC'),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: ORDER_FILTERS.fromAfterTo });
export type OrdersQuery = z.infer<typeof ordersQuerySchema>;

const athlete = alias(userProfiles, 'athlete');
const holder = alias(userProfiles, 'holder');
const request = highlightRequests;

/** An order's day: when it was paid, else when it was started, in the admin's time zone. */
const dayOf = (tz: string) => sql`(coalesce(${orders.completedAt}, ${orders.createdAt}) at time zone ${tz})::date`;
const paidStatus = sql`${orders.status} in ('completed', 'refunded')`;

/**
 * A search finds, any case, the athlete's or the family account's name, e-mail or phone (through
 * the profiles' trigram-indexed search column), a promo code, or an order or payment id as written.
 */
function searchOf(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const like = containing(q);
  return sql`(${orders.userId} in (
      select p.id from ${userProfiles} p where p.search_text like ${like} escape '\\'
      union select p.id from ${userProfiles} p join ${userProfiles} f on f.id = p.family_id where f.search_text like ${like} escape '\\')
    or lower(${orders.promoCode}) like ${like} escape '\\'
    or ${orders.id}::text = ${q.toLowerCase()}
    or ${orders.stripePaymentId} = ${q})`;
}

function whereOf(query: OrdersQuery): SQL | undefined {
  const day = dayOf(query.tz);
  return and(
    searchOf(query.q),
    query.status ? eq(orders.status, query.status) : undefined,
    query.event ? eq(request.eventId, query.event) : undefined,
    query.from ? gte(day, sql`${query.from}::date`) : undefined,
    query.to ? sql`${day} <= ${query.to}::date` : undefined,
  );
}

/** The orders, their families and events, joined once for the list and the file alike. */
function selectOrders(db: Db, query: OrdersQuery) {
  return db
    .select({
      id: orders.id,
      amount: orders.amount,
      refundedCents: orders.refundedCents,
      status: orders.status,
      currency: orders.currency,
      createdAt: orders.createdAt,
      completedAt: orders.completedAt,
      paymentId: orders.stripePaymentId,
      promoCode: orders.promoCode,
      discountCents: orders.discountCents,
      provider: orders.provider,
      athleteFirst: athlete.firstName,
      athleteLast: athlete.lastName,
      athleteEmail: athlete.email,
      holderFirst: holder.firstName,
      holderLast: holder.lastName,
      holderEmail: holder.email,
      eventId: request.eventId,
      event: request.event,
    })
    .from(orders)
    .leftJoin(athlete, eq(athlete.id, orders.userId))
    .leftJoin(holder, eq(holder.id, athlete.familyId))
    .leftJoin(request, eq(request.id, orders.requestId))
    .where(whereOf(query))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

type OrderRow = Awaited<ReturnType<ReturnType<typeof selectOrders>['execute']>>[number];

const nameOf = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim() || null;

/** The buyer is the family's account holder; an athlete with no family account is their own. */
function people(r: OrderRow) {
  const athleteName = nameOf(r.athleteFirst, r.athleteLast);
  const holderName = nameOf(r.holderFirst, r.holderLast);
  return {
    customerName: holderName ?? athleteName,
    email: r.holderEmail ?? r.athleteEmail ?? null,
    athleteName: holderName ? athleteName : null,
  };
}

export async function listOrders(db: Db, query: OrdersQuery) {
  const where = whereOf(query);
  const needsRequest = Boolean(query.event);
  const countFrom = db.select({ total: sql<number>`count(*)::int` }).from(orders);
  const [rows, [counted], totals] = await Promise.all([
    selectOrders(db, query)
      .limit(ORDERS_PAGE_SIZE)
      .offset((query.page - 1) * ORDERS_PAGE_SIZE),
    (needsRequest ? countFrom.leftJoin(request, eq(request.id, orders.requestId)) : countFrom).where(where),
    orderTotals(db, query),
  ]);
  const refunds = await refundsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    total: counted?.total ?? 0,
    page: query.page,
    pageSize: ORDERS_PAGE_SIZE,
    totals,
    orders: rows.map((r) => ({
      id: r.id,
      amount: r.amount,
      refundedCents: r.refundedCents,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      completedAt: r.completedAt?.toISOString() ?? null,
      paymentId: r.paymentId,
      promoCode: r.promoCode,
      discountCents: r.discountCents,
      provider: r.provider,
      ...people(r),
      event: r.event,
      refunds: (refunds.get(r.id) ?? []).map((f) => ({
        id: f.id,
        amount: f.amount,
        status: f.status,
        reason: f.reason,
        byAdmin: f.requestedBy !== null,
        createdAt: f.createdAt.toISOString(),
      })),
    })),
  };
}

/**
 * What the filtered orders took: paid orders (refunded ones included) with their gross, what was
 * given back and what stays, per day and per event, in the admin's time zone.
 */
async function orderTotals(db: Db, query: OrdersQuery) {
  const where = and(whereOf(query), paidStatus);
  const sums = {
    orders: sql<number>`count(*)::int`,
    grossCents: sql<number>`coalesce(sum(${orders.amount}), 0)::int`,
    refundedCents: sql<number>`coalesce(sum(${orders.refundedCents}), 0)::int`,
  };
  const day = dayOf(query.tz);
  const [all, byDay, byEvent] = await Promise.all([
    db.select(sums).from(orders).leftJoin(request, eq(request.id, orders.requestId)).where(where),
    db
      .select({ day: sql<string>`to_char(${day}, 'YYYY-MM-DD')`, ...sums })
      .from(orders)
      .leftJoin(request, eq(request.id, orders.requestId))
      .where(where)
      // By position: the day's expression carries the time zone as a parameter, written twice it would be two.
      .groupBy(sql`1`)
      .orderBy(sql`1 desc`)
      .limit(366),
    db
      .select({ eventId: request.eventId, event: sql<string | null>`min(${request.event})`, ...sums })
      .from(orders)
      .leftJoin(request, eq(request.id, orders.requestId))
      .where(where)
      .groupBy(request.eventId)
      .orderBy(desc(sums.grossCents))
      .limit(200),
  ]);
  const net = <T extends { grossCents: number; refundedCents: number }>(t: T) => ({ ...t, netCents: t.grossCents - t.refundedCents });
  return { ...net(all[0] ?? { orders: 0, grossCents: 0, refundedCents: 0 }), byDay: byDay.map(net), byEvent: byEvent.map(net) };
}

/** The refunds of these orders, oldest first (payments/refunds.ts makes them). */
async function refundsOf(db: Db, orderIds: string[]): Promise<Map<string, Array<typeof refunds.$inferSelect>>> {
  const rows = orderIds.length ? await db.select().from(refunds).where(inArray(refunds.orderId, orderIds)).orderBy(refunds.createdAt) : [];
  const byOrder = new Map<string, Array<typeof refunds.$inferSelect>>();
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
  return byOrder;
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The filtered orders as a spreadsheet, newest first (at most ORDERS_CSV_MAX). */
export async function ordersCsv(db: Db, query: OrdersQuery): Promise<string> {
  const rows = await selectOrders(db, query).limit(ORDERS_CSV_MAX);
  return csvText([
    ['Order', 'Date', 'Paid', 'Status', 'Family', 'Email', 'Athlete', 'Event', 'Amount', 'Discount', 'Promo code', 'Refunded', 'Provider', 'Payment'],
    ...rows.map((r) => {
      const who = people(r);
      return [
        r.id,
        r.createdAt.toISOString(),
        r.completedAt?.toISOString() ?? '',
        r.status,
        who.customerName ?? '',
        who.email ?? '',
        who.athleteName ?? who.customerName ?? '',
        r.event ?? '',
        money(r.amount),
        money(r.discountCents),
        r.promoCode ?? '',
        money(r.refundedCents),
        r.provider,
        r.paymentId ?? '',
      ];
    }),
  ]);
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
