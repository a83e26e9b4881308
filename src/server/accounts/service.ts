// Creating accounts: the simple sign-up of /auth and the full registration of /signup. Both
// check the spec's rules before better-auth creates the user (which also sends the verification
// mail); the profile row itself comes from the database trigger.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { ADULT_AGE, CHILD_AGE, HEADSHOT_MAX_BYTES } from '../../common/constants';
import { ACCOUNT_EXISTS, AUTH_ERRORS, USERNAME_TAKEN } from '../../common/messages';
import { ageOn, type Registration } from '../../common/schemas';
import { FACE_MATCHING } from '../../common/dashboard-messages';
import { AFTER_VERIFY, type Auth } from '../auth/auth';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import type { FacePool } from '../faces/pool';
import type { HeadshotState } from '../faces/references';
import { homepageSignups, user, userProfiles } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { newSignupNotificationMail } from '../mail/templates';
import { reencodeImage } from '../media/images';
import type { EventBus } from '../realtime/bus';
import { requestParentalConsent } from '../profiles/parental-consent';
import { storageKeys } from '../storage/keys';
import type { Storage } from '../storage/storage';
import type { Config } from '../config';

export class AccountError extends Error {
  constructor(
    readonly code: 'ACCOUNT_EXISTS' | 'USER_ALREADY_EXISTS' | 'USERNAME_TAKEN' | 'SIGNUP_FAILED',
    message: string,
    readonly title?: string,
  ) {
    super(message);
  }
}



export async function emailInUse(db: Db, email: string): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(userProfiles)
    .where(eq(sql`lower(${userProfiles.email})`, normalized))
    .limit(1);
  if (row) return true;
  const [account] = await db.select({ id: user.id }).from(user).where(eq(user.email, normalized)).limit(1);
  return Boolean(account);
}

export async function usernameInUse(db: Db, username: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(userProfiles)
    .where(eq(sql`lower(${userProfiles.username})`, username.trim().toLowerCase()))
    .limit(1);
  return Boolean(row);
}

export interface SignUpDeps {
  db: Db;
  auth: Auth;
  storage: Storage;
  mailer: Mailer;
  faces: FacePool;
  bus: EventBus;
  config: Pick<Config, 'team'>;
}

/** The simple sign-up of /auth: full name, e-mail, password. */
export async function signUpSimple(
  deps: SignUpDeps,
  input: { fullName: string; email: string; password: string },
  headers: Headers,
): Promise<{ userId: string }> {
  if (await emailInUse(deps.db, input.email)) {
    throw new AccountError('USER_ALREADY_EXISTS', AUTH_ERRORS.alreadyRegistered);
  }
  const result = await deps.auth.api.signUpEmail({
    body: { name: input.fullName, email: input.email, password: input.password, callbackURL: AFTER_VERIFY },
    headers,
  });
  await linkHomepageSignup(deps.db, result.user.id, input.email);
  await notifyTeamOfSignup(deps.mailer, deps.config.team.email, result.user.id, input.email);
  return { userId: result.user.id };
}

export interface RegistrationResult {
  userId: string;
  /** False when a headshot was sent but could not be stored; the account exists all the same. */
  headshotSaved: boolean | null;
  /**
   * Face matching as registered: never on yet (`pending` when ticked: it starts once the address
   * is confirmed), and what to say about it (null: nothing).
   */
  faceMatching: { consent: boolean; pending: boolean; headshot: HeadshotState; message: string | null };
}

/** The full registration of /signup, with an optional headshot. */
export async function register(
  deps: SignUpDeps,
  input: Registration,
  headshot: Buffer | null,
  headers: Headers,
): Promise<RegistrationResult> {
  if (await emailInUse(deps.db, input.email)) {
    throw new AccountError('ACCOUNT_EXISTS', ACCOUNT_EXISTS.description, ACCOUNT_EXISTS.title);
  }
  if (await usernameInUse(deps.db, input.username)) {
    throw new AccountError('USERNAME_TAKEN', USERNAME_TAKEN.description, USERNAME_TAKEN.title);
  }
  const result = await deps.auth.api.signUpEmail({
    body: {
      name: `${input.firstName} ${input.lastName}`,
      email: input.email,
      password: input.password,
      callbackURL: AFTER_VERIFY,
    },
    headers,
  });
  const userId = result.user.id;
  try {
    await deps.db
      .update(userProfiles)
      .set({
        username: input.username,
        firstName: input.firstName,
        lastName: input.lastName,
        dateOfBirth: input.birthday,
        state: input.state,
        city: input.city,
        phone: input.phoneNumber,
        teamName: input.teamName,
        eventName: input.event,
        jerseyNumber: input.jerseyNumber,
        guardianConsentAt: input.guardianConsent ? new Date() : null,
        // A minor's account is held by the parent who named themself: the mails greet them.
        holderName: ageOn(input.birthday) < ADULT_AGE ? input.parentName : null,
        updatedAt: new Date(),
      })
      .where(eq(userProfiles.id, userId));
  } catch (error) {
    // Only a username taken in the moment since our check can fail here: undo the account so
    // the person can simply try again with another username.
    await deps.db.delete(user).where(eq(user.id, userId));
    if (isUniqueViolation(error)) {
      throw new AccountError('USERNAME_TAKEN', USERNAME_TAKEN.description, USERNAME_TAKEN.title);
    }
    throw error;
  }
  // Under 13: the parent's consent, typed by whoever holds this address: it counts once the
  // address is confirmed (profiles/parental-consent.ts; decision 0035).
  if (ageOn(input.birthday) < CHILD_AGE && input.parentName) await requestParentalConsent(deps.db, userId, input.parentName);
  await linkHomepageSignup(deps.db, userId, input.email);
  const headshotSaved = headshot ? await saveHeadshot(deps, userId, headshot) : null;
  if (input.faceMatchConsent) {
    // Ticked next to the headshot, by whoever typed this address: it waits for the confirmation
    // link (faces/references.ts confirmPendingConsent), and nothing of the face is computed before.
    await deps.db.update(userProfiles).set({ faceMatchConsentPendingAt: new Date() }).where(eq(userProfiles.id, userId));
    return { userId, headshotSaved, faceMatching: { consent: false, pending: true, headshot: 'off', message: FACE_MATCHING.registered.pending! } };
  }
  return { userId, headshotSaved, faceMatching: { consent: false, pending: false, headshot: 'off', message: null } };
}

/** Stores the headshot privately and makes it the profile's avatar. Never throws. */
async function saveHeadshot(deps: SignUpDeps, userId: string, bytes: Buffer): Promise<boolean> {
  try {
    const image = await reencodeImage(bytes, { maxBytes: HEADSHOT_MAX_BYTES, maxDimension: 1600 });
    const key = storageKeys.profilePhoto(userId);
    await deps.storage.put(key, image.data, image.contentType);
    await deps.db
      .update(userProfiles)
      .set({ avatarUrl: key, originalAvatarUrl: key, updatedAt: new Date() })
      .where(eq(userProfiles.id, userId));
    return true;
  } catch (error) {
    console.warn(`[accounts] headshot for ${userId} not saved:`, (error as Error).message);
    return false;
  }
}

/** Tells the team about a new account. Best effort: a failure is logged, never shown. */
async function notifyTeamOfSignup(mailer: Mailer, teamEmail: string, userId: string, email: string): Promise<void> {
  try {
    await mailer.send(
      newSignupNotificationMail(teamEmail, { user_email: email, user_id: userId, created_at: new Date().toISOString() }),
    );
  } catch (error) {
    console.warn('[accounts] sign-up notification not sent:', (error as Error).message);
  }
}

/** Links the newest homepage sign-up with this e-mail to the new user. Best effort. */
export async function linkHomepageSignup(db: Db, userId: string, email: string): Promise<void> {
  try {
    const [latest] = await db
      .select({ id: homepageSignups.id })
      .from(homepageSignups)
      .where(and(eq(homepageSignups.email, email.trim().toLowerCase()), isNull(homepageSignups.userId)))
      .orderBy(desc(homepageSignups.createdAt))
      .limit(1);
    if (!latest) return;
    await db.update(homepageSignups).set({ userId, status: 'completed' }).where(eq(homepageSignups.id, latest.id));
  } catch (error) {
    console.warn('[accounts] homepage sign-up not linked:', (error as Error).message);
  }
}

export async function saveHomepageSignup(
  db: Db,
  input: { firstName: string; lastName: string; email: string },
): Promise<void> {
  await db.insert(homepageSignups).values({ ...input, email: input.email.toLowerCase() });
}
