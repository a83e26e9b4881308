// GET /api/events: the events a reel can be requested for, each with its games in order and how
// its reels are made (from footage, or by hand); for
// signed-in families (the request form), as private as the rest of the dashboard.
import { Hono } from 'hono';
import { asc, eq, sql } from 'drizzle-orm';
import { requireUser, type ViewerEnv } from '../auth/session';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { eventGames, events } from '../db/schema';
import type { AppDeps } from '../deps';
import { eventTeamNames } from '../rosters/link';

/** Active events with their games, one row per game (or one with no game), in the list's order. */
const activeEventsWithGames = preparedQuery((db) =>
  db
    .select({
      event: events,
      // As reel-progress.ts decides: footage in makes any event's reels come from footage.
      footageIn: sql<boolean>`exists (select 1 from footage f where f.event_id = ${events.id})`,
      gameId: eventGames.id,
      gameLabel: eventGames.label,
    })
    .from(events)
    .leftJoin(eventGames, eq(eventGames.eventId, events.id))
    .where(eq(events.isActive, true))
    .orderBy(asc(events.startsOn), asc(events.name), asc(events.id), asc(eventGames.position))
    .prepare('active_events_with_games'),
);

export async function listActiveEvents(db: Db) {
  type Entry = { id: string; name: string; location: string; dates: string; reelsFrom: 'footage' | 'hand'; demo: boolean; games: Array<{ id: string; label: string }> };
  const list = new Map<string, Entry>();
  for (const { event: e, footageIn, gameId, gameLabel } of await activeEventsWithGames(db).execute()) {
    let entry = list.get(e.id);
    const reelsFrom = footageIn || e.reelSource === 'footage' ? 'footage' : 'hand';
    if (!entry) list.set(e.id, (entry = { id: e.id, name: e.name, location: e.location, dates: e.dates, reelsFrom, demo: e.demo, games: [] }));
    if (gameId !== null) entry.games.push({ id: gameId, label: gameLabel! });
  }
  // The teams of events with rosters, by name only: the request form's choice (issue 35, item 1).
  const teams = await eventTeamNames(db, [...list.keys()]);
  return [...list.values()].map((e) => ({ ...e, teams: teams.get(e.id) ?? [] }));
}
export type EventDto = Awaited<ReturnType<typeof listActiveEvents>>[number];

export function eventRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).get('/', async (c) => c.json(await listActiveEvents(deps.db)));
}
