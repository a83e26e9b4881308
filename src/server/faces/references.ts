// The faces an athlete is found by, and the account holder's consent. Without consent nothing
// is compared and no descriptor of the athlete is kept: turning it on computes the headshot's
// descriptor (and those of any reference photos), turning it off deletes every descriptor and
// every proposed clip of the athlete's open requests. A reference photo is checked the moment it
// arrives: one face, big and sharp enough, or a plain answer saying what is wrong.
import type { Db } from '../db/client';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { REFERENCE_PHOTO_MAX_BYTES } from '../../common/constants';
import { FACE_MATCHING } from '../../common/dashboard-messages';
import { appearances, athleteReferences, faceTracks, highlightRequests, userProfiles } from '../db/schema';
import { preparedQuery } from '../db/prepared';
import type { AppDeps } from '../deps';
import { reencodeImage } from '../media/images';
import { mediaUrl, storageKeys } from '../storage/keys';
import { encodeEmbeddings } from './embeddings';
import type { PhotoFace } from './types';

export const MAX_REFERENCE_PHOTOS = 5;
export const REFERENCE_MAX_BYTES = REFERENCE_PHOTO_MAX_BYTES;
/** A face smaller than this (pixels high, in the photo as checked) is too small to match. */
const MIN_REFERENCE_FACE_PX = 80;
/** Sharp faces measured 0.28-1.0, blurred ones (Gaussian sigma ≥ 2 at 120 px) 0.04-0.2. */
const MIN_SHARPNESS = 0.15;
/** Longest side the photo is checked at. */
const CHECK_SIZE = 1280;

export class ReferenceRejected extends Error {
  constructor(
    readonly code: 'NO_FACE' | 'SEVERAL_FACES' | 'TOO_SMALL_OR_BLURRED' | 'TOO_MANY' | 'CONSENT_REQUIRED',
    message: string,
  ) {
    super(message);
  }
}

type Deps = Pick<AppDeps, 'db' | 'storage' | 'faces' | 'bus'>;

async function readStored(deps: Pick<AppDeps, 'storage'>, key: string): Promise<Buffer | null> {
  const stream = await deps.storage.read(key).catch(() => null);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The one usable face of a photo, or why there is none. */
export async function checkReferencePhoto(deps: Pick<AppDeps, 'faces'>, jpeg: Buffer): Promise<PhotoFace> {
  const { data, info } = await sharp(jpeg).resize({ width: CHECK_SIZE, height: CHECK_SIZE, fit: 'inside', withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await deps.faces.run<PhotoFace[]>({ op: 'analyze-photo', rgb: new Uint8Array(data), width: info.width, height: info.height });
  if (!faces.length) throw new ReferenceRejected('NO_FACE', FACE_MATCHING.noFace);
  // Faces far smaller than the main one are people in the background, not a second subject.
  const largest = Math.max(...faces.map((f) => f.box.h));
  const subjects = faces.filter((f) => f.box.h >= largest * 0.5);
  if (subjects.length > 1) throw new ReferenceRejected('SEVERAL_FACES', FACE_MATCHING.severalFaces);
  const face = subjects[0]!;
  if (face.box.h < MIN_REFERENCE_FACE_PX || face.sharpness < MIN_SHARPNESS) throw new ReferenceRejected('TOO_SMALL_OR_BLURRED', FACE_MATCHING.tooSmallOrBlurred);
  return face;
}

type Tx = Parameters<Parameters<AppDeps['db']['transaction']>[0]>[0];

/**
 * Runs a write of the athlete's face data only while consent holds: the profile row is locked and
 * read in the same transaction, so a withdrawal (which updates that row) either comes first and
 * the write is skipped, or waits for the write and then deletes it (issue 21, finding 3).
 */
async function whileConsented(deps: Pick<AppDeps, 'db'>, userId: string, write: (tx: Tx) => Promise<void>): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [profile] = await tx.select({ consent: userProfiles.faceMatchConsentAt }).from(userProfiles).where(eq(userProfiles.id, userId)).for('update');
    if (!profile?.consent) return false;
    await write(tx);
    return true;
  });
}

export async function listReferencePhotos(deps: Pick<AppDeps, 'db'>, userId: string) {
  return photosFrom(await referenceFacts(deps, userId));
}

export async function addReferencePhoto(deps: Deps, userId: string, bytes: Buffer) {
  const [profile] = await deps.db.select({ consent: userProfiles.faceMatchConsentAt }).from(userProfiles).where(eq(userProfiles.id, userId));
  if (!profile?.consent) throw new ReferenceRejected('CONSENT_REQUIRED', FACE_MATCHING.consentRequired);
  const existing = await listReferencePhotos(deps, userId);
  if (existing.length >= MAX_REFERENCE_PHOTOS) throw new ReferenceRejected('TOO_MANY', FACE_MATCHING.tooMany);
  const image = await reencodeImage(bytes, { maxBytes: REFERENCE_MAX_BYTES, maxDimension: 2048 });
  const face = await checkReferencePhoto(deps, image.data);
  const key = storageKeys.referencePhoto(userId);
  await deps.storage.put(key, image.data, image.contentType);
  let row: typeof athleteReferences.$inferSelect | undefined;
  let tooMany = false;
  const stored = await whileConsented(deps, userId, async (tx) => {
    // Counted again here, the profile row locked: photos sent at once cannot pass the cap together.
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(athleteReferences)
      .where(and(eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'photo')));
    if (n >= MAX_REFERENCE_PHOTOS) {
      tooMany = true;
      return;
    }
    [row] = await tx
      .insert(athleteReferences)
      .values({ userId, source: 'photo', photoKey: key, embedding: encodeEmbeddings([face.descriptor]), faceHeight: Math.round(face.box.h) })
      .returning();
  });
  if (!stored || !row) {
    // Consent was withdrawn while the photo was checked, or the cap was reached: nothing of it is kept.
    await deps.storage.delete(key).catch(() => {});
    throw tooMany ? new ReferenceRejected('TOO_MANY', FACE_MATCHING.tooMany) : new ReferenceRejected('CONSENT_REQUIRED', FACE_MATCHING.consentRequired);
  }
  await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
  return { id: row!.id, url: mediaUrl(key), createdAt: row!.createdAt.toISOString() };
}

export async function removeReferencePhoto(deps: Deps, userId: string, id: string): Promise<boolean> {
  const [row] = await deps.db.delete(athleteReferences).where(and(eq(athleteReferences.id, id), eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'photo'))).returning();
  if (!row) return false;
  if (row.photoKey) await deps.storage.delete(row.photoKey).catch(() => {});
  await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
  return true;
}

/**
 * The headshot's descriptor, replaced from the profile's original photo (or the avatar). Returns
 * false when the headshot has no usable face; nothing is kept then.
 */
export async function refreshHeadshotReference(deps: Deps, userId: string): Promise<boolean> {
  const [profile] = await deps.db.select().from(userProfiles).where(eq(userProfiles.id, userId));
  await deps.db.delete(athleteReferences).where(and(eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'headshot')));
  if (!profile?.faceMatchConsentAt) return false;
  const key = profile.originalAvatarUrl ?? profile.avatarUrl;
  const bytes = key ? await readStored(deps, key) : null;
  if (!bytes) return false;
  try {
    const face = await checkReferencePhoto(deps, bytes);
    return await whileConsented(deps, userId, async (tx) => {
      // Replaced, not added to: two refreshes at once leave one headshot descriptor.
      await tx.delete(athleteReferences).where(and(eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'headshot')));
      await tx.insert(athleteReferences).values({ userId, source: 'headshot', embedding: encodeEmbeddings([face.descriptor]), faceHeight: Math.round(face.box.h) });
    });
  } catch (error) {
    if (error instanceof ReferenceRejected) return false;
    throw error;
  }
}

/** Turns face matching on or off for the account's athlete; off deletes every descriptor. */
export async function setFaceMatchingConsent(deps: Deps, userId: string, consent: boolean) {
  if (consent) {
    // Consent is the account holder's own act (a view-as session cannot give it: profiles/routes.ts).
    await deps.db.update(userProfiles).set({ faceMatchConsentAt: new Date(), faceMatchConsentBy: userId }).where(eq(userProfiles.id, userId));
    const headshot = await refreshHeadshotReference(deps, userId);
    // Reference photos kept from before get their descriptors back.
    const photos = await deps.db.select().from(athleteReferences).where(and(eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'photo')));
    for (const photo of photos) {
      const bytes = photo.photoKey ? await readStored(deps, photo.photoKey) : null;
      if (!bytes) continue;
      const face = await checkReferencePhoto(deps, bytes).catch(() => null);
      if (face) await whileConsented(deps, userId, async (tx) => void (await tx.update(athleteReferences).set({ embedding: encodeEmbeddings([face.descriptor]) }).where(eq(athleteReferences.id, photo.id))));
    }
    await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
    return { consent: true, headshotUsable: headshot };
  }
  await deps.db.transaction(async (tx) => {
    await tx.update(userProfiles).set({ faceMatchConsentAt: null, faceMatchConsentBy: null, faceMatchConsentPendingAt: null }).where(eq(userProfiles.id, userId));
    await tx.delete(athleteReferences).where(and(eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'headshot')));
    await tx.update(athleteReferences).set({ embedding: null }).where(eq(athleteReferences.userId, userId));
    // The athlete's face found in the footage goes too, on every request (delivered ones keep
    // their rendered reel, which the family bought): the clips, and the matched face tracks with
    // their descriptors, face boxes and crops (issue 21, finding 9).
    const requests = await tx.select({ id: highlightRequests.id, status: highlightRequests.status }).from(highlightRequests).where(eq(highlightRequests.userId, userId));
    if (requests.length) {
      await deleteMatchedFaces(tx, requests.map((r) => r.id));
      const open = requests.filter((r) => r.status !== 'delivered').map((r) => r.id);
      if (open.length) await tx.update(highlightRequests).set({ matchingState: 'no_consent' }).where(inArray(highlightRequests.id, open));
    }
  });
  await deps.bus.publish({ topic: 'user_profiles', userId, action: 'update', id: userId });
  return { consent: false, headshotUsable: false };
}

/**
 * The consent ticked at registration, once its address is confirmed: given then by the holder
 * of the confirmed address (face_match_consent_by), and only then is the headshot compared.
 * True when there was one to confirm.
 */
export async function confirmPendingConsent(deps: Deps, userId: string): Promise<boolean> {
  const [pending] = await deps.db
    .update(userProfiles)
    .set({ faceMatchConsentPendingAt: null })
    .where(and(eq(userProfiles.id, userId), isNotNull(userProfiles.faceMatchConsentPendingAt)))
    .returning({ id: userProfiles.id });
  if (!pending) return false;
  await setFaceMatchingConsent(deps, userId, true);
  return true;
}

/** The clips of these requests and the face tracks they matched (descriptors, face boxes, crops). */
export async function deleteMatchedFaces(tx: Pick<Db, 'select' | 'delete'>, requestIds: string[]): Promise<void> {
  if (!requestIds.length) return;
  const matched = await tx.select({ trackId: appearances.trackId, trackIds: appearances.trackIds }).from(appearances).where(inArray(appearances.requestId, requestIds));
  const tracks = [...new Set(matched.flatMap((m) => [...m.trackIds, ...(m.trackId ? [m.trackId] : [])]))];
  await tx.delete(appearances).where(inArray(appearances.requestId, requestIds));
  for (let i = 0; i < tracks.length; i += 500) await tx.delete(faceTracks).where(inArray(faceTracks.id, tracks.slice(i, i + 500)));
}

/**
 * Whether the headshot can be used for face matching, from what is stored: `off` without consent
 * (nothing is checked then), `missing` with no headshot, `usable` when a descriptor was taken
 * from it, `unusable` when it showed no single clear face. `usablePhotos` counts the reference
 * photos with a descriptor: with one of those, matching works without the headshot.
 */
export type HeadshotState = 'usable' | 'unusable' | 'missing' | 'off';

type HeadshotOf = { faceMatchConsentAt: Date | null; avatarUrl: string | null; originalAvatarUrl: string | null };
/** A user's reference faces as readiness and the photo list need them: `usable` when a descriptor was taken. */
export type ReferenceFact = { id: string; source: string; photoKey: string | null; createdAt: Date; usable: boolean };

/** All of a user's references, oldest first, in one read (prepared: the dashboard asks on every visit). */
const referenceFactsOf = preparedQuery((db) =>
  db
    .select({ id: athleteReferences.id, source: athleteReferences.source, photoKey: athleteReferences.photoKey, createdAt: athleteReferences.createdAt, usable: sql<boolean>`${athleteReferences.embedding} is not null` })
    .from(athleteReferences)
    .where(eq(athleteReferences.userId, sql.placeholder('userId')))
    .orderBy(asc(athleteReferences.createdAt))
    .prepare('reference_facts_of_user'),
);
export function referenceFacts(deps: Pick<AppDeps, 'db'>, userId: string): Promise<ReferenceFact[]> {
  return referenceFactsOf(deps.db).execute({ userId });
}

/**
 * The same facts as one JSON column of a query on user_profiles (the dashboard reads them with the
 * profile); `referenceFactsFromJson` turns the column back into ReferenceFacts.
 */
export const referenceFactsColumn = sql<Array<Omit<ReferenceFact, 'createdAt'> & { createdAt: string }>>`(select coalesce(json_agg(json_build_object(
  'id', r.id, 'source', r.source, 'photoKey', r.photo_key, 'createdAt', r.created_at, 'usable', r.embedding is not null
) order by r.created_at), '[]'::json) from athlete_references r where r.user_id = user_profiles.id)`;
export const referenceFactsFromJson = (rows: Array<Omit<ReferenceFact, 'createdAt'> & { createdAt: string }>): ReferenceFact[] =>
  rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));

export function readinessFrom(profile: HeadshotOf, refs: ReferenceFact[]): { consent: boolean; headshot: HeadshotState; usablePhotos: number } {
  if (!profile.faceMatchConsentAt) return { consent: false, headshot: 'off', usablePhotos: 0 };
  const usable = refs.filter((r) => r.usable);
  const headshot: HeadshotState = usable.some((r) => r.source === 'headshot') ? 'usable' : profile.avatarUrl || profile.originalAvatarUrl ? 'unusable' : 'missing';
  return { consent: true, headshot, usablePhotos: usable.filter((r) => r.source === 'photo').length };
}

/** The reference photos (not the headshot) as the card lists them. */
export const photosFrom = (refs: ReferenceFact[]) =>
  refs.filter((r) => r.source === 'photo').map((r) => ({ id: r.id, url: mediaUrl(r.photoKey), createdAt: r.createdAt.toISOString() }));

export async function faceMatchingReadiness(deps: Pick<AppDeps, 'db'>, userId: string) {
  const [[profile], refs] = await Promise.all([
    deps.db
      .select({ faceMatchConsentAt: userProfiles.faceMatchConsentAt, avatarUrl: userProfiles.avatarUrl, originalAvatarUrl: userProfiles.originalAvatarUrl })
      .from(userProfiles)
      .where(eq(userProfiles.id, userId)),
    referenceFacts(deps, userId),
  ]);
  return readinessFrom(profile ?? { faceMatchConsentAt: null, avatarUrl: null, originalAvatarUrl: null }, refs);
}
