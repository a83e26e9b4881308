// A family (decision 0036): the signed-in account and the athletes it holds. The account's own
// profile is its first athlete; every athlete added from the dashboard is a profile whose
// family_id is the account's id, on a user row that cannot sign in. Everything an athlete has
// (requests, references, consents, videos, stills, share links, orders) hangs from that athlete's
// id as it always did, so the switcher only decides which athlete a request acts for.
import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userProfiles } from '../db/schema';
import type { Viewer } from '../auth/session';

/** The switcher's cookie: which of the family's athletes the dashboard is on. */
export const ATHLETE_COOKIE = 'gat_athlete';

/** The Set-Cookie value that puts the dashboard on this athlete (a year: the family's last choice stays). */
export function athleteCookie(athleteId: string, secure: boolean): string {
  return `${ATHLETE_COOKIE}=${athleteId}; Path=/; Max-Age=${365 * 24 * 3600}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Ids of the athletes the account added, oldest first. */
export async function addedAthleteIds(db: Db, accountId: string): Promise<string[]> {
  return (await familyShape(db, accountId)).addedIds;
}

/** The athletes the account added (oldest first), and whether its own athlete was erased on its own. */
export async function familyShape(db: Db, accountId: string): Promise<{ addedIds: string[]; ownErased: boolean }> {
  const rows = await db
    .select({ id: userProfiles.id, erasedAt: userProfiles.ownAthleteErasedAt })
    .from(userProfiles)
    .where(or(eq(userProfiles.id, accountId), eq(userProfiles.familyId, accountId)))
    .orderBy(asc(userProfiles.createdAt), asc(userProfiles.id));
  return {
    addedIds: rows.filter((r) => r.id !== accountId).map((r) => r.id),
    ownErased: rows.some((r) => r.id === accountId && r.erasedAt !== null),
  };
}

/** The cookie's athlete id, as sent. */
export function chosenAthleteId(headers: Headers): string | null {
  const match = headers.get('cookie')?.match(new RegExp(`(?:^|;\\s*)${ATHLETE_COOKIE}=([A-Za-z0-9_-]{1,64})`));
  return match?.[1] ?? null;
}

/**
 * The viewer acting for the athlete the switcher chose, when that athlete is of this family;
 * otherwise for the account's own profile. A cookie naming another family's athlete changes nothing.
 */
export async function actingFor(db: Db, viewer: Viewer, headers: Headers): Promise<Viewer> {
  const chosen = chosenAthleteId(headers);
  // The account's own athlete erased on its own: the family's first added athlete stands in.
  const first = viewer.ownAthleteErased && viewer.familyAthleteIds[0] ? { ...viewer, userId: viewer.familyAthleteIds[0] } : viewer;
  if (!chosen || chosen === viewer.accountId) return first;
  if (viewer.familyAthleteIds.includes(chosen)) return { ...viewer, userId: chosen };
  // Added a moment ago, past the session cache: the database decides.
  if (viewer.isAdmin) return first;
  const [row] = await db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(and(eq(userProfiles.id, chosen), eq(userProfiles.familyId, viewer.accountId)));
  return row ? { ...viewer, userId: chosen, familyAthleteIds: [...viewer.familyAthleteIds, chosen] } : first;
}

/** The account that holds this athlete: the family's id. */
export async function holderOf(db: Db, athleteId: string): Promise<string> {
  const [row] = await db.select({ familyId: userProfiles.familyId }).from(userProfiles).where(eq(userProfiles.id, athleteId));
  return row?.familyId ?? athleteId;
}

export interface FamilyAthlete {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  hasHeadshot: boolean;
  /** The account's own profile: it goes only with the account. */
  own: boolean;
}

/** The family's athletes for the switcher: the account's own profile first, then those added. */
export async function familyAthletes(db: Db, accountId: string): Promise<FamilyAthlete[]> {
  const columns = {
    id: userProfiles.id,
    firstName: userProfiles.firstName,
    lastName: userProfiles.lastName,
    dateOfBirth: userProfiles.dateOfBirth,
    avatarUrl: userProfiles.avatarUrl,
  };
  // The account's own athlete, unless it was erased on its own.
  const own = await db.select(columns).from(userProfiles).where(and(eq(userProfiles.id, accountId), isNull(userProfiles.ownAthleteErasedAt)));
  const added = await db.select(columns).from(userProfiles).where(eq(userProfiles.familyId, accountId)).orderBy(asc(userProfiles.createdAt));
  return [...own.map((r) => ({ ...r, own: true })), ...added.map((r) => ({ ...r, own: false }))].map(({ avatarUrl, ...r }) => ({ ...r, hasHeadshot: Boolean(avatarUrl) }));
}

export interface Addressee {
  /** The family's address: the holder's. */
  email: string;
  /** Whom the mail greets: the holder by their first name (a parent), or the athlete who holds the account. */
  greeting: string;
  /** The athlete the mail is about. */
  athleteName: string;
  /** The dashboard on this athlete: a family of several opens it on the athlete the mail is about. */
  dashboardPath: string;
}

/** Who a mail about this athlete goes to and greets: always the account holder (issue 34, item 1). */
export async function addresseeOf(db: Db, athleteId: string): Promise<Addressee | null> {
  const columns = { firstName: userProfiles.firstName, email: userProfiles.email, familyId: userProfiles.familyId, holderName: userProfiles.holderName };
  const [athlete] = await db.select(columns).from(userProfiles).where(eq(userProfiles.id, athleteId));
  if (!athlete) return null;
  const [holder] = athlete.familyId ? await db.select(columns).from(userProfiles).where(eq(userProfiles.id, athlete.familyId)) : [athlete];
  if (!holder?.email) return null;
  const holderFirst = holder.holderName?.trim().split(/\s+/)[0];
  const several = athlete.familyId !== null || (await addedAthleteIds(db, athleteId)).length > 0;
  return {
    email: holder.email,
    greeting: holderFirst || holder.firstName,
    athleteName: athlete.firstName,
    dashboardPath: several ? `/dashboard?athlete=${encodeURIComponent(athleteId)}` : '/dashboard',
  };
}
