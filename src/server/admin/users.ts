// The admin users list: search, filters, sort and paging done by the database, so the page stays
// fast with tens of thousands of users (a trigram index on search_text, and one on the sort order;
// migration 0004).
import { and, asc, eq, gte, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { highlightRequests, orders, user, userProfiles, userVideos } from '../db/schema';
import { requestPaidColumn } from '../orders/queries';
import { markedNothingFound, reelFactColumns, type ReelFacts } from '../requests/reel-progress';

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

/** json_build_object of `fields` under their names (our own names, never input). */
function jsonObject(fields: Record<string, SQLWrapper>): SQL {
  return sql`json_build_object(${sql.join(
    Object.entries(fields).map(([name, value]) => sql`${sql.raw(`'${name}'`)}, ${value}`),
    sql`, `,
  )})`;
}

/** A JSON array of `object` for each row of `from`, in `order`; [] when there is none. */
function jsonList(object: SQL, from: SQL, order: SQL): SQL {
  return sql`(select coalesce(json_agg(${object} order by ${order}), '[]'::json) ${from})`;
}

/** A request as the list shows it, with the facts its paid, reel and nothing-found marks come from. */
interface RequestJson extends ReelFacts {
  id: string;
  status: (typeof highlightRequests.$inferSelect)['status'];
  event: string;
  games: string[];
  createdAt: string;
  eventId: string | null;
  matchingState: string | null;
  paid: boolean;
  renderState: string | null;
}

interface VideoJson {
  id: string;
  title: string;
  videoType: (typeof userVideos.$inferSelect)['videoType'];
  createdAt: string;
  isPaid: boolean;
  isVisible: boolean;
  requestId: string | null;
  processingState: string;
  processingProgress: number | null;
  processingError: string | null;
}

/** A timestamp from JSON (PostgreSQL's own format) as the API writes dates. */
const iso = (timestamp: string) => new Date(timestamp).toISOString();

/**
 * The list's two statements: the count, and the page of profiles with each one's requests and
 * videos as JSON (found by user_id through their indexes).
 */
function usersPage(db: Db, where: SQL | undefined, offset: number | Placeholder) {
  const page = db.$with('page').as(
    db
      .select({
        id: userProfiles.id,
        firstName: userProfiles.firstName,
        lastName: userProfiles.lastName,
        email: userProfiles.email,
        phone: userProfiles.phone,
        createdAt: userProfiles.createdAt,
        sortLast: sql`lower(${userProfiles.lastName})`.as('sort_last'),
        sortFirst: sql`lower(${userProfiles.firstName})`.as('sort_first'),
      })
      .from(userProfiles)
      .where(where)
      // The spec sorts by last name; first name and id keep the order stable across pages.
      .orderBy(asc(sql`lower(${userProfiles.lastName})`), asc(sql`lower(${userProfiles.firstName})`), asc(userProfiles.id))
      .limit(USERS_PAGE_SIZE)
      .offset(offset),
  );
  const requests = jsonList(
    jsonObject({
      id: highlightRequests.id,
      status: highlightRequests.status,
      event: highlightRequests.event,
      games: highlightRequests.games,
      createdAt: highlightRequests.createdAt,
      eventId: highlightRequests.eventId,
      matchingState: highlightRequests.matchingState,
      paid: requestPaidColumn,
      // The latest render, whatever its state (reel_renders_request_idx, read backwards).
      renderState: sql`(select r.state from reel_renders r where r.request_id = highlight_requests.id
        order by r.created_at desc limit 1)`,
      ...reelFactColumns,
    }),
    sql`from ${highlightRequests} where ${highlightRequests.userId} = ${page.id}`,
    sql`${highlightRequests.createdAt} desc`,
  );
  const videos = jsonList(
    jsonObject({
      id: userVideos.id,
      title: userVideos.videoTitle,
      videoType: userVideos.videoType,
      createdAt: userVideos.createdAt,
      isPaid: userVideos.isPaid,
      isVisible: userVideos.isVisible,
      requestId: userVideos.requestId,
      processingState: userVideos.processingState,
      processingProgress: userVideos.processingProgress,
      processingError: userVideos.processingError,
    }),
    sql`from ${userVideos} where ${userVideos.userId} = ${page.id}`,
    sql`${userVideos.createdAt} desc`,
  );
  return {
    count: db.select({ total: sql<number>`count(*)::int` }).from(userProfiles).where(where),
    people: db
      .with(page)
      .select({
        id: page.id,
        firstName: page.firstName,
        lastName: page.lastName,
        email: page.email,
        phone: page.phone,
        createdAt: page.createdAt,
        requests: sql<RequestJson[]>`${requests}`,
        videos: sql<VideoJson[]>`${videos}`,
      })
      .from(page)
      .orderBy(page.sortLast, page.sortFirst, page.id),
  };
}

/**
 * The list as it opens (no search, no filter) as prepared statements: building this query took
 * more of the server's time than running it. A search or filter builds its own each time.
 */
const openingPage = preparedQuery((db) => {
  const { count, people } = usersPage(db, undefined, sql.placeholder('offset'));
  return { count: count.prepare('admin_users_count'), people: people.prepare('admin_users_page') };
});

/**
 * Both at once, the count on a connection of its own (it reads every matching profile). Each
 * statement is a round trip and a fixed cost in this process: that, five times in a row, was most
 * of what the list cost, not the database's work (issue 23).
 */
function countAndPage(db: Db, where: SQL | undefined, offset: number) {
  if (where) {
    const { count, people } = usersPage(db, where, offset);
    return Promise.all([count, people]);
  }
  const { count, people } = openingPage(db);
  return Promise.all([count.execute(), people.execute({ offset })]);
}

export async function listUsers(db: Db, query: UsersQuery) {
  const where = and(
    // search_text: a generated column of the name, e-mail and phone (migration 0004).
    query.q ? sql`${userProfiles}.search_text LIKE ${containing(query.q)} ESCAPE '\\'` : undefined,
    filterCondition(query.filters),
  );
  const [[counted], people] = await countAndPage(db, where, (query.page - 1) * USERS_PAGE_SIZE);

  return {
    total: counted!.total,
    page: query.page,
    pageSize: USERS_PAGE_SIZE,
    users: people.map((p) => ({
      id: p.id,
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      phone: p.phone,
      createdAt: p.createdAt.toISOString(),
      requests: p.requests.map((r) => ({
        id: r.id,
        status: r.status,
        event: r.event,
        games: r.games,
        createdAt: iso(r.createdAt),
        paid: r.paid,
        fromFootage: r.hasFootage,
        renderState: r.renderState,
        nothingFound: markedNothingFound(r, r),
      })),
      videos: p.videos.map((v) => ({ ...v, createdAt: iso(v.createdAt) })),
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
