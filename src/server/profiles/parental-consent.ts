// The parent's consent for an athlete under 13 (COPPA; decision 0035), by "email plus": the
// parent agrees to the notice in the product, from an address they have confirmed, and a mail to
// that address then confirms it and says how to withdraw it. Recorded in parental_consents (who,
// the notice's version, when, from which confirmed address); the profile's parental_consent_at
// opens face matching and requests (athlete.ts).
import { and, desc, eq, isNull } from 'drizzle-orm';
import { PARENTAL_NOTICE_VERSION } from '../../common/constants';
import type { Db } from '../db/client';
import { parentalConsents, user, userProfiles } from '../db/schema';
import type { AppDeps } from '../deps';
import { jobIdFor } from '../jobs/queue';
import { parentalConsentMail } from '../mail/templates';
import { setFaceMatchingConsent } from '../faces/references';
import { addresseeOf, holderOf } from '../family/members';

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'bus'>;
type WithdrawDeps = Pick<AppDeps, 'db' | 'storage' | 'faces' | 'bus'>;

/** A registration's consent, typed before the address is confirmed: it waits for the confirmation link. */
export async function requestParentalConsent(db: Db, userId: string, parentName: string): Promise<void> {
  await db.insert(parentalConsents).values({ userId, parentName, noticeVersion: PARENTAL_NOTICE_VERSION });
}

/** Consent given now, from the account's confirmed address (the dashboard's "finish your athlete's profile" step). */
export async function giveParentalConsent(deps: Deps, userId: string, parentName: string): Promise<void> {
  const [row] = await deps.db.insert(parentalConsents).values({ userId, parentName, noticeVersion: PARENTAL_NOTICE_VERSION }).returning({ id: parentalConsents.id });
  await record(deps, userId, row!.id);
}

/** The registration's pending consent, once its address is confirmed; false when there is none. */
export async function confirmPendingParentalConsent(deps: Deps, userId: string): Promise<boolean> {
  const [pending] = await deps.db
    .select({ id: parentalConsents.id })
    .from(parentalConsents)
    .where(and(eq(parentalConsents.userId, userId), isNull(parentalConsents.givenAt), isNull(parentalConsents.withdrawnAt)))
    .orderBy(desc(parentalConsents.requestedAt))
    .limit(1);
  if (!pending) return false;
  await record(deps, userId, pending.id);
  return true;
}

/** Marks the consent given, from the account's (confirmed) address, and sends the mail that confirms it, once. */
async function record(deps: Deps, userId: string, consentId: string): Promise<void> {
  // The family's confirmed address: the holder's, for an athlete the holder added.
  const [account] = await deps.db.select({ email: user.email, verified: user.emailVerified }).from(user).where(eq(user.id, await holderOf(deps.db, userId)));
  if (!account?.verified) return;
  const givenAt = new Date();
  const [given] = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(parentalConsents)
      .set({ givenAt, givenFromEmail: account.email })
      .where(and(eq(parentalConsents.id, consentId), isNull(parentalConsents.givenAt)))
      .returning();
    if (rows.length) await tx.update(userProfiles).set({ parentalConsentAt: givenAt, parentalConsentBy: rows[0]!.parentName, updatedAt: givenAt }).where(eq(userProfiles.id, userId));
    return rows;
  });
  if (!given) return;
  const addressee = await addresseeOf(deps.db, userId);
  await deps.mailer.send(
    parentalConsentMail({
      to: account.email,
      parentName: given.parentName,
      athleteName: addressee?.athleteName ?? '',
      givenAt,
      dashboardUrl: `${deps.config.baseUrl}${addressee?.dashboardPath ?? '/dashboard'}`,
    }),
    { id: jobIdFor(`parental-consent:${given.id}`) },
  );
  await deps.db.update(parentalConsents).set({ confirmationMailedAt: new Date() }).where(eq(parentalConsents.id, given.id));
  await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
}

/**
 * The parent withdraws the consent: face matching is turned off (which deletes the athlete's face
 * data, as turning it off always does), and face matching and requests stay closed until consent
 * is given again. Closing the account deletes everything else. False when there was none to withdraw.
 */
export async function withdrawParentalConsent(deps: WithdrawDeps, userId: string): Promise<boolean> {
  const now = new Date();
  const withdrawn = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(parentalConsents)
      .set({ withdrawnAt: now })
      .where(and(eq(parentalConsents.userId, userId), isNull(parentalConsents.withdrawnAt)))
      .returning({ id: parentalConsents.id });
    await tx.update(userProfiles).set({ parentalConsentAt: null, parentalConsentBy: null, updatedAt: now }).where(eq(userProfiles.id, userId));
    return rows.length > 0;
  });
  if (!withdrawn) return false;
  await setFaceMatchingConsent(deps, userId, false);
  await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
  return true;
}
