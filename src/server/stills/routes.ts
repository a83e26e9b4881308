// /api/stills: the athlete's photo stills, in order_position order; each downloadable.
import { Hono } from 'hono';
import { and, asc, eq } from 'drizzle-orm';
import { MEDIA } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { isUuid } from '../db/errors';
import { userStills } from '../db/schema';
import type { AppDeps } from '../http/deps';
import { apiError } from '../http/errors';
import { serveStored } from '../media/serve';
import { mediaUrl } from '../storage/keys';

export function stillRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/', async (c) => {
      const rows = await deps.db
        .select()
        .from(userStills)
        .where(and(eq(userStills.userId, c.var.viewer.userId), eq(userStills.isVisible, true)))
        .orderBy(asc(userStills.orderPosition), asc(userStills.createdAt));
      c.header('Cache-Control', 'no-store');
      return c.json(
        rows.map((r) => ({
          id: r.id,
          url: mediaUrl(r.storageUrl)!,
          downloadUrl: `/api/stills/${r.id}/download`,
          originalFilename: r.originalFilename,
          orderPosition: r.orderPosition,
        })),
      );
    })
    .get('/:id/download', async (c) => {
      const id = c.req.param('id');
      const [still] = isUuid(id) ? await deps.db.select().from(userStills).where(eq(userStills.id, id)) : [];
      const viewer = c.var.viewer;
      if (!still || (!viewer.isAdmin && (still.userId !== viewer.userId || !still.isVisible))) return apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
      const ext = still.storageUrl.split('.').pop() ?? 'jpg';
      const name = still.originalFilename ?? `photo-${still.orderPosition + 1}.${ext}`;
      const res = await serveStored(deps.storage, still.storageUrl, { method: c.req.method, rangeHeader: c.req.header('range'), downloadName: name });
      return res ?? apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
    });
}
