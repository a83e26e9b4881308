// The admins' work queue (issue 36 item 1): every request with the athlete, the event, the games,
// where it stands and how long it has waited there; filtered by state and event, searched by
// athlete or e-mail; and the counts of what needs someone, for the admin home.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../db/client';
import { containing } from '../db/like';
import { eventGames, highlightRequests, orders, reelRenders, userProfiles } from '../db/schema';

/**
 * Where a request stands, in the order it moves: waiting for an admin's approval, being matched,
 * its clips to review, a reel rendered (the family may pay), paid and waiting for delivery,
 * delivered.
 */
export const QUEUE_STATES = ['approve', 'matching', 'review', 'rendered', 'paid', 'delivered'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const QUEUE_PAGE_SIZE = 50;

export const queueQuerySchema = z.object({
  state: z.enum(QUEUE_STATES).optional(),
  event: z.string().trim().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type QueueQuery = z.infer<typeof queueQuerySchema>;

const r = highlightRequests;
const paid = sql`exists (select 1 from ${orders} o where o.request_id = ${r.id} and o.status = 'completed')`;
const rendered = sql`exists (select 1 from ${reelRenders} rr where rr.request_id = ${r.id} and rr.state = 'ready')`;
const matched = sql`(${r.matchingState} is not null and ${r.matchingState} <> 'matching')`;

/**
 * The state of each request, from its row, its orders and its renders; worked out only for the rows
 * a page shows. `isPaid`: whether a completed order holds it (for a page, from the order joined once).
 */
const stateOf = (isPaid: SQL) => sql<QueueState>`case
  when ${r.status} = 'delivered' then 'delivered'
  when ${isPaid} then 'paid'
  when ${r.status} = 'pending' then 'approve'
  when not ${matched} then 'matching'
  when ${rendered} then 'rendered'
  else 'review' end`;

/** The same states as conditions, so a filter reads the indexes rather than working out every row's state. */
const STATE_WHERE: Record<QueueState, SQL> = {
  approve: sql`${r.status} = 'pending' and not ${paid}`,
  matching: sql`${r.status} = 'ready_to_purchase' and not ${matched} and not ${paid}`,
  review: sql`${r.status} = 'ready_to_purchase' and ${matched} and not ${paid} and not ${rendered}`,
  rendered: sql`${r.status} = 'ready_to_purchase' and ${matched} and not ${paid} and ${rendered}`,
  paid: sql`${r.status} <> 'delivered' and ${paid}`,
  delivered: sql`${r.status} = 'delivered'`,
};

/** Since when the request has been where it is: asked, approved, matched, paid or last changed. */
const waitingSince = (paidAt: SQL) => sql<Date>`case
  when ${r.status} = 'pending' then ${r.createdAt}
  when ${r.status} = 'delivered' then ${r.updatedAt}
  when ${paidAt} is not null then ${paidAt}
  else coalesce(${r.matchedAt}, ${r.adminAcknowledgedAt}, ${r.updatedAt}) end`;

/**
 * A search finds the athlete's name or the family's e-mail, as typed, any case: through the
 * profiles' search column and its trigram index (admin/users.ts), then the families' requests.
 */
function searchOf(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  return sql`${r.userId} in (select ${userProfiles.id} from ${userProfiles} where ${userProfiles}.search_text like ${containing(q)} escape '\\')`;
}

export interface QueueRow {
  id: string;
  athlete: string;
  email: string;
  userId: string;
  eventId: string | null;
  event: string;
  games: string[];
  state: QueueState;
  paid: boolean;
  createdAt: string;
  waitingSince: string;
}

export async function listRequestQueue(db: Db, query: QueueQuery): Promise<{ requests: QueueRow[]; total: number; page: number; pageSize: number }> {
  const where = and(query.state ? STATE_WHERE[query.state] : undefined, query.event ? eq(r.eventId, query.event) : undefined, searchOf(query.q));
  // The completed order of each row, joined once: whether it is paid, and since when.
  const paidOrder = db
    .select({ at: sql<Date>`coalesce(${orders.completedAt}, ${orders.createdAt})`.as('paid_at') })
    .from(orders)
    .where(and(eq(orders.requestId, r.id), eq(orders.status, 'completed')))
    .limit(1)
    .as('paid_order');
  const isPaid = sql`(${paidOrder.at} is not null)`;
  const since = sql`(${waitingSince(sql`${paidOrder.at}`)})`;
  // In a state, the longest waiting first (for approval: the oldest request); across all, the newest first.
  const order = !query.state ? [desc(r.createdAt), desc(r.id)] : query.state === 'approve' ? [asc(r.createdAt), asc(r.id)] : [asc(since), asc(r.id)];
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: r.id,
        firstName: userProfiles.firstName,
        lastName: userProfiles.lastName,
        email: userProfiles.email,
        userId: r.userId,
        eventId: r.eventId,
        event: r.event,
        games: r.games,
        state: stateOf(isPaid),
        paid: sql<boolean>`${isPaid}`,
        createdAt: r.createdAt,
        waitingSince: sql<string>`to_char(${since} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      })
      .from(r)
      .innerJoin(userProfiles, eq(userProfiles.id, r.userId))
      .leftJoinLateral(paidOrder, sql`true`)
      .where(where)
      .orderBy(...order)
      .limit(QUEUE_PAGE_SIZE)
      .offset((query.page - 1) * QUEUE_PAGE_SIZE),
    // Every request has its family's profile: the count needs no join.
    db.select({ n: sql<number>`count(*)::int` }).from(r).where(where),
  ]);
  // A request names its games by id (or, older ones, by label): the queue shows their labels.
  const eventIds = [...new Set(rows.flatMap((r) => (r.eventId ? [r.eventId] : [])))];
  const labels = new Map(
    (eventIds.length ? await db.select({ id: eventGames.id, label: eventGames.label }).from(eventGames).where(inArray(eventGames.eventId, eventIds)) : []).map((g) => [g.id, g.label]),
  );
  return {
    requests: rows.map((r) => ({
      id: r.id,
      athlete: `${r.firstName} ${r.lastName}`.trim(),
      email: r.email,
      userId: r.userId,
      eventId: r.eventId,
      event: r.event,
      games: r.games.map((g) => labels.get(g) ?? g),
      state: r.state,
      paid: Boolean(r.paid),
      createdAt: r.createdAt.toISOString(),
      waitingSince: r.waitingSince,
    })),
    total: counted?.n ?? 0,
    page: query.page,
    pageSize: QUEUE_PAGE_SIZE,
  };
}

/** How many requests are in each state: the admin home's "3 to approve, 2 to review, 1 paid and waiting". */
export async function queueCounts(db: Db): Promise<Record<QueueState, number>> {
  // One pass over the open requests, the paid and rendered ones joined as sets (not looked up row by row).
  const [counts] = await queryRows<Record<Exclude<QueueState, 'delivered'>, number>>(db, sql`
    select count(*) filter (where p.request_id is null and ${r.status} = 'pending')::int as approve,
           count(*) filter (where p.request_id is null and ${r.status} = 'ready_to_purchase' and not ${matched})::int as matching,
           count(*) filter (where p.request_id is null and ${r.status} = 'ready_to_purchase' and ${matched} and d.request_id is null)::int as review,
           count(*) filter (where p.request_id is null and ${r.status} = 'ready_to_purchase' and ${matched} and d.request_id is not null)::int as rendered,
           count(*) filter (where p.request_id is not null)::int as paid
    from ${r}
    left join (select distinct request_id from ${orders} where status = 'completed' and request_id is not null) p on p.request_id = ${r.id}
    left join (select distinct request_id from ${reelRenders} where state = 'ready') d on d.request_id = ${r.id}
    where ${r.status} <> 'delivered'`);
  return { approve: counts?.approve ?? 0, matching: counts?.matching ?? 0, review: counts?.review ?? 0, rendered: counts?.rendered ?? 0, paid: counts?.paid ?? 0, delivered: 0 };
}
