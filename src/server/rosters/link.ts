// A request's link to the event's roster (issue 35, item 1): the family names the team and the
// number on the shirt, and the request points at that roster entry. A link is doubtful when there
// is no such entry, when another family claims the same one, or when the athlete's face is about
// as close to another family's athlete (matching's lookalike). At an event with rosters, a request
// is bought only when its link is sure or an admin confirmed it: a stranger with another child's
// photo cannot buy that child's reel.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { eventTeams, highlightRequests, rosterEntries, userProfiles } from '../db/schema';

export type RosterDoubt = 'no_entry' | 'claimed_twice' | 'lookalike';

/** The names of the teams playing at an event: what a family chooses from (never the roster's athletes). */
export async function eventTeamNames(db: Db, eventIds: string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (!eventIds.length) return names;
  const rows = await db
    .select({ eventId: eventTeams.eventId, name: eventTeams.name })
    .from(eventTeams)
    .where(inArray(eventTeams.eventId, eventIds))
    .orderBy(sql`lower(${eventTeams.name})`);
  for (const r of rows) names.set(r.eventId, [...(names.get(r.eventId) ?? []), r.name]);
  return names;
}

/** The team as the event spells it and the entry its number names, if any. */
export async function findRosterEntry(db: Db, eventId: string, team: string, number: number): Promise<{ teamName: string; entryId: string | null } | null> {
  const [found] = await db
    .select({ teamId: eventTeams.id, teamName: eventTeams.name })
    .from(eventTeams)
    .where(and(eq(eventTeams.eventId, eventId), sql`lower(${eventTeams.name}) = ${team.trim().toLowerCase()}`));
  if (!found) return null;
  const [entry] = await db
    .select({ id: rosterEntries.id })
    .from(rosterEntries)
    .where(and(eq(rosterEntries.teamId, found.teamId), eq(rosterEntries.jerseyNumber, number)));
  return { teamName: found.teamName, entryId: entry?.id ?? null };
}

type LinkFields = Pick<typeof highlightRequests.$inferSelect, 'id' | 'userId' | 'eventId' | 'teamName' | 'rosterEntryId' | 'rosterConfirmedAt' | 'lookalike'>;

/**
 * What makes a request's link doubtful; none at an event without rosters, and none for a request
 * made before its event had them (it names no team: the admin's approval was its check).
 */
export async function rosterDoubts(db: Db, request: LinkFields): Promise<RosterDoubt[]> {
  if (!request.eventId || request.teamName === null || !(await eventTeamNames(db, [request.eventId])).size) return [];
  if (!request.rosterEntryId) return ['no_entry'];
  const doubts: RosterDoubt[] = [];
  // Another family's request names the same athlete (a family's own athletes are never one entry twice).
  const family = sql`coalesce((select p.family_id from ${userProfiles} p where p.id = ${highlightRequests.userId}), ${highlightRequests.userId})`;
  const mine = sql`coalesce((select p.family_id from ${userProfiles} p where p.id = ${request.userId}), ${request.userId})`;
  const [other] = await db
    .select({ id: highlightRequests.id })
    .from(highlightRequests)
    .where(and(eq(highlightRequests.rosterEntryId, request.rosterEntryId), ne(highlightRequests.id, request.id), sql`${family} <> ${mine}`))
    .limit(1);
  if (other) doubts.push('claimed_twice');
  if (request.lookalike) doubts.push('lookalike');
  return doubts;
}

/** Whether the roster lets this request be bought: a sure link, an admin's confirmation, or an event without rosters. */
export async function rosterAllowsPurchase(db: Db, request: LinkFields): Promise<boolean> {
  if (request.rosterConfirmedAt) return true;
  return (await rosterDoubts(db, request)).length === 0;
}
