import { Hono } from 'hono';
import { REQUEST } from '../../common/dashboard-messages';
import { firstIssue, highlightRequestSchema } from '../../common/schemas';
import { requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { athleteProfileComplete, athleteProfileIncomplete } from '../profiles/athlete';
import { reelProgress } from './reel-progress';
import { familyRequests } from './family-requests';
import { createRequest, RequestRejected, toRequestDto } from './service';

export function requestRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await familyRequests(deps.db, c.var.viewer.userId));
    })
    .post('/', async (c) => {
      const raw: unknown = await c.req.json().catch(() => null);
      // A body that is not an object (missing, not JSON, null) names no event either.
      const parsed = highlightRequestSchema.safeParse(raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {});
      if (!parsed.success) {
        const eventIssue = parsed.error.issues.some((i) => i.path[0] === 'eventId');
        return eventIssue
          ? apiError(c, 400, 'EVENT_REQUIRED', REQUEST.eventRequired.description, REQUEST.eventRequired.title)
          : apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error), REQUEST.failedTitle);
      }
      // A reel searches the footage for the athlete: the birthday and, under 18, a guardian's agreement first.
      if (!(await athleteProfileComplete(deps.db, c.var.viewer.userId))) return athleteProfileIncomplete(c);
      try {
        const row = await createRequest(deps, c.var.viewer.userId, parsed.data);
        return c.json({ ...toRequestDto(row), paid: false, reel: await reelProgress(deps.db, row) }, 201);
      } catch (error) {
        if (error instanceof RequestRejected) {
          return apiError(c, error.code === 'ALREADY_OPEN' ? 409 : 400, error.code, error.message, error.title);
        }
        throw error;
      }
    });
}
