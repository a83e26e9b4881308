// GET /api/dashboard: what the family's dashboard shows on arrival (profile, reels, photos,
// requests, the events to ask for, share links, the face matching card, support visits) in one answer: one
// session check and one round trip instead of seven, five statements side by side (the profile
// brings the references and whether support ever visited). Each part is exactly what its own route
// answers (/api/profile, /videos, /stills, /requests, /events, /profile/face-matching,
// /profile/support-visits), which the page uses to refresh one part.
import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { PROFILE } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { everVisitedColumn, supportVisits } from '../auth/support-visits';
import { preparedQuery } from '../db/prepared';
import { userProfiles } from '../db/schema';
import type { AppDeps } from '../deps';
import { listActiveEvents } from '../events/routes';
import { listShareLinks } from '../sharing/links';
import { referenceFactsColumn, referenceFactsFromJson } from '../faces/references';
import { apiError } from '../http/errors';
import { faceMatchingState } from '../profiles/face-matching-state';
import { toProfileDto } from '../profiles/service';
import { familyRequests } from '../requests/family-requests';
import { familyStills } from '../stills/queries';
import { listVisibleVideos, toVideoDto } from '../videos/service';

const profileWithCards = preparedQuery((db) =>
  db
    .select({ profile: userProfiles, references: referenceFactsColumn, visited: everVisitedColumn })
    .from(userProfiles)
    .where(eq(userProfiles.id, sql.placeholder('userId')))
    .prepare('dashboard_profile_with_cards'),
);

export function dashboardRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).get('/', async (c) => {
    const { db } = deps;
    const userId = c.var.viewer.userId;
    const [[row], videos, stills, requests, events, shareLinks] = await Promise.all([
      profileWithCards(db).execute({ userId }),
      listVisibleVideos(db, userId),
      familyStills(db, userId),
      familyRequests(db, userId),
      listActiveEvents(db),
      listShareLinks(db, userId),
    ]);
    if (!row) return apiError(c, 404, 'USER_NOT_FOUND', PROFILE.notFound);
    c.header('Cache-Control', 'no-store');
    return c.json({
      profile: toProfileDto(row.profile),
      videos: videos.map(toVideoDto),
      stills,
      requests,
      events,
      shareLinks,
      faceMatching: faceMatchingState(row.profile, referenceFactsFromJson(row.references), userId),
      // Visits are to the family's account, whichever athlete the dashboard is on.
      supportVisits: row.visited || c.var.viewer.accountId !== userId ? await supportVisits(db, c.var.viewer.accountId) : [],
    });
  });
}
