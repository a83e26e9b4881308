// An event's teams and rosters (issue 35, item 1): listing them, importing a roster file whole
// (a team or number already there is updated, nothing is removed), and removing a team.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { eventTeams, rosterEntries } from '../db/schema';
import type { RosterRow } from './csv';

export interface RosterTeam {
  id: string;
  name: string;
  kitColor: string | null;
  numberColor: string | null;
  awayKitColor: string | null;
  awayNumberColor: string | null;
  athletes: Array<{ id: string; name: string; number: number }>;
}

export async function listRoster(db: Db, eventId: string): Promise<RosterTeam[]> {
  const teams = await db.select().from(eventTeams).where(eq(eventTeams.eventId, eventId)).orderBy(asc(sql`lower(${eventTeams.name})`));
  if (!teams.length) return [];
  const entries = await db
    .select()
    .from(rosterEntries)
    .where(inArray(rosterEntries.teamId, teams.map((t) => t.id)))
    .orderBy(asc(rosterEntries.jerseyNumber));
  return teams.map((t) => ({
    id: t.id,
    name: t.name,
    kitColor: t.kitColor,
    numberColor: t.numberColor,
    awayKitColor: t.awayKitColor,
    awayNumberColor: t.awayNumberColor,
    athletes: entries.filter((e) => e.teamId === t.id).map((e) => ({ id: e.id, name: e.athleteName, number: e.jerseyNumber })),
  }));
}

/** Applies a checked roster file in one transaction; what it added and updated. */
export async function importRoster(db: Db, eventId: string, rows: RosterRow[]): Promise<{ teams: number; added: number; updated: number }> {
  return db.transaction(async (tx) => {
    const teamIds = new Map<string, string>();
    let added = 0;
    let updated = 0;
    for (const row of rows) {
      const key = row.team.toLowerCase();
      let teamId = teamIds.get(key);
      const kit = { kitColor: row.kitColor, numberColor: row.numberColor, awayKitColor: row.awayKitColor, awayNumberColor: row.awayNumberColor };
      const given = Object.fromEntries(Object.entries(kit).filter(([, v]) => v !== null));
      if (!teamId) {
        const [existing] = await tx
          .select({ id: eventTeams.id })
          .from(eventTeams)
          .where(and(eq(eventTeams.eventId, eventId), sql`lower(${eventTeams.name}) = ${key}`));
        teamId = existing ? existing.id : (await tx.insert(eventTeams).values({ eventId, name: row.team, ...kit }).returning({ id: eventTeams.id }))[0]!.id;
        teamIds.set(key, teamId);
        if (existing && Object.keys(given).length) await tx.update(eventTeams).set(given).where(eq(eventTeams.id, teamId));
      } else if (Object.keys(given).length) {
        await tx.update(eventTeams).set(given).where(eq(eventTeams.id, teamId));
      }
      const [before] = await tx
        .select({ id: rosterEntries.id })
        .from(rosterEntries)
        .where(and(eq(rosterEntries.teamId, teamId), eq(rosterEntries.jerseyNumber, row.number)));
      if (before) {
        await tx.update(rosterEntries).set({ athleteName: row.name }).where(eq(rosterEntries.id, before.id));
        updated++;
      } else {
        await tx.insert(rosterEntries).values({ teamId, athleteName: row.name, jerseyNumber: row.number });
        added++;
      }
    }
    return { teams: teamIds.size, added, updated };
  });
}

/** Removes a team of the event with its roster; false when there was none. */
export async function removeTeam(db: Db, eventId: string, teamId: string): Promise<boolean> {
  const rows = await db.delete(eventTeams).where(and(eq(eventTeams.id, teamId), eq(eventTeams.eventId, eventId))).returning({ id: eventTeams.id });
  return rows.length > 0;
}
