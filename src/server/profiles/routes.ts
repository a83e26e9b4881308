// /api/profile: the signed-in user's own profile. No route here takes a user id from the
// client: the session decides whose profile it is.
import { Hono } from 'hono';
import { AVATAR_MAX_BYTES, BANNER_MAX_BYTES, CHILD_AGE } from '../../common/constants';
import { FILE_TOO_LARGE_5MB, INVALID_FILE_TYPE } from '../../common/messages';
import { PARENTAL_CONSENT } from '../../common/parental-consent-messages';
import { FACE_MATCHING, FILE_TOO_LARGE_10MB, FINISH_PROFILE, PROFILE } from '../../common/dashboard-messages';
import { ageOn, athleteAgeSchema, firstIssue, profileEditSchema } from '../../common/schemas';
import { supportVisits } from '../auth/support-visits';
import { refuseWhileImpersonating, requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../deps';
import { apiError, tooManyRequests } from '../http/errors';
import { fileField, readForm, uploadLimit } from '../http/uploads';
import { imageRejection } from '../media/images';
import {
  addReferencePhoto,
  REFERENCE_MAX_BYTES,
  ReferenceRejected,
  refreshHeadshotReference,
  removeReferencePhoto,
  setFaceMatchingConsent,
} from '../faces/references';
import { loadFaceMatchingState } from './face-matching-state';
import { RATE_RULES } from '../http/rate-limit';
import { completeTutorial, editProfile, getProfile, saveAvatar, saveBanner, toProfileDto } from './service';
import { athleteProfileComplete, athleteProfileIncomplete, finishAthleteProfile, requireCompleteAthleteProfile } from './athlete';
import { giveParentalConsent, withdrawParentalConsent } from './parental-consent';

const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * What the profile routes start elsewhere, wired in app.ts so that profiles/ does not import
 * requests/: `matchAgain` looks again for the family's open requests that matching found nothing
 * for, or could not run (requests/reel-progress.ts matchAgainWithNewFaces).
 */
export interface ProfileHooks {
  matchAgain(userId: string): Promise<unknown>;
}

export function profileRoutes(deps: AppDeps, hooks: ProfileHooks) {
  // Face matching is biometric consent: the family's own act, never an admin's viewing as them.
  const familyOnly = refuseWhileImpersonating(FACE_MATCHING.familyOnly, FACE_MATCHING.title);
  const notFound = (c: Parameters<typeof apiError>[0]) => apiError(c, 404, 'USER_NOT_FOUND', PROFILE.notFound);
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/', async (c) => {
      const row = await getProfile(deps.db, c.var.viewer.userId);
      if (!row) return notFound(c);
      c.header('Cache-Control', 'no-store');
      return c.json(toProfileDto(row));
    })
    .patch('/', async (c) => {
      const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
      const parsed = profileEditSchema.safeParse(body);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
      // Names are always sent; an optional field left out of the body keeps its value.
      const changes = Object.fromEntries(
        Object.entries(parsed.data).filter(([key]) => key === 'firstName' || key === 'lastName' || key in body!),
      ) as typeof parsed.data;
      const row = await editProfile(deps, c.var.viewer.userId, changes);
      return row ? c.json(toProfileDto(row)) : notFound(c);
    })
    .get('/support-visits', async (c) => {
      // The family can see when our support team viewed their account, and for how long.
      c.header('Cache-Control', 'no-store');
      return c.json(await supportVisits(deps.db, c.var.viewer.accountId));
    })
    // The quick sign-up's "finish your athlete's profile" step: the birthday and, under 18, the
    // guardian's agreement, with the registration's rules. The family's own act, like consent.
    .put('/athlete', refuseWhileImpersonating(), async (c) => {
      const parsed = athleteAgeSchema.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
      const userId = c.var.viewer.userId;
      const row = await finishAthleteProfile(deps, userId, parsed.data);
      if (row === 'complete') return apiError(c, 409, 'ATHLETE_PROFILE_COMPLETE', FINISH_PROFILE.alreadyComplete);
      if (!row) return notFound(c);
      // Under 13: the parent's consent, given now from this confirmed address (decision 0035).
      if (ageOn(parsed.data.birthday) < CHILD_AGE && parsed.data.parentName) {
        await giveParentalConsent(deps, userId, parsed.data.parentName);
        const after = await getProfile(deps.db, userId);
        return after ? c.json(toProfileDto(after)) : notFound(c);
      }
      return c.json(toProfileDto(row));
    })
    .delete('/parental-consent', refuseWhileImpersonating(PARENTAL_CONSENT.familyOnly, PARENTAL_CONSENT.title), async (c) => {
      const userId = c.var.viewer.userId;
      if (!(await withdrawParentalConsent(deps, userId))) return apiError(c, 404, 'NOT_FOUND', PARENTAL_CONSENT.none);
      const row = await getProfile(deps.db, userId);
      return row ? c.json(toProfileDto(row)) : notFound(c);
    })
    .post('/tutorial', async (c) => {
      const row = await completeTutorial(deps, c.var.viewer.userId);
      return row ? c.json(toProfileDto(row)) : notFound(c);
    })
    .post('/avatar', uploadLimit(2 * AVATAR_MAX_BYTES + MULTIPART_OVERHEAD, FILE_TOO_LARGE_5MB), async (c) => {
      const form = await readForm(c);
      const avatar = form ? await fileField(form, 'avatar') : null;
      if (!form || !avatar) return apiError(c, 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE.description, INVALID_FILE_TYPE.title);
      const current = await getProfile(deps.db, c.var.viewer.userId);
      if (current?.faceMatchConsentAt) {
        const limit = await deps.limiter.check([[RATE_RULES.faceChecksPerUser, c.var.viewer.userId]]);
        if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      }
      try {
        const row = await saveAvatar(deps, c.var.viewer.userId, avatar, await fileField(form, 'original'));
        // A new headshot is a new reference face, when face matching is on.
        if (row?.faceMatchConsentAt) await refreshHeadshotReference(deps, c.var.viewer.userId);
        return row ? c.json(toProfileDto(row)) : notFound(c);
      } catch (error) {
        return imageRejection(c, error, FILE_TOO_LARGE_5MB);
      }
    })
    .get('/face-matching', async (c) => {
      const row = await getProfile(deps.db, c.var.viewer.userId);
      if (!row) return notFound(c);
      c.header('Cache-Control', 'no-store');
      return c.json(await loadFaceMatchingState(deps, row, c.var.viewer.userId));
    })
    .put('/face-matching', familyOnly, async (c) => {
      const body = (await c.req.json().catch(() => null)) as { consent?: unknown } | null;
      if (typeof body?.consent !== 'boolean') return apiError(c, 400, 'VALIDATION_ERROR', FACE_MATCHING.consentLabel);
      // Turning it off is always possible; on waits for the birthday and the guardian's agreement.
      if (body.consent && !(await athleteProfileComplete(deps.db, c.var.viewer.userId))) return athleteProfileIncomplete(c);
      if (body.consent) {
        const limit = await deps.limiter.check([[RATE_RULES.faceChecksPerUser, c.var.viewer.userId]]);
        if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      }
      const result = await setFaceMatchingConsent(deps, c.var.viewer.userId, body.consent);
      // A request that could not be matched without consent is looked for now.
      if (result.consent) await hooks.matchAgain(c.var.viewer.userId);
      return c.json(result);
    })
    .post('/reference-photos', familyOnly, requireCompleteAthleteProfile(deps.db), uploadLimit(REFERENCE_MAX_BYTES + MULTIPART_OVERHEAD, FILE_TOO_LARGE_10MB), async (c) => {
      const form = await readForm(c);
      const photo = form ? await fileField(form, 'photo') : null;
      if (!photo) return apiError(c, 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE.description, INVALID_FILE_TYPE.title);
      const limit = await deps.limiter.check([[RATE_RULES.faceChecksPerUser, c.var.viewer.userId]]);
      if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
      try {
        const added = await addReferencePhoto(deps, c.var.viewer.userId, photo);
        // A request matching found nothing for is looked for again with the new face.
        await hooks.matchAgain(c.var.viewer.userId);
        return c.json(added, 201);
      } catch (error) {
        if (error instanceof ReferenceRejected) return apiError(c, error.code === 'CONSENT_REQUIRED' || error.code === 'TOO_MANY' ? 409 : 422, error.code, error.message);
        return imageRejection(c, error, FILE_TOO_LARGE_10MB);
      }
    })
    .delete('/reference-photos/:id', familyOnly, async (c) => {
      const id = c.req.param('id');
      const removed = /^[0-9a-f-]{36}$/i.test(id) && (await removeReferencePhoto(deps, c.var.viewer.userId, id));
      return removed ? c.json({ id }) : apiError(c, 404, 'NOT_FOUND', 'Not found');
    })
    .post('/banner', uploadLimit(BANNER_MAX_BYTES + MULTIPART_OVERHEAD, FILE_TOO_LARGE_10MB), async (c) => {
      const form = await readForm(c);
      const banner = form ? await fileField(form, 'banner') : null;
      if (!banner) return apiError(c, 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE.description, INVALID_FILE_TYPE.title);
      try {
        const row = await saveBanner(deps, c.var.viewer.userId, banner);
        return row ? c.json(toProfileDto(row)) : notFound(c);
      } catch (error) {
        return imageRejection(c, error, FILE_TOO_LARGE_10MB);
      }
    });
}
