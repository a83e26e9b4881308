// The family's own requests as their dashboard shows them: each with whether it is paid and where
// its reel stands, in one statement. Served alone by GET /api/requests and within GET /api/dashboard.
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { highlightRequests } from '../db/schema';
import { requestPaidColumn } from '../orders/queries';
import { progressFrom, reelFactColumns } from './reel-progress';
import { toRequestDto } from './service';
import { eventTeamNames, rosterAllowsPurchase } from '../rosters/link';

/** What came back on the request's orders, once the provider confirmed it: null when nothing did. */
const refundOfRequest = sql<{ amountCents: number; at: string; whole: boolean } | null>`(select json_build_object('amountCents', sum(f.amount)::int, 'at', max(f.confirmed_at), 'whole', bool_or(o.status = 'refunded'))
  from refunds f join orders o on o.id = f.order_id
  where o.request_id = highlight_requests.id and o.user_id = highlight_requests.user_id and f.status = 'succeeded' having count(*) > 0)`;

const requestsOfUser = preparedQuery((db) =>
  db
    .select({
      request: highlightRequests,
      paid: requestPaidColumn,
      refund: refundOfRequest,
      ...reelFactColumns,
    })
    .from(highlightRequests)
    .where(eq(highlightRequests.userId, sql.placeholder('userId')))
    .orderBy(desc(highlightRequests.createdAt))
    .prepare('family_requests_of_user'),
);

export async function familyRequests(db: Db, userId: string) {
  const rows = await requestsOfUser(db).execute({ userId });
  // At an event with rosters, a reel waits for a sure link or the team's confirmation (rosters/link.ts).
  const waiting = rows.filter(({ request, paid }) => request.status === 'ready_to_purchase' && !paid && request.eventId && !request.rosterConfirmedAt);
  const withRosters = await eventTeamNames(db, [...new Set(waiting.map(({ request }) => request.eventId!))]);
  const checking = new Set<string>();
  for (const { request } of waiting) if (withRosters.has(request.eventId!) && !(await rosterAllowsPurchase(db, request))) checking.add(request.id);
  return rows.map(({ request, paid, refund, ...facts }) => ({ ...toRequestDto(request), paid, refund: refund ?? null, reel: progressFrom(request, facts), rosterChecking: checking.has(request.id) }));
}
