// Highlight-reel requests from athletes: validated against the event's games, one open request
// per event, stored first and then mailed to the team.
import { and, desc, eq, inArray } from 'drizzle-orm';
import { REQUEST } from '../../common/messages';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { highlightRequests, userProfiles } from '../db/schema';
import { listActiveEvents } from '../events/routes';
import type { Mailer } from '../mail/mailer';
import { highlightRequestMail } from '../mail/templates';
import type { EventBus } from '../realtime/bus';

export class RequestRejected extends Error {
  constructor(
    readonly code: 'EVENT_REQUIRED' | 'GAMES_REQUIRED' | 'UNKNOWN_EVENT' | 'UNKNOWN_GAME' | 'ALREADY_OPEN',
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
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function listRequests(db: Db, userId: string) {
  return db.select().from(highlightRequests).where(eq(highlightRequests.userId, userId)).orderBy(desc(highlightRequests.createdAt));
}

export async function createRequest(
  deps: { db: Db; mailer: Mailer; bus: EventBus },
  userId: string,
  input: { eventId: string; games: string[] },
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
      .values({ userId, eventId: event.id, event: `${event.name} (${event.location}, ${event.dates})`, games: labels as string[] })
      .returning()) as [RequestRow];
  } catch (error) {
    // Two submits at once: the partial unique index lets only one through.
    if (isUniqueViolation(error)) throw new RequestRejected('ALREADY_OPEN', REQUEST.alreadyOpen, REQUEST.failedTitle);
    throw error;
  }
  await deps.bus.publish({ topic: 'highlight_requests', userId, action: 'insert', id: row.id });

  const [profile] = await deps.db.select().from(userProfiles).where(eq(userProfiles.id, userId));
  try {
    await deps.mailer.send(
      highlightRequestMail({
        profile: {
          first_name: profile?.firstName ?? '',
          last_name: profile?.lastName ?? '',
          email: profile?.email ?? '',
          team_name: profile?.teamName ?? null,
          jersey_number: profile?.jerseyNumber ?? null,
        },
        event: row.event,
        games: row.games,
      }),
    );
  } catch (error) {
    // The request is stored and shows in the admin list; the mail is only a heads-up.
    console.error('[requests] team notification failed for', row.id, (error as Error).message);
  }
  return row;
}
