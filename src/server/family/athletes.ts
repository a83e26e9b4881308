// Adding and removing a family's athletes (decision 0036). An added athlete is a user row that can
// never sign in (no credential, an address of the reserved .invalid domain) with a profile whose
// family_id is the holder's; its profile carries the family's address, which the database keeps
// in step with the holder's (migration 0020).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ADULT_AGE, CHILD_AGE } from '../../common/constants';
import { FAMILY, FAMILY_MAX_ATHLETES } from '../../common/family-messages';
import { ageOn, type AddAthlete } from '../../common/schemas';
import { user, userProfiles } from '../db/schema';
import type { AppDeps } from '../deps';
import { giveParentalConsent } from '../profiles/parental-consent';
import { addedAthleteIds } from './members';

export class FamilyRefused extends Error {
  constructor(
    readonly code: 'NOT_CONFIRMED' | 'TOO_MANY_ATHLETES' | 'NOT_FOUND',
    message: string,
  ) {
    super(message);
  }
}

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'bus'>;

/** The address no mail is ever sent to: an added athlete signs in as nobody. */
export const addedAthleteAddress = (id: string) => `athlete-${id}@family.invalid`;

/** Adds an athlete to the account's family; under 13, the parent's consent is given at once from the confirmed address. */
export async function addAthlete(deps: Deps, accountId: string, input: AddAthlete): Promise<{ id: string; firstName: string }> {
  const { db } = deps;
  const [holder] = await db
    .select({ verified: user.emailVerified, email: userProfiles.email, holderName: userProfiles.holderName })
    .from(user)
    .innerJoin(userProfiles, eq(userProfiles.id, user.id))
    .where(eq(user.id, accountId));
  if (!holder?.verified) throw new FamilyRefused('NOT_CONFIRMED', FAMILY.confirmFirst);
  if ((await addedAthleteIds(db, accountId)).length + 1 >= FAMILY_MAX_ATHLETES) throw new FamilyRefused('TOO_MANY_ATHLETES', FAMILY.tooMany(FAMILY_MAX_ATHLETES));
  const id = randomUUID();
  const age = ageOn(input.birthday);
  const now = new Date();
  await db.transaction(async (tx) => {
    // The database's trigger makes the profile row with the user (migration 0001).
    await tx.insert(user).values({ id, name: `${input.firstName} ${input.lastName}`, email: addedAthleteAddress(id), emailVerified: true });
    await tx
      .update(userProfiles)
      .set({
        familyId: accountId,
        email: holder.email,
        firstName: input.firstName,
        lastName: input.lastName,
        dateOfBirth: input.birthday,
        teamName: input.teamName,
        jerseyNumber: input.jerseyNumber,
        guardianConsentAt: age < ADULT_AGE && input.guardianConsent ? now : null,
        updatedAt: now,
      })
      .where(eq(userProfiles.id, id));
    // The parent who names themself is the holder the mails greet, if the account had no name yet.
    if (input.parentName && !holder.holderName && age < ADULT_AGE) {
      await tx.update(userProfiles).set({ holderName: input.parentName, updatedAt: now }).where(eq(userProfiles.id, accountId));
    }
  });
  if (age < CHILD_AGE && input.parentName) await giveParentalConsent(deps, id, input.parentName);
  await deps.bus.publish({ topic: 'user_profiles', userId: accountId, action: 'update', id: accountId });
  return { id, firstName: input.firstName };
}
