// GET /api/events: the events a reel can be requested for, each with its games in order; for
// signed-in families (the request form), as private as the rest of the dashboard.
import { Hono } from 'hono';
import { asc, eq } from 'drizzle-orm';
import { requireUser, type ViewerEnv } from '../auth/session';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { eventGames, events } from '../db/schema';
import type { AppDeps } from '../deps';

/** Active events with their games, one row per game (or one with no game), in the list's order. */
const activeEventsWithGames = preparedQuery((db) =>
  db
    .select({ event: events, gameId: eventGames.id, gameLabel: eventGames.label })
    .from(events)
    .leftJoin(eventGames, eq(eventGames.eventId, events.id))
    .where(eq(events.isActive, true))
    .orderBy(asc(events.startsOn), asc(events.name), asc(events.id), asc(eventGames.position))
    .prepare('active_events_with_games'),
);

export async function listActiveEvents(db: Db) {
  const list = new Map<string, { id: string; name: string; location: string; dates: string; games: Array<{ id: string; label: string }> }>();
  for (const { event: e, gameId, gameLabel } of await activeEventsWithGames(db).execute()) {
    let entry = list.get(e.id);
    if (!entry) list.set(e.id, (entry = { id: e.id, name: e.name, location: e.location, dates: e.dates, games: [] }));
    if (gameId !== null) entry.games.push({ id: gameId, label: gameLabel! });
  }
  return [...list.values()];
}
export type EventDto = Awaited<ReturnType<typeof listActiveEvents>>[number];

export function eventRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).get('/', async (c) => c.json(await listActiveEvents(deps.db)));
}
