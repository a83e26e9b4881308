// GET /api/dashboard: what the family's dashboard shows on arrival (profile, reels, photos,
// requests, the events to ask for, the face matching card, support visits) in one answer: one
// session check and one round trip instead of seven, the database queries running side by side.
// Each part is exactly what its own route answers (/api/profile, /videos, /stills, /requests,
// /events, /profile/face-matching, /profile/support-visits), which the page uses to refresh one part.
import { Hono } from 'hono';
import { PROFILE } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { supportVisits } from '../auth/support-visits';
import type { AppDeps } from '../deps';
import { listActiveEvents } from '../events/routes';
import { referenceFacts } from '../faces/references';
import { apiError } from '../http/errors';
import { faceMatchingState } from '../profiles/face-matching-state';
import { getProfile, toProfileDto } from '../profiles/service';
import { familyRequests } from '../requests/family-requests';
import { familyStills } from '../stills/queries';
import { listVisibleVideos, toVideoDto } from '../videos/service';

export function dashboardRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).get('/', async (c) => {
    const { db } = deps;
    const userId = c.var.viewer.userId;
    const [profile, videos, stills, requests, events, visits, references] = await Promise.all([
      getProfile(db, userId),
      listVisibleVideos(db, userId),
      familyStills(db, userId),
      familyRequests(db, userId),
      listActiveEvents(db),
      supportVisits(db, userId),
      referenceFacts(deps, userId),
    ]);
    if (!profile) return apiError(c, 404, 'USER_NOT_FOUND', PROFILE.notFound);
    c.header('Cache-Control', 'no-store');
    return c.json({
      profile: toProfileDto(profile),
      videos: videos.map(toVideoDto),
      stills,
      requests,
      events,
      faceMatching: faceMatchingState(profile, references, userId),
      supportVisits: visits,
    });
  });
}
