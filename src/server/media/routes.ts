// GET /api/media/{bucket}/{userId}/{file}: stored pictures (avatars, banners, headshots,
// thumbnails, stills, a reel's watermarked preview), only for their owner or an admin. Videos go
// through /api/videos.
import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { MEDIA } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { reelRenders, userStills, userVideos } from '../db/schema';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { parseKey } from '../storage/keys';
import { isValidKey } from '../storage/storage';
import { serveStored } from './serve';

export function mediaRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).get('/:bucket/:userId/:file', async (c) => {
    const key = `${c.req.param('bucket')}/${c.req.param('userId')}/${c.req.param('file')}`;
    const parsed = parseKey(key);
    const viewer = c.var.viewer;
    // Someone else's file answers exactly like a missing one.
    if (!parsed || !isValidKey(key) || parsed.bucket === 'user-videos' || parsed.bucket === 'game-footage' || (!viewer.isAdmin && parsed.userId !== viewer.userId)) {
      return apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
    }
    if (parsed.bucket === 'video-thumbnails' && !viewer.isAdmin) {
      const [video] = await deps.db
        .select({ id: userVideos.id })
        .from(userVideos)
        .where(and(eq(userVideos.thumbnailUrl, key), eq(userVideos.isVisible, true), eq(userVideos.status, 'active')))
        .limit(1);
      if (!video) return apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
    }
    if (parsed.bucket === 'user-stills' && !viewer.isAdmin) {
      // A still of a reel not yet paid for is not the family's to see yet.
      const [still] = await deps.db.select({ id: userStills.id }).from(userStills).where(and(eq(userStills.storageUrl, key), eq(userStills.isVisible, true))).limit(1);
      if (!still) return apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
    }
    if (parsed.bucket === 'reel-previews' && !viewer.isAdmin) {
      // Only a render's current preview (an older one is gone with its render's outputs).
      const [render] = await deps.db.select({ id: reelRenders.id }).from(reelRenders).where(eq(reelRenders.previewKey, key)).limit(1);
      if (!render) return apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
    }
    const res = await serveStored(deps.storage, key, { method: c.req.method, rangeHeader: c.req.header('range') });
    return res ?? apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
  });
}
