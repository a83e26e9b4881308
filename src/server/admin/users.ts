// The admin users list: search, filters, sort and paging done by the database, so the page stays
// fast with tens of thousands of users (a trigram index on search_text, and one on the sort order;
// migration 0004).
import { and, asc, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { footage, highlightRequests, orders, reelRenders, user, userProfiles, userVideos } from '../db/schema';
import { nothingFoundIds } from '../requests/reel-progress';

export const USER_FILTERS = ['submitted', 'approved', 'delivered'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];
export const USERS_PAGE_SIZE = 25;

export const usersQuerySchema = z.object({
  q: z.string().trim().max(100).default(''),
  /** Comma-separated; a user matching any of them is listed (the spec's OR). */
  filters: z
    .string()
    .max(100)
    .default('')
    .transform((v) => v.split(',').filter((f): f is UserFilter => (USER_FILTERS as readonly string[]).includes(f))),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type UsersQuery = z.output<typeof usersQuerySchema>;

/** A LIKE pattern that finds `text` anywhere, with LIKE's own characters taken literally. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The filters, OR-ed, as one set of user ids: the database hashes it once, instead of probing
 * each request and video table for every profile.
 */
function filterCondition(filters: UserFilter[]): SQL | undefined {
  const statuses = filters.flatMap((f) => (f === 'submitted' ? ['pending'] : f === 'approved' ? ['ready_to_purchase'] : []));
  const sets = [
    ...(statuses.length
      ? [sql`SELECT user_id FROM ${highlightRequests} WHERE status IN (${sql.join(statuses.map((s) => sql`${s}`), sql`, `)})`]
      : []),
    // A delivered request counts too, so every card that says Delivered is found by the filter
    // (a request can be marked delivered before its videos are uploaded).
    ...(filters.includes('delivered') ? [sql`SELECT user_id FROM ${userVideos}`, sql`SELECT user_id FROM ${highlightRequests} WHERE status = 'delivered'`] : []),
  ];
  return sets.length ? sql`${userProfiles.id} IN (${sql.join(sets, sql` UNION `)})` : undefined;
}

/**
 * For each request: whether its reel is made from the event's footage (the reel builder, whose
 * delivery follows payment and render by itself) and its latest render's state.
 */
async function reelWork(db: Db, requests: Array<{ id: string; eventId: string | null }>) {
  const eventIds = [...new Set(requests.flatMap((r) => (r.eventId ? [r.eventId] : [])))];
  const [filmed, renders] = await Promise.all([
    eventIds.length ? db.selectDistinct({ eventId: footage.eventId }).from(footage).where(inArray(footage.eventId, eventIds)) : [],
    requests.length
      ? db.select({ requestId: reelRenders.requestId, state: reelRenders.state }).from(reelRenders).where(inArray(reelRenders.requestId, requests.map((r) => r.id))).orderBy(desc(reelRenders.createdAt))
      : [],
  ]);
  const withFootage = new Set(filmed.map((f) => f.eventId));
  const latest = new Map<string, string>();
  for (const r of renders) if (!latest.has(r.requestId)) latest.set(r.requestId, r.state);
  return (r: { id: string; eventId: string | null }) => ({ fromFootage: Boolean(r.eventId && withFootage.has(r.eventId)), renderState: latest.get(r.id) ?? null });
}

export async function listUsers(db: Db, query: UsersQuery) {
  const where = and(
    // search_text: a generated column of the name, e-mail and phone (migration 0004).
    query.q ? sql`${userProfiles}.search_text LIKE ${containing(query.q)} ESCAPE '\\'` : undefined,
    filterCondition(query.filters),
  );
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(userProfiles).where(where)) as [{ total: number }];
  const people = await db
    .select({
      id: userProfiles.id,
      firstName: userProfiles.firstName,
      lastName: userProfiles.lastName,
      email: userProfiles.email,
      phone: userProfiles.phone,
      createdAt: userProfiles.createdAt,
    })
    .from(userProfiles)
    .where(where)
    // The spec sorts by last name; first name and id keep the order stable across pages.
    .orderBy(asc(sql`lower(${userProfiles.lastName})`), asc(sql`lower(${userProfiles.firstName})`), asc(userProfiles.id))
    .limit(USERS_PAGE_SIZE)
    .offset((query.page - 1) * USERS_PAGE_SIZE);

  const ids = people.map((p) => p.id);
  const [requests, videos, paidOrders] = ids.length
    ? await Promise.all([
        db
          .select()
          .from(highlightRequests)
          .where(inArray(highlightRequests.userId, ids))
          .orderBy(desc(highlightRequests.createdAt)),
        db.select().from(userVideos).where(inArray(userVideos.userId, ids)).orderBy(desc(userVideos.createdAt)),
        db
          .select({ requestId: orders.requestId })
          .from(orders)
          .where(and(inArray(orders.userId, ids), eq(orders.status, 'completed'))),
      ])
    : [[], [], []];
  const paid = new Set(paidOrders.map((o) => o.requestId));
  const work = await reelWork(db, requests);
  const nothing = await nothingFoundIds(db, requests);

  return {
    total,
    page: query.page,
    pageSize: USERS_PAGE_SIZE,
    users: people.map((p) => ({
      id: p.id,
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      phone: p.phone,
      createdAt: p.createdAt.toISOString(),
      requests: requests
        .filter((r) => r.userId === p.id)
        .map((r) => ({ id: r.id, status: r.status, event: r.event, games: r.games, createdAt: r.createdAt.toISOString(), paid: paid.has(r.id), ...work(r), nothingFound: nothing.has(r.id) })),
      videos: videos
        .filter((v) => v.userId === p.id)
        .map((v) => ({
          id: v.id,
          title: v.videoTitle,
          videoType: v.videoType,
          createdAt: v.createdAt.toISOString(),
          isPaid: v.isPaid,
          isVisible: v.isVisible,
          requestId: v.requestId,
          processingState: v.processingState,
          processingProgress: v.processingProgress,
          processingError: v.processingError,
        })),
    })),
  };
}
export type AdminUsersPage = Awaited<ReturnType<typeof listUsers>>;

/** The portal's four counts. Orders count when they are paid (completed). */
export async function portalStats(db: Db) {
  const weekAgo = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
  const count = async (q: Promise<Array<{ n: number }>>) => (await q)[0]?.n ?? 0;
  const [totalUsers, newThisWeek, totalOrders, recentOrders] = await Promise.all([
    count(db.select({ n: sql<number>`count(*)::int` }).from(user)),
    count(db.select({ n: sql<number>`count(*)::int` }).from(user).where(gte(user.createdAt, weekAgo))),
    count(db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.status, 'completed'))),
    count(db.select({ n: sql<number>`count(*)::int` }).from(orders).where(and(eq(orders.status, 'completed'), gte(orders.createdAt, weekAgo)))),
  ]);
  return { totalUsers, newThisWeek, totalOrders, recentOrders };
}
