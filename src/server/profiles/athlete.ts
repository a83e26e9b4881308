// Whether the athlete's profile holds what the terms require before the athlete can be searched
// for by face or a reel requested: a birthday and, under 18, a parent's or guardian's agreement
// (`guardian_consent_at`); under 13 also the parent's consent given from the confirmed address
// (`parental_consent_at`, decision 0035). The full registration collects them; an account made
// with the quick sign-up gives them on the dashboard's "finish your athlete's profile" step.
import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { ADULT_AGE, CHILD_AGE } from '../../common/constants';
import { FINISH_PROFILE } from '../../common/dashboard-messages';
import { ageOn, type AthleteAge } from '../../common/schemas';
import type { ViewerEnv } from '../auth/session';
import type { Db } from '../db/client';
import { userProfiles } from '../db/schema';
import { apiError } from '../http/errors';
import type { ProfileDeps, ProfileRow } from './service';

type AgeFields = Pick<ProfileRow, 'dateOfBirth' | 'guardianConsentAt' | 'parentalConsentAt'>;

export function isAthleteProfileComplete(row: AgeFields, today = new Date()): boolean {
  if (!row.dateOfBirth) return false;
  const age = ageOn(row.dateOfBirth, today);
  if (age >= ADULT_AGE) return true;
  return row.guardianConsentAt !== null && (age >= CHILD_AGE || row.parentalConsentAt !== null);
}

export async function athleteProfileComplete(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ dateOfBirth: userProfiles.dateOfBirth, guardianConsentAt: userProfiles.guardianConsentAt, parentalConsentAt: userProfiles.parentalConsentAt })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId));
  return Boolean(row) && isAthleteProfileComplete(row!);
}

/** The refusal of face matching, reference photos and reel requests until the profile is complete. */
export const athleteProfileIncomplete = (c: Parameters<typeof apiError>[0]) =>
  apiError(c, 409, 'ATHLETE_PROFILE_INCOMPLETE', FINISH_PROFILE.incomplete, FINISH_PROFILE.title);

/** Middleware: refuses (before reading the body) while the signed-in athlete's profile is incomplete. */
export function requireCompleteAthleteProfile(db: Db): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    if (!(await athleteProfileComplete(db, c.var.viewer.userId))) return athleteProfileIncomplete(c);
    return next();
  };
}

/**
 * Stores the birthday and the guardian's agreement (with its time) of a profile that is not yet
 * complete. A complete profile is not changed here: 'complete' is answered instead.
 */
export async function finishAthleteProfile(deps: ProfileDeps, userId: string, input: AthleteAge): Promise<ProfileRow | 'complete' | null> {
  const [before] = await deps.db.select().from(userProfiles).where(eq(userProfiles.id, userId));
  if (!before) return null;
  if (isAthleteProfileComplete(before)) return 'complete';
  const [row] = await deps.db
    .update(userProfiles)
    .set({
      dateOfBirth: input.birthday,
      guardianConsentAt: input.guardianConsent ? new Date() : null,
      ...(input.parentName && ageOn(input.birthday) < ADULT_AGE && !before.holderName ? { holderName: input.parentName } : {}),
      updatedAt: new Date(),
    })
    .where(eq(userProfiles.id, userId))
    .returning();
  if (row) await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
  return row ?? null;
}
