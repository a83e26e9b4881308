// /api/stills: the athlete's photo stills, in order_position order; each downloadable under a
// name the server gives it ("<Athlete> – <Event> – Photo 3.jpg", media/download-names.ts).
import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { MEDIA } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { isUuid } from '../db/errors';
import { userStills } from '../db/schema';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { namingContext, stillDownloadName } from '../media/download-names';
import { serveStored } from '../media/serve';
import { familyStills, photoNumber } from './queries';

export function stillRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await familyStills(deps.db, c.var.viewer.userId));
    })
    .get('/:id/download', async (c) => {
      const id = c.req.param('id');
      const [still] = isUuid(id) ? await deps.db.select().from(userStills).where(eq(userStills.id, id)) : [];
      const viewer = c.var.viewer;
      if (!still || (!viewer.isAdmin && (still.userId !== viewer.userId || !still.isVisible))) return apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
      const name = stillDownloadName(await namingContext(deps.db, still.userId, still.requestId), await photoNumber(deps.db, still), still.storageUrl);
      const res = await serveStored(deps.storage, still.storageUrl, { method: c.req.method, rangeHeader: c.req.header('range'), downloadName: name });
      return res ?? apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
    });
}
