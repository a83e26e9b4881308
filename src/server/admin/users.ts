// The admin users list: search, filters, sort and paging done by the database, so the page stays
// fast with tens of thousands of users (a trigram index on search_text, and one on the sort order;
// migration 0004).
import { and, asc, eq, gt, gte, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { queueCounts } from '../requests/queue';
import { containing } from '../db/like';
import { admins, highlightRequests, orders, user, userListTallies, userProfileCount, userProfiles, userVideos } from '../db/schema';
import { requestPaidColumn } from '../orders/queries';
import { reelFactColumns } from '../requests/reel-progress';

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
/**
 * The filters, OR-ed, as a condition on each user's tallies (user_list_tallies, kept by the
 * database's triggers, migration 0014): one narrow row per user with requests or videos, instead
 * of gathering every request and video on each search.
 */
function heldCondition(filters: UserFilter[]): SQL | undefined {
  const tallies = userListTallies;
  const held = [
    ...(filters.includes('submitted') ? [gt(tallies.pending, 0)] : []),
    ...(filters.includes('approved') ? [gt(tallies.readyToPurchase, 0)] : []),
    // A delivered request counts too, so every card that says Delivered is found by the filter
    // (a request can be marked delivered before its videos are uploaded).
    ...(filters.includes('delivered') ? [gt(tallies.delivered, 0), gt(tallies.videos, 0)] : []),
  ];
  return held.length ? or(...held) : undefined;
}

/**
 * A LIMIT or OFFSET written into the statement rather than sent as a parameter. PostgreSQL must
 * guess a parameter's value, guesses a tenth of the table, and so planned the prepared list afresh
 * on every request instead of once (pg_prepared_statements showed no generic plan). Our numbers only.
 */
const written = (n: number) => sql.raw(String(Math.trunc(n))) as unknown as number;

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

/** The list's JSON, as the database writes it (usersPage). Dates are ISO 8601 text. */
type Profile = typeof userProfiles.$inferSelect;
type Request = typeof highlightRequests.$inferSelect;
type Video = typeof userVideos.$inferSelect;
export interface AdminUsersPage {
  total: number;
  page: number;
  pageSize: number;
  users: Array<
    Pick<Profile, 'id' | 'firstName' | 'lastName' | 'email' | 'phone'> & {
      createdAt: string;
      /**
       * The family, when it holds more than this athlete (decision 0036): its holder's account id
       * and name, and how many athletes it holds. Null for an account of one athlete.
       */
      family: { holderId: string; holderName: string; athletes: number } | null;
      requests: Array<
        Pick<Request, 'id' | 'status' | 'event' | 'games'> & {
          createdAt: string;
          paid: boolean;
          /** The reel is made from the event's footage (else by hand, after payment). */
          fromFootage: boolean;
          /** The latest render's state, whatever it is. */
          renderState: string | null;
          /** The team's "nothing found" mark (reel-progress.ts). */
          nothingFound: boolean;
          /** The family declined face matching: the clips of this reel from footage are picked by hand. */
          handPick: boolean;
        }
      >;
      videos: Array<
        Pick<Video, 'id' | 'videoType' | 'isPaid' | 'isVisible' | 'requestId' | 'processingState' | 'processingProgress' | 'processingError'> & {
          title: string;
          createdAt: string;
        }
      >;
    }
  >;
}

/**
 * A timestamp as the API writes dates (JavaScript's toISOString, milliseconds truncated as there),
 * written by the database.
 */
const isoText = (column: SQLWrapper) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Each of the user's videos as the list shows them, newest first, as a JSON array. */
function videosJson(userId: SQLWrapper): SQL {
  return jsonList(
    jsonObject({
      id: userVideos.id,
      title: userVideos.videoTitle,
      videoType: userVideos.videoType,
      createdAt: isoText(userVideos.createdAt),
      isPaid: userVideos.isPaid,
      isVisible: userVideos.isVisible,
      requestId: userVideos.requestId,
      processingState: userVideos.processingState,
      processingProgress: userVideos.processingProgress,
      processingError: userVideos.processingError,
    }),
    sql`from ${userVideos} where ${userVideos.userId} = ${userId}`,
    sql`${userVideos.createdAt} desc`,
  );
}

/**
 * The athlete's family as the list shows it, when it holds more than one athlete: the holder's
 * name (the parent's own, or the account's athlete) and the number of athletes (user_profiles_family_idx).
 */
function familyJson(id: SQLWrapper, familyId: SQLWrapper): SQL {
  return sql`(select json_build_object(
      'holderId', h.id,
      'holderName', coalesce(h.holder_name, trim(h.first_name || ' ' || h.last_name)),
      'athletes', 1 + (select count(*) from user_profiles m where m.family_id = h.id))
    from user_profiles h
    where h.id = coalesce(${familyId}, ${id})
      and (${familyId} is not null or exists (select 1 from user_profiles m where m.family_id = ${id})))`;
}

/** The list's order: the spec sorts by last name; first name and id keep it stable across pages. */
const listOrder = () => [asc(sql`lower(${userProfiles.lastName})`), asc(sql`lower(${userProfiles.firstName})`), asc(userProfiles.id)];

interface PageOptions {
  /** Which profiles: the first page of everyone, or those whose ids a search found (as a placeholder). */
  chosen: 'first page' | SQL;
  /**
   * The videos from a statement of their own, run beside (`videos`), instead of inside each
   * profile. Worth it for the list as it opens, whose page is cheap to find twice.
   */
  videosBeside: boolean;
}

/**
 * The statements that write the page, prepared (listUsersJson). The database writes each profile
 * as the JSON the API answers, with its requests and videos (found by user_id through their
 * indexes), and the server passes that text on as it is: parsing it and writing it again cost
 * more than the query.
 */
function usersPage(db: Db, { chosen, videosBeside }: PageOptions) {
  const profiles = db
    .select({
      id: userProfiles.id,
      firstName: userProfiles.firstName,
      lastName: userProfiles.lastName,
      email: userProfiles.email,
      phone: userProfiles.phone,
      familyId: userProfiles.familyId,
      createdAt: userProfiles.createdAt,
      sortLast: sql`lower(${userProfiles.lastName})`.as('sort_last'),
      sortFirst: sql`lower(${userProfiles.firstName})`.as('sort_first'),
    })
    .from(userProfiles);
  const page = db
    .$with('page')
    .as(chosen === 'first page' ? profiles.orderBy(...listOrder()).limit(written(USERS_PAGE_SIZE)) : profiles.where(chosen));
  const requests = jsonList(
    jsonObject({
      id: highlightRequests.id,
      status: highlightRequests.status,
      event: highlightRequests.event,
      games: highlightRequests.games,
      createdAt: isoText(highlightRequests.createdAt),
      paid: requestPaidColumn,
      fromFootage: reelFactColumns.fromFootage,
      // The latest render, whatever its state (reel_renders_request_idx, read backwards).
      renderState: sql`(select r.state from reel_renders r where r.request_id = highlight_requests.id
        order by r.created_at desc limit 1)`,
      nothingFound: reelFactColumns.markedNothingFound,
      handPick: sql<boolean>`coalesce(${highlightRequests.status} <> 'delivered' and ${highlightRequests.matchingState} = 'no_consent' and ${reelFactColumns.fromFootage}, false)`,
    }),
    sql`from ${highlightRequests} where ${highlightRequests.userId} = ${page.id}`,
    sql`${highlightRequests.createdAt} desc`,
  );
  return {
    /** Each profile of the page with its requests (and videos, unless beside), in the list's order. */
    people: db
      .with(page)
      .select({
        id: page.id,
        json: sql<string>`${jsonObject({
          id: page.id,
          firstName: page.firstName,
          lastName: page.lastName,
          email: page.email,
          phone: page.phone,
          createdAt: isoText(page.createdAt),
          family: familyJson(page.id, page.familyId),
          requests,
          ...(videosBeside ? {} : { videos: videosJson(page.id) }),
        })}::text`,
      })
      .from(page)
      .orderBy(page.sortLast, page.sortFirst, page.id),
    /** The videos of each profile of the page. */
    videos: db.with(page).select({ id: page.id, json: sql<string>`${videosJson(page.id)}::text` }).from(page),
  };
}

/**
 * The page's statements, prepared: building them took more of the server's time than running
 * them, and parsing and planning them (1.1 ms) more of the database's. The list as it opens (first
 * page, everyone) is one set; any other page is found first (pageIds, planned for its search) and
 * then written by `byIds`, whose plan is the same for any 25 ids. The total as the list opens is
 * the one the database keeps, instead of counting everyone.
 */
const pageStatements = preparedQuery((db) => {
  const opening = usersPage(db, { chosen: 'first page', videosBeside: true });
  const found = usersPage(db, { chosen: sql`${userProfiles.id} = ANY(${sql.placeholder('ids')}::text[])`, videosBeside: false });
  return {
    people: opening.people.prepare('admin_users_page'),
    videos: opening.videos.prepare('admin_users_page_videos'),
    count: db.select({ total: userProfileCount.profiles }).from(userProfileCount).prepare('admin_users_count'),
    byIds: found.people.prepare('admin_users_by_ids'),
  };
});

interface JsonOf {
  id: string;
  json: string;
}

/**
 * Each profile's JSON object with its videos as a last field (the object's closing "}" gives way).
 * The two statements see the table a moment apart: a profile added or removed between them moves
 * the page, so whoever `videos` missed gets their videos read again.
 */
export async function withVideos(db: Db, people: JsonOf[], videos: JsonOf[]): Promise<string[]> {
  const videosOf = new Map(videos.map((v) => [v.id, v.json]));
  const missed = people.filter((p) => !videosOf.has(p.id)).map((p) => p.id);
  if (missed.length) {
    const found = await db.select({ id: userProfiles.id, json: sql<string>`${videosJson(userProfiles.id)}::text` }).from(userProfiles).where(inArray(userProfiles.id, missed));
    for (const v of found) videosOf.set(v.id, v.json);
  }
  return people.map((p) => `${p.json.slice(0, -1)},"videos":${videosOf.get(p.id) ?? '[]'}}`);
}

/**
 * The page as JSON text, ready to send (see usersPage). A search or a filter counts what it finds
 * and finds its page, side by side, each planned for what it does: a search that matches most
 * users walks the name index for the page and stops at its end, one that matches few finds them
 * by the trigram index.
 */
export async function listUsersJson(db: Db, query: UsersQuery): Promise<string> {
  // search_text: a generated column of the name, e-mail and phone (migration 0004).
  const search = query.q ? sql`${userProfiles}.search_text LIKE ${containing(query.q)} ESCAPE '\\'` : undefined;
  const held = heldCondition(query.filters);
  const where = and(search, held && sql`${userProfiles.id} IN (SELECT ${userListTallies.userId} FROM ${userListTallies} WHERE ${held})`);
  const offset = (query.page - 1) * USERS_PAGE_SIZE;
  const answer = (total: number, users: string[]) =>
    `{"total":${total},"page":${query.page},"pageSize":${USERS_PAGE_SIZE},"users":[${users.join(',')}]}`;
  const statements = pageStatements(db);
  if (where || offset) {
    const count = search
      ? db.select({ total: sql<number>`count(*)::int` }).from(userProfiles).where(where)
      : held
        ? // Filters alone count the tallies themselves: each is one profile's, as every user has a
          // profile (made with the user, migration 0001, and removed only with them).
          db.select({ total: sql<number>`count(*)::int` }).from(userListTallies).where(held)
        : statements.count.execute();
    const pageIds = db.select({ id: userProfiles.id }).from(userProfiles).where(where).orderBy(...listOrder()).limit(written(USERS_PAGE_SIZE)).offset(written(offset));
    const [counted, people] = await Promise.all([
      count,
      pageIds.then((ids) => (ids.length ? statements.byIds.execute({ ids: ids.map((row) => row.id) }) : [])),
    ]);
    return answer(counted[0]!.total, people.map((p) => p.json));
  }
  const [counted, people, videos] = await Promise.all([statements.count.execute(), statements.people.execute(), statements.videos.execute()]);
  return answer(counted[0]!.total, await withVideos(db, people, videos));
}

/** The portal's four counts. Orders count when they are paid (completed). */
export async function portalStats(db: Db) {
  const weekAgo = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
  const count = async (q: Promise<Array<{ n: number }>>) => (await q)[0]?.n ?? 0;
  // Families only: the provider's own admins are not users of the product.
  const family = sql`not exists (select 1 from ${admins} where ${admins.userId} = ${user.id})`;
  const [totalUsers, newThisWeek, totalOrders, recentOrders] = await Promise.all([
    count(db.select({ n: sql<number>`count(*)::int` }).from(user).where(family)),
    count(db.select({ n: sql<number>`count(*)::int` }).from(user).where(and(family, gte(user.createdAt, weekAgo)))),
    count(db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.status, 'completed'))),
    count(db.select({ n: sql<number>`count(*)::int` }).from(orders).where(and(eq(orders.status, 'completed'), gte(orders.createdAt, weekAgo)))),
  ]);
  return { totalUsers, newThisWeek, totalOrders, recentOrders, paidWaiting: await paidWaiting(db), queue: await queueCounts(db) };
}

/** How many paid requests the portal lists by name; the count says how many there are in all. */
const PAID_WAITING_SHOWN = 10;

/**
 * Requests a family has paid for and the team has not delivered yet, the longest waiting first
 * (issue 34, item 3): money is in and someone has to act.
 */
export async function paidWaiting(db: Db) {
  const paidAt = sql<Date>`coalesce(${orders.completedAt}, ${orders.createdAt})`;
  const waiting = and(eq(orders.status, 'completed'), sql`${highlightRequests.status} <> 'delivered'`);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        requestId: highlightRequests.id,
        event: highlightRequests.event,
        email: userProfiles.email,
        firstName: userProfiles.firstName,
        lastName: userProfiles.lastName,
        fromFootage: reelFactColumns.fromFootage,
        paidAt: sql<string>`to_char(${paidAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      })
      .from(orders)
      .innerJoin(highlightRequests, eq(highlightRequests.id, orders.requestId))
      .innerJoin(userProfiles, eq(userProfiles.id, highlightRequests.userId))
      .where(waiting)
      .orderBy(asc(paidAt))
      .limit(PAID_WAITING_SHOWN),
    db.select({ n: sql<number>`count(*)::int` }).from(orders).innerJoin(highlightRequests, eq(highlightRequests.id, orders.requestId)).where(waiting),
  ]);
  return { count: counted?.n ?? 0, oldest: rows };
}
