// The athlete profile: read, edit, pictures (avatar with its original, banner), tutorial.
import { eq, sql } from 'drizzle-orm';
import { AVATAR_MAX_BYTES, AVATAR_SIZE_PX, BANNER_MAX_BYTES } from '../../common/constants';
import type { ProfileEdit } from '../../common/schemas';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { userProfiles } from '../db/schema';
import { reencodeImage } from '../media/images';
import type { EventBus } from '../realtime/bus';
import { mediaUrl, storageKeys } from '../storage/keys';
import { isAthleteProfileComplete } from './athlete';
import type { Storage } from '../storage/storage';

export interface ProfileDeps {
  db: Db;
  storage: Storage;
  bus: EventBus;
}

export type ProfileRow = typeof userProfiles.$inferSelect;

export function toProfileDto(row: ProfileRow) {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    teamName: row.teamName,
    jerseyNumber: row.jerseyNumber,
    phone: row.phone,
    city: row.city,
    state: row.state,
    avatarUrl: mediaUrl(row.avatarUrl),
    originalAvatarUrl: mediaUrl(row.originalAvatarUrl),
    bannerUrl: mediaUrl(row.bannerUrl),
    tutorialCompleted: row.tutorialCompletedAt !== null,
    /** Under 13: the parent's consent on record (decision 0035), or null. */
    parentalConsent: row.parentalConsentAt ? { by: row.parentalConsentBy ?? '', at: row.parentalConsentAt.toISOString() } : null,
    /** The event named at registration (an event id, or "other"): the request form starts on it. */
    registrationEventId: row.eventName,
    /** The birthday and, under 18, a guardian's agreement are on file (athlete.ts): face matching and requests are open. */
    athleteProfileComplete: isAthleteProfileComplete(row),
    createdAt: row.createdAt.toISOString(),
  };
}
export type ProfileDto = ReturnType<typeof toProfileDto>;

const profileById = preparedQuery((db) => db.select().from(userProfiles).where(eq(userProfiles.id, sql.placeholder('userId'))).prepare('profile_by_id'));

export async function getProfile(db: Db, userId: string): Promise<ProfileRow | null> {
  const [row] = await profileById(db).execute({ userId });
  return row ?? null;
}

async function update(deps: ProfileDeps, userId: string, values: Partial<typeof userProfiles.$inferInsert>) {
  const [row] = await deps.db
    .update(userProfiles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(userProfiles.id, userId))
    .returning();
  if (row) await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
  return row ?? null;
}

export function editProfile(deps: ProfileDeps, userId: string, input: Partial<ProfileEdit>) {
  return update(deps, userId, input);
}

export function completeTutorial(deps: ProfileDeps, userId: string) {
  return update(deps, userId, { tutorialCompletedAt: new Date() });
}

/**
 * Saves a new avatar (the cropped 320x320 picture) and, when given, a new original to re-crop
 * from later. Both are checked and re-encoded first; files they replace are removed after the
 * row points at the new ones, so a failure leaves the old picture intact and no orphan behind.
 */
export async function saveAvatar(
  deps: ProfileDeps,
  userId: string,
  cropped: Buffer,
  original: Buffer | null,
): Promise<ProfileRow | null> {
  const avatar = await reencodeImage(cropped, { maxBytes: AVATAR_MAX_BYTES, maxDimension: AVATAR_SIZE_PX });
  const originalImage = original ? await reencodeImage(original, { maxBytes: AVATAR_MAX_BYTES, maxDimension: 2048 }) : null;
  const before = await getProfile(deps.db, userId);
  if (!before) return null;
  const avatarKey = storageKeys.avatar(userId);
  const originalKey = originalImage ? storageKeys.avatarOriginal(userId) : before.originalAvatarUrl;
  const written: string[] = [];
  try {
    await deps.storage.put(avatarKey, avatar.data, avatar.contentType);
    written.push(avatarKey);
    if (originalImage && originalKey) {
      await deps.storage.put(originalKey, originalImage.data, originalImage.contentType);
      written.push(originalKey);
    }
    const row = await update(deps, userId, { avatarUrl: avatarKey, originalAvatarUrl: originalKey ?? avatarKey });
    await removeReplaced(deps.storage, [before.avatarUrl, original ? before.originalAvatarUrl : null], [avatarKey, originalKey]);
    return row;
  } catch (error) {
    await Promise.all(written.map((k) => deps.storage.delete(k).catch(() => {})));
    throw error;
  }
}

export async function saveBanner(deps: ProfileDeps, userId: string, bytes: Buffer): Promise<ProfileRow | null> {
  const image = await reencodeImage(bytes, { maxBytes: BANNER_MAX_BYTES, maxDimension: 2400 });
  const before = await getProfile(deps.db, userId);
  if (!before) return null;
  const key = storageKeys.banner(userId);
  await deps.storage.put(key, image.data, image.contentType);
  try {
    const row = await update(deps, userId, { bannerUrl: key });
    await removeReplaced(deps.storage, [before.bannerUrl], [key]);
    return row;
  } catch (error) {
    await deps.storage.delete(key).catch(() => {});
    throw error;
  }
}

/** Deletes old files no longer referenced (the registration headshot is kept: it is the face photo on file). */
async function removeReplaced(storage: Storage, old: Array<string | null>, current: Array<string | null>) {
  for (const key of old) {
    if (!key || current.includes(key) || key.startsWith('profile-photos/')) continue;
    await storage.delete(key).catch((e: Error) => console.warn('[profiles] could not remove', key, e.message));
  }
}
