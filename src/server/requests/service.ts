// Highlight-reel requests from athletes: validated against the event's games, one open request
// per event, stored first and then mailed to the team, and to the family with what happens next
// and the price.
import { and, eq, inArray, notExists } from 'drizzle-orm';
import { REQUEST } from '../../common/dashboard-messages';
import { ADMIN } from '../../common/admin-messages';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { isUniqueViolation, isUuid } from '../db/errors';
import { highlightRequests, orders, userProfiles } from '../db/schema';
import { addresseeOf } from '../family/members';
import { eventTeamNames, findRosterEntry } from '../rosters/link';
import { listActiveEvents } from '../events/routes';
import type { Mailer } from '../mail/mailer';
import { highlightRequestText, requestReceivedMail } from '../mail/templates';
import { tellTeam } from '../team/notices';
import type { Config } from '../config';
import { jobIdFor, type JobQueue } from '../jobs/queue';
import type { EventBus } from '../realtime/bus';
import type { AppDeps } from '../deps';
import { announceReadyToPurchase } from './reel-progress';

export class RequestRejected extends Error {
  constructor(
    readonly code: 'EVENT_REQUIRED' | 'GAMES_REQUIRED' | 'UNKNOWN_EVENT' | 'UNKNOWN_GAME' | 'ALREADY_OPEN' | 'TEAM_REQUIRED' | 'UNKNOWN_TEAM' | 'NUMBER_REQUIRED',
    message: string,
    readonly title?: string,
  ) {
    super(message);
  }
}

export type RequestRow = typeof highlightRequests.$inferSelect;

export function toRequestDto(r: RequestRow) {
  return {
    id: r.id,
    status: r.status,
    eventId: r.eventId,
    event: r.event,
    games: r.games,
    /** The team and number named at an event with rosters; null elsewhere. */
    team: r.teamName,
    jerseyNumber: r.jerseyNumber,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * At an event with rosters, the team and number the family named and the roster entry they find
 * (null when none: a doubtful link for the review; rosters/link.ts). Elsewhere nothing.
 */
async function rosterLinkOf(db: Db, eventId: string, input: { team?: string | null; jerseyNumber?: number | null }) {
  if (!(await eventTeamNames(db, [eventId])).size) return {};
  if (!input.team) throw new RequestRejected('TEAM_REQUIRED', REQUEST.teamRequired, REQUEST.failedTitle);
  if (input.jerseyNumber === undefined || input.jerseyNumber === null) throw new RequestRejected('NUMBER_REQUIRED', REQUEST.numberRequired, REQUEST.failedTitle);
  const found = await findRosterEntry(db, eventId, input.team, input.jerseyNumber);
  if (!found) throw new RequestRejected('UNKNOWN_TEAM', REQUEST.unknownTeam, REQUEST.failedTitle);
  return { teamName: found.teamName, jerseyNumber: input.jerseyNumber, rosterEntryId: found.entryId };
}

export async function createRequest(
  deps: { db: Db; mailer: Mailer; bus: EventBus; config: Pick<Config, 'baseUrl' | 'team'> },
  userId: string,
  input: { eventId: string; games: string[]; team?: string | null; jerseyNumber?: number | null },
): Promise<RequestRow> {
  if (!input.eventId) throw new RequestRejected('EVENT_REQUIRED', REQUEST.eventRequired.description, REQUEST.eventRequired.title);
  const event = (await listActiveEvents(deps.db)).find((e) => e.id === input.eventId);
  if (!event) throw new RequestRejected('UNKNOWN_EVENT', REQUEST.unknownEvent, REQUEST.failedTitle);
  const games = [...new Set(input.games)];
  if (event.games.length > 0 && games.length === 0) {
    throw new RequestRejected('GAMES_REQUIRED', REQUEST.gamesRequired.description, REQUEST.gamesRequired.title);
  }
  const labels = games.map((id) => event.games.find((g) => g.id === id)?.label);
  if (labels.some((l) => !l)) throw new RequestRejected('UNKNOWN_GAME', REQUEST.unknownGame, REQUEST.failedTitle);
  const roster = await rosterLinkOf(deps.db, event.id, input);

  const [open] = await deps.db
    .select({ id: highlightRequests.id })
    .from(highlightRequests)
    .where(
      and(
        eq(highlightRequests.userId, userId),
        eq(highlightRequests.eventId, event.id),
        inArray(highlightRequests.status, ['pending', 'ready_to_purchase']),
      ),
    )
    .limit(1);
  if (open) throw new RequestRejected('ALREADY_OPEN', REQUEST.alreadyOpen, REQUEST.failedTitle);

  let row: RequestRow;
  try {
    [row] = (await deps.db
      .insert(highlightRequests)
      .values({ userId, eventId: event.id, event: `${event.name} (${event.location}, ${event.dates})`, games: labels as string[], ...roster })
      .returning()) as [RequestRow];
  } catch (error) {
    // Two submits at once: the partial unique index lets only one through.
    if (isUniqueViolation(error)) throw new RequestRejected('ALREADY_OPEN', REQUEST.alreadyOpen, REQUEST.failedTitle);
    throw error;
  }
  await deps.bus.publish({ topic: 'highlight_requests', userId, action: 'insert', id: row.id });

  const [profile] = await deps.db.select().from(userProfiles).where(eq(userProfiles.id, userId));
  try {
    const text = highlightRequestText({
      profile: {
        first_name: profile?.firstName ?? '',
        last_name: profile?.lastName ?? '',
        email: profile?.email ?? '',
        team_name: profile?.teamName ?? null,
        jersey_number: profile?.jerseyNumber ?? null,
      },
      event: row.event,
      games: row.games,
    });
    await tellTeam(deps, { key: `request:${row.id}`, kind: 'request', ...text, link: `${deps.config.baseUrl}/admin/requests/${row.id}`, replyTo: profile?.email ?? null, userId });
  } catch (error) {
    // The request is stored and shows in the admin list; the mail is only a heads-up.
    console.error('[requests] team notification failed for', row.id, (error as Error).message);
  }
  const addressee = await addresseeOf(deps.db, userId);
  if (addressee) {
    try {
      await deps.mailer.send(
        requestReceivedMail({ to: addressee.email, firstName: addressee.greeting, athleteName: addressee.athleteName, event: row.event, games: row.games, dashboardUrl: `${deps.config.baseUrl}${addressee.dashboardPath}` }),
        { id: jobIdFor(`request-received:${row.id}`) },
      );
    } catch (error) {
      console.error('[requests] confirmation mail failed for', row.id, (error as Error).message);
    }
  }
  return row;
}

/**
 * The admin's moves on a request (spec section 4): Request Received (pending → ready to
 * purchase, recording who and when), Undo Approval (back to pending, clearing them) and Reels
 * Delivered (ready to purchase → delivered). Each is one conditional update, so a move that no
 * longer fits the request's state (a second admin was faster) changes nothing.
 */
export const REQUEST_TRANSITIONS = {
  acknowledge: { from: 'pending', to: 'ready_to_purchase' },
  undo: { from: 'ready_to_purchase', to: 'pending' },
  deliver: { from: 'ready_to_purchase', to: 'delivered' },
} as const;
export type RequestTransition = keyof typeof REQUEST_TRANSITIONS;

export class TransitionRefused extends Error {
  constructor(readonly code: 'NOT_FOUND' | 'STATE_CHANGED' | 'PAID', message: string) {
    super(message);
  }
}

export async function transitionRequest(
  deps: { db: Db; bus: EventBus; jobs: JobQueue } & Pick<AppDeps, 'mailer' | 'config'>,
  requestId: string,
  move: RequestTransition,
  adminId: string,
): Promise<RequestRow> {
  const { from, to } = REQUEST_TRANSITIONS[move];
  const now = new Date();
  const acknowledgement =
    move === 'acknowledge'
      ? // In the same write as the approval: the review reads "Matching…" until the job's result.
        { adminAcknowledgedAt: now, adminAcknowledgedBy: adminId, matchingState: 'matching' }
      : move === 'undo'
        ? { adminAcknowledgedAt: null, adminAcknowledgedBy: null }
        : {};
  const [row] = isUuid(requestId)
    ? await deps.db
        .update(highlightRequests)
        .set({ status: to, updatedAt: now, ...acknowledgement })
        .where(
          and(
            eq(highlightRequests.id, requestId),
            eq(highlightRequests.status, from),
            // A request the family has paid for does not go back to waiting for approval.
            move === 'undo' ? notExists(deps.db.select({ id: orders.id }).from(orders).where(and(eq(orders.requestId, requestId), eq(orders.status, 'completed')))) : undefined,
          ),
        )
        .returning()
    : [];
  if (!row) {
    const [exists] = isUuid(requestId) ? await deps.db.select({ status: highlightRequests.status }).from(highlightRequests).where(eq(highlightRequests.id, requestId)) : [];
    if (!exists) throw new TransitionRefused('NOT_FOUND', ADMIN.requestToasts.notFound);
    throw move === 'undo' && exists.status === from
      ? new TransitionRefused('PAID', ADMIN.requestToasts.paid)
      : new TransitionRefused('STATE_CHANGED', ADMIN.requestToasts.changed);
  }
  await audit(deps.db, { actorId: adminId, action: `request.${move}`, subjectUserId: row.userId, details: { requestId, from, to } });
  await deps.bus.publish({ topic: 'highlight_requests', userId: row.userId, action: 'update', id: row.id });
  // Approval starts the search for the athlete in the event's footage (faces/matching.ts).
  if (move === 'acknowledge') {
    await deps.jobs.send('faces.match-request', { requestId: row.id });
    // Videos made by hand after payment: the family can buy now (a reel from footage waits for its preview).
    await announceReadyToPurchase(deps, row.id);
  }
  return row;
}
