// The event's teams as the person stages need them: each team's kit colours (to name a shirt's
// team, people/kit.ts) and what a request says its athlete wears (their team and number, and
// whether that number is theirs alone at the event).
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { eventTeams, rosterEntries, userProfiles } from '../db/schema';
import type { AthleteShirt } from './decide';
import type { TeamKits } from './kit';

/** The event's teams that have a kit colour, with their colours (home and away). */
export async function eventTeamKits(db: Db, eventId: string): Promise<TeamKits[]> {
  const rows = await db.select().from(eventTeams).where(eq(eventTeams.eventId, eventId));
  return kitsOf(rows);
}

function kitsOf(rows: Array<typeof eventTeams.$inferSelect>): TeamKits[] {
  return rows
    .map((t) => ({ teamId: t.id, colours: [t.kitColor, t.awayKitColor].filter((c): c is string => Boolean(c)) }))
    .filter((t) => t.colours.length);
}

/**
 * The athlete's shirt, when the event has teams and the request (or the profile) names one of them
 * and a number: the team's id, the number, and every team's kit colours. The number is the
 * athlete's alone when every team of the event has a roster and no other team lists it.
 */
export async function athleteShirtOf(db: Db, eventId: string, teamName: string | null, number: number | null): Promise<{ athlete: AthleteShirt; teams: TeamKits[] } | null> {
  if (!teamName || number === null) return null;
  const rows = await db.select().from(eventTeams).where(eq(eventTeams.eventId, eventId));
  const team = rows.find((t) => t.name.toLowerCase() === teamName.toLowerCase());
  if (!team) return null;
  const roster = await db
    .select({ teamId: rosterEntries.teamId, number: rosterEntries.jerseyNumber })
    .from(rosterEntries)
    .where(inArray(rosterEntries.teamId, rows.map((t) => t.id)));
  const rostered = new Set(roster.map((r) => r.teamId));
  const numberUnique = rows.every((t) => rostered.has(t.id)) && !roster.some((r) => r.teamId !== team.id && r.number === number);
  return { athlete: { teamId: team.id, number, numberUnique }, teams: kitsOf(rows) };
}

/** The shirt a request's athlete wears: the request's team and number, else their profile's. */
export async function shirtOfRequest(db: Db, request: { eventId: string | null; userId: string; teamName: string | null; jerseyNumber: number | null }) {
  if (!request.eventId) return null;
  const [profile] = await db.select({ teamName: userProfiles.teamName, jerseyNumber: userProfiles.jerseyNumber }).from(userProfiles).where(eq(userProfiles.id, request.userId));
  return athleteShirtOf(db, request.eventId, request.teamName ?? profile?.teamName ?? null, request.jerseyNumber ?? profile?.jerseyNumber ?? null);
}
