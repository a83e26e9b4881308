import { Hono } from 'hono';
import { THUMBNAIL_MAX_BYTES } from '../../common/constants';
import { FILE_TOO_LARGE_5MB, INVALID_FILE_TYPE } from '../../common/messages';
import { MEDIA } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { fileField, readForm, uploadLimit } from '../http/uploads';
import { imageRejection } from '../media/images';
import { namingContext, videoDownloadName } from '../media/download-names';
import { serveStored } from '../media/serve';
import { findWatchableVideo, listVisibleVideos, saveThumbnail, toVideoDto } from './service';

export function videoRoutes(deps: AppDeps) {
  const missing = (c: Parameters<typeof apiError>[0]) => apiError(c, 404, 'NOT_FOUND', MEDIA.notFound);
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/', async (c) => {
      const rows = await listVisibleVideos(deps.db, c.var.viewer.userId);
      c.header('Cache-Control', 'no-store');
      return c.json(rows.map(toVideoDto));
    })
    .on(['GET', 'HEAD'], '/:id/:mode{stream|download}', async (c) => {
      const video = await findWatchableVideo(deps.db, c.var.viewer, c.req.param('id'));
      if (!video?.videoUrl) return missing(c);
      // A download is saved as "<Athlete> – <Event> – Highlight Reel.mp4" (media/download-names.ts).
      const downloading = c.req.param('mode') === 'download';
      const res = await serveStored(deps.storage, video.videoUrl, {
        method: c.req.method,
        rangeHeader: c.req.header('range'),
        downloadName: downloading ? videoDownloadName(await namingContext(deps.db, video.userId, video.requestId), video) : undefined,
      });
      return res ?? missing(c);
    })
    .put('/:id/thumbnail', uploadLimit(THUMBNAIL_MAX_BYTES + 64 * 1024, FILE_TOO_LARGE_5MB), async (c) => {
      const video = await findWatchableVideo(deps.db, c.var.viewer, c.req.param('id'));
      // Only the owner (or an admin) sets a thumbnail; anyone else sees no such video.
      if (!video) return missing(c);
      const form = await readForm(c);
      const bytes = form ? await fileField(form, 'thumbnail') : null;
      if (!bytes) return apiError(c, 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE.description, INVALID_FILE_TYPE.title);
      try {
        return c.json(toVideoDto(await saveThumbnail(deps, video, bytes)));
      } catch (error) {
        return imageRejection(c, error, FILE_TOO_LARGE_5MB);
      }
    });
}
