// Sample events for trying the product: `npm run seed:demo` adds them, a fresh install has none
// (issue 34, item 3). They are marked demo and made by hand, so a family trying them out follows
// the flow that needs no footage; adding them twice changes nothing.
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { eventGames, events } from '../db/schema';

export const DEMO_EVENTS = [
  {
    id: 'austin-fall-league-2024',
    name: 'Austin Fall League',
    location: 'Austin, TX',
    dates: 'Oct 18-19',
    startsOn: '2024-10-18',
    games: [
      'Saturday Court 1: Austin Elite vs Round Rock Rebels',
      'Saturday Court 1: Cedar Park Cougars vs Lakeway Lightning',
      'Saturday Court 1: Pflugerville Panthers vs Georgetown Giants',
      'Saturday Court 1: Austin Elite vs Cedar Park Cougars',
      'Saturday Court 1: Round Rock Rebels vs Lakeway Lightning',
      'Sunday Court 1: Georgetown Giants vs Austin Elite',
      'Sunday Court 1: Lakeway Lightning vs Pflugerville Panthers',
      'Sunday Court 1: Cedar Park Cougars vs Round Rock Rebels',
      'Sunday Court 1: Semifinal',
      'Sunday Court 1: Championship',
    ],
  },
  { id: 'chicago-3v3-2024', name: 'Chicago 3v3', location: 'Chicago, IL', dates: 'Nov 9', startsOn: '2024-11-09', games: [] },
] as const;

/** The game ids of the first demo event, as they have always been (austin-sat-1 … austin-sun-5). */
function gameId(position: number): string {
  return position <= 5 ? `austin-sat-${position}` : `austin-sun-${position - 5}`;
}

/** Adds the demo events that are not there yet; returns the names of those it added. */
export async function seedDemoEvents(db: Db): Promise<string[]> {
  const present = new Set(
    (await db.select({ id: events.id }).from(events).where(inArray(events.id, DEMO_EVENTS.map((e) => e.id)))).map((e) => e.id),
  );
  const added: string[] = [];
  for (const demo of DEMO_EVENTS) {
    if (present.has(demo.id)) continue;
    await db.transaction(async (tx) => {
      const { games, ...event } = demo;
      await tx.insert(events).values({ ...event, reelSource: 'hand', demo: true }).onConflictDoNothing();
      if (games.length) {
        await tx
          .insert(eventGames)
          .values(games.map((label, i) => ({ id: gameId(i + 1), eventId: demo.id, label, position: i + 1 })))
          .onConflictDoNothing();
      }
    });
    added.push(demo.name);
  }
  return added;
}
