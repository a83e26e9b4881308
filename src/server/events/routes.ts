// GET /api/events: the events a reel can be requested for, each with its games in order.
import { Hono } from 'hono';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { eventGames, events } from '../db/schema';
import type { AppDeps } from '../deps';

export async function listActiveEvents(db: Db) {
  const rows = await db.select().from(events).where(eq(events.isActive, true)).orderBy(asc(events.startsOn), asc(events.name));
  const games = await db.select().from(eventGames).orderBy(asc(eventGames.position));
  return rows.map((e) => ({
    id: e.id,
    name: e.name,
    location: e.location,
    dates: e.dates,
    games: games.filter((g) => g.eventId === e.id).map((g) => ({ id: g.id, label: g.label })),
  }));
}
export type EventDto = Awaited<ReturnType<typeof listActiveEvents>>[number];

export function eventRoutes(deps: AppDeps) {
  return new Hono().get('/', async (c) => c.json(await listActiveEvents(deps.db)));
}
