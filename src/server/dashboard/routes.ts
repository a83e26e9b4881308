// GET /api/dashboard: what the family's dashboard shows on arrival (profile, reels, photos,
// requests, the events to ask for) in one answer: one session check and one round trip instead of
// five, the database queries running side by side. Each part is exactly what its own route answers
// (/api/profile, /videos, /stills, /requests, /events), which the page uses to refresh one part.
import { Hono } from 'hono';
import { PROFILE } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../deps';
import { listActiveEvents } from '../events/routes';
import { apiError } from '../http/errors';
import { getProfile, toProfileDto } from '../profiles/service';
import { familyRequests } from '../requests/family-requests';
import { familyStills } from '../stills/queries';
import { listVisibleVideos, toVideoDto } from '../videos/service';

export function dashboardRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).get('/', async (c) => {
    const { db } = deps;
    const userId = c.var.viewer.userId;
    const [profile, videos, stills, requests, events] = await Promise.all([
      getProfile(db, userId),
      listVisibleVideos(db, userId),
      familyStills(db, userId),
      familyRequests(db, userId),
      listActiveEvents(db),
    ]);
    if (!profile) return apiError(c, 404, 'USER_NOT_FOUND', PROFILE.notFound);
    c.header('Cache-Control', 'no-store');
    return c.json({ profile: toProfileDto(profile), videos: videos.map(toVideoDto), stills, requests, events });
  });
}
