// The "Find my athlete by face" card's state: the consent and who gave it, whether the headshot
// and the reference photos can be used, and the photos. Served alone by GET
// /api/profile/face-matching and within GET /api/dashboard, from the profile and one read of the
// user's references.
import type { AppDeps } from '../deps';
import { photosFrom, readinessFrom, referenceFacts, type ReferenceFact } from '../faces/references';
import type { ProfileRow } from './service';

export function faceMatchingState(profile: ProfileRow, refs: ReferenceFact[], viewerId: string) {
  const readiness = readinessFrom(profile, refs);
  return {
    consent: Boolean(profile.faceMatchConsentAt),
    consentAt: profile.faceMatchConsentAt?.toISOString() ?? null,
    // Who agreed: the account holder themselves (false for a consent older than that record).
    consentByAccountHolder: Boolean(profile.faceMatchConsentAt) && profile.faceMatchConsentBy === viewerId,
    // Whether the headshot can be used, and how many reference photos can (faces/references.ts).
    headshot: readiness.headshot,
    headshotUsable: readiness.headshot === 'usable',
    usablePhotos: readiness.usablePhotos,
    photos: photosFrom(refs),
  };
}

export async function loadFaceMatchingState(deps: Pick<AppDeps, 'db'>, profile: ProfileRow, viewerId: string) {
  return faceMatchingState(profile, await referenceFacts(deps, profile.id), viewerId);
}
