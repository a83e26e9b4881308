// The "Find my athlete by face" card's state: the consent and who gave it, whether the headshot
// and the reference photos can be used, and the photos. Served alone by GET
// /api/profile/face-matching and within GET /api/dashboard.
import type { AppDeps } from '../deps';
import { faceMatchingReadiness, listReferencePhotos } from '../faces/references';
import type { ProfileRow } from './service';

export async function faceMatchingState(deps: Pick<AppDeps, 'db'>, profile: ProfileRow, viewerId: string) {
  const [readiness, photos] = await Promise.all([faceMatchingReadiness(deps, profile.id, profile), listReferencePhotos(deps, profile.id)]);
  return {
    consent: Boolean(profile.faceMatchConsentAt),
    consentAt: profile.faceMatchConsentAt?.toISOString() ?? null,
    // Who agreed: the account holder themselves (false for a consent older than that record).
    consentByAccountHolder: Boolean(profile.faceMatchConsentAt) && profile.faceMatchConsentBy === viewerId,
    // Whether the headshot can be used, and how many reference photos can (faces/references.ts).
    headshot: readiness.headshot,
    headshotUsable: readiness.headshot === 'usable',
    usablePhotos: readiness.usablePhotos,
    photos,
  };
}
