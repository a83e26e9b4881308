// Erasing an account (issue 33): the family closing it, an admin for them, the command line, or
// an address never confirmed. Everything that names the person or shows the child goes at once:
// the rows (most by the foreign keys' cascade from `user`), the stored files under each of the
// user's storage folders, the face tracks their clips matched, waiting-list rows and contact
// messages from that address, and reset tokens. Orders stay as anonymous records for accounting
// (their user set to null, their checkout link dropped). A mail to the address says it is done.
// A family (decision 0036): erasing the account erases every athlete it added first; erasing an
// added athlete erases that athlete alone and tells the holder.
import { eq, inArray, lt, and, sql } from 'drizzle-orm';
import type { AppDeps } from '../deps';
import { audit } from '../audit/log';
import type { Auth } from '../auth/auth';
import {
  admins,
  athleteReferences,
  contactMessages,
  homepageSignups,
  highlightRequests,
  orders,
  parentalConsents,
  shareLinks,
  user,
  userProfiles,
  userStills,
  userVideos,
  verification,
} from '../db/schema';
import { deleteMatchedFaces } from '../faces/references';
import { accountErasedMail, athleteErasedMail } from '../mail/templates';
import { BUCKETS } from '../storage/keys';

/** Who asked: the account holder, an admin (by id), the command line, or the unconfirmed-account sweep. */
export type ErasedBy = { kind: 'self' } | { kind: 'admin'; adminId: string } | { kind: 'command line' } | { kind: 'unconfirmed' };

export type ErasureOutcome = { erased: true; email: string } | { erased: false; reason: 'not found' | 'admin' };

/** Erases the athletes the account added, each with its files; no mail for each: the family's says it all. */
async function eraseAddedAthletes(deps: Deps, accountId: string, by: ErasedBy): Promise<void> {
  const added = await deps.db.select({ id: userProfiles.id }).from(userProfiles).where(eq(userProfiles.familyId, accountId));
  for (const athlete of added) await eraseOne(deps, athlete.id, by, { mail: false });
}

/** Storage folders that hold a user's files: every bucket but game footage, which is the event's. */
export const USER_BUCKETS = BUCKETS.filter((b) => b !== 'game-footage');

// No live-update notice: the family's own open page would refetch and meet 401 before it steps
// aside, and the admin who erased refreshes their list themselves.
type Deps = Pick<AppDeps, 'db' | 'storage' | 'mailer'>;

export async function eraseAccount(deps: Deps, userId: string, by: ErasedBy): Promise<ErasureOutcome> {
  const [admin] = await deps.db.select({ id: admins.id }).from(admins).where(and(eq(admins.userId, userId), eq(admins.isActive, true))).limit(1);
  if (!admin) await eraseAddedAthletes(deps, userId, by);
  return eraseOne(deps, userId, by, { mail: true });
}

async function eraseOne(deps: Deps, userId: string, by: ErasedBy, options: { mail: boolean }): Promise<ErasureOutcome> {
  const outcome = await deps.db.transaction(async (tx) => {
    // The row lock orders this against a render or payment writing for the same account.
    const [account] = await tx.select({ id: user.id, email: user.email }).from(user).where(eq(user.id, userId)).for('update');
    if (!account) return { erased: false, reason: 'not found' } as const;
    // An admin is made a family again first (npm run admin -- revoke): an admin's account is
    // never erased from the admin area or by a family's own button.
    const [admin] = await tx.select({ id: admins.id }).from(admins).where(and(eq(admins.userId, userId), eq(admins.isActive, true))).limit(1);
    if (admin) return { erased: false, reason: 'admin' } as const;
    const [profile] = await tx.select({ email: userProfiles.email, familyId: userProfiles.familyId, firstName: userProfiles.firstName }).from(userProfiles).where(eq(userProfiles.id, userId));
    // An added athlete's address is the family's: the family's own rows stay.
    const addresses = profile?.familyId ? [] : [...new Set([account.email, profile?.email].filter((e): e is string => Boolean(e)).map((e) => e.toLowerCase()))];
    const requests = await tx.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.userId, userId));
    await deleteMatchedFaces(tx, requests.map((r) => r.id));
    await tx.update(orders).set({ checkoutUrl: null }).where(eq(orders.userId, userId));
    if (addresses.length) {
      await tx.delete(homepageSignups).where(inArray(sql`lower(${homepageSignups.email})`, addresses));
      await tx.delete(contactMessages).where(inArray(sql`lower(${contactMessages.email})`, addresses));
    }
    await tx.delete(verification).where(eq(verification.value, userId));
    // The rest goes with the user row: sessions, accounts, second factor, profile, references,
    // requests (their clips and renders), videos, stills, support visits and the audit rows about
    // them; orders keep their amounts with no user.
    await tx.delete(user).where(eq(user.id, userId));
    return { erased: true, email: profile?.email ?? account.email, addedAthlete: profile?.familyId ? profile.firstName : null } as const;
  });
  if (!outcome.erased) return outcome;
  await removeUserFiles(deps, userId);
  await audit(deps.db, {
    actorId: by.kind === 'admin' ? by.adminId : null,
    action: 'account.erase',
    subjectUserId: null,
    details: { erasedUserId: userId, by: by.kind, ...(outcome.addedAthlete !== null ? { addedAthlete: true } : {}) },
  });
  // An address nobody confirmed gets no mail: whoever typed it may not own it.
  if (by.kind !== 'unconfirmed' && options.mail) {
    await deps.mailer.send(outcome.addedAthlete !== null ? athleteErasedMail(outcome.email, outcome.addedAthlete) : accountErasedMail(outcome.email));
  }
  return { erased: true, email: outcome.email };
}

/**
 * The account's own athlete erased on its own while the family keeps its other athletes (decision
 * 0036): that athlete's requests (with their clips and the faces they matched), references,
 * consents, videos, stills, share links and stored files go, and the profile keeps only the
 * holder's own details. The family's orders stay, as the holder's payments.
 */
export async function eraseOwnAthlete(deps: Deps, accountId: string): Promise<{ email: string; athleteName: string } | null> {
  const now = new Date();
  const erased = await deps.db.transaction(async (tx) => {
    const [profile] = await tx.select().from(userProfiles).where(eq(userProfiles.id, accountId)).for('update');
    if (!profile || profile.familyId || profile.ownAthleteErasedAt) return null;
    const requests = await tx.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.userId, accountId));
    await deleteMatchedFaces(tx, requests.map((r) => r.id));
    for (const table of [shareLinks, userStills, userVideos, athleteReferences, parentalConsents, highlightRequests]) {
      await tx.delete(table).where(eq(table.userId, accountId));
    }
    const [first = '', ...rest] = (profile.holderName ?? '').trim().split(/\s+/);
    await tx
      .update(userProfiles)
      .set({
        firstName: first,
        lastName: rest.join(' '),
        avatarUrl: null,
        originalAvatarUrl: null,
        bannerUrl: null,
        teamName: null,
        jerseyNumber: null,
        dateOfBirth: null,
        eventName: null,
        guardianConsentAt: null,
        parentalConsentAt: null,
        parentalConsentBy: null,
        faceMatchConsentAt: null,
        faceMatchConsentBy: null,
        faceMatchConsentPendingAt: null,
        ownAthleteErasedAt: now,
        updatedAt: now,
      })
      .where(eq(userProfiles.id, accountId));
    return { email: profile.email, athleteName: profile.firstName };
  });
  if (!erased) return null;
  await removeUserFiles(deps, accountId);
  await audit(deps.db, { actorId: accountId, action: 'account.erase', subjectUserId: null, details: { erasedUserId: accountId, by: 'self', ownAthlete: true } });
  await deps.mailer.send(athleteErasedMail(erased.email, erased.athleteName));
  return erased;
}

/** Every stored file under the user's folders (disk or S3). A file a job writes later is removed by that job (it finds no account). */
export async function removeUserFiles(deps: Pick<AppDeps, 'storage'>, userId: string): Promise<void> {
  for (const bucket of USER_BUCKETS) {
    for (const key of await deps.storage.list(`${bucket}/${userId}/`)) {
      await deps.storage.delete(key).catch((e: Error) => console.warn('[erasure] could not remove', key, e.message));
    }
  }
}

/** Registrations whose address was never confirmed, older than the given days: erased, one by one. */
export async function eraseUnconfirmedAccounts(deps: Deps, days: number): Promise<number> {
  const stale = await deps.db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.emailVerified, false), lt(user.createdAt, new Date(Date.now() - days * 24 * 3600 * 1000))));
  let erased = 0;
  for (const row of stale) if ((await eraseAccount(deps, row.id, { kind: 'unconfirmed' })).erased) erased++;
  return erased;
}

/** Whether `password` is the account's own (its credential account's hash, checked as better-auth checks it). */
export async function passwordIsRight(auth: Auth, userId: string, password: string): Promise<boolean> {
  const context = await auth.$context;
  const account = await context.internalAdapter.findCredentialAccount(userId);
  if (!account?.password) return false;
  return context.password.verify({ hash: account.password, password });
}
