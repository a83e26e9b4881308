// /api/share-links: the family's links (list, make, turn off); /share/:token: the page a link
// opens and its media, for anyone holding the link, signed in or not. Decision 0034.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { SHARE, SHARED_PAGE } from '../../common/dashboard-messages';
import { refuseWhileImpersonating, requireUser, type ViewerEnv } from '../auth/session';
import { isUuid } from '../db/errors';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { serveStored } from '../media/serve';
import { countOpening, createShareLink, isLinkPreview, listShareLinks, openShareLink, revokeShareLink, SHARE_DAYS_DEFAULT, SHARE_PATH, ShareRefused } from './links';
import { renderLinkGone, renderSharedReel } from './page';

const newLinkSchema = z.object({
  requestId: z.string().refine(isUuid),
  days: z.number().default(SHARE_DAYS_DEFAULT),
  includePhotos: z.boolean().default(false),
});

export function shareLinkRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await listShareLinks(deps.db, c.var.viewer.userId));
    })
    .post('/', refuseWhileImpersonating(SHARE.familyOnly, SHARE.title), async (c) => {
      const parsed = newLinkSchema.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) {
        const daysIssue = parsed.error.issues.some((i) => i.path[0] === 'days');
        return daysIssue ? apiError(c, 400, 'INVALID_DAYS', SHARE.invalidDays) : apiError(c, 404, 'NOT_FOUND', SHARE.notDelivered);
      }
      try {
        const { link, token } = await createShareLink(deps.db, c.var.viewer.userId, parsed.data);
        return c.json({ ...link, url: `${deps.config.baseUrl}${SHARE_PATH}/${token}` }, 201);
      } catch (error) {
        if (error instanceof ShareRefused) return apiError(c, error.status, error.code, error.message);
        throw error;
      }
    })
    .delete('/:id', refuseWhileImpersonating(SHARE.familyOnly, SHARE.title), async (c) => {
      const id = c.req.param('id');
      const link = isUuid(id) ? await revokeShareLink(deps.db, c.var.viewer.userId, id) : null;
      return link ? c.json(link) : apiError(c, 404, 'NOT_FOUND', SHARE.notFound);
    });
}

/**
 * Never indexed. (The site-wide Referrer-Policy already sends other sites the origin alone, never
 * the path that holds the token; the page's own meta tag sends nothing at all.)
 */
function privateHeaders(c: Context) {
  c.header('X-Robots-Tag', 'noindex, nofollow');
}

export function sharedReelRoutes(deps: AppDeps) {
  return new Hono()
    .get('/:token', async (c) => {
      privateHeaders(c);
      c.header('Cache-Control', 'no-store');
      const token = c.req.param('token');
      const shared = await openShareLink(deps.db, token);
      if (shared.state !== 'active') return c.html(renderLinkGone(shared.state), shared.state === 'unknown' ? 404 : 410);
      if (!isLinkPreview(c.req.header('user-agent'))) await countOpening(deps.db, shared.link.id);
      const base = `${SHARE_PATH}/${token}`;
      return c.html(
        renderSharedReel({
          firstName: shared.firstName,
          event: shared.event,
          expiresAt: shared.link.expiresAt,
          videos: shared.videos
            .sort((a, b) => (a.videoType === 'highlight_reel' ? 0 : 1) - (b.videoType === 'highlight_reel' ? 0 : 1))
            .map((v) => ({
              src: `${base}/video/${v.id}`,
              poster: v.thumbnailUrl ? `${base}/poster/${v.id}` : null,
              vertical: v.videoType === 'social_cut',
              label: v.videoType === 'social_cut' ? SHARED_PAGE.social : SHARED_PAGE.reel,
            })),
          photos: shared.stills.map((s, i) => ({ src: `${base}/photo/${s.id}`, alt: `${SHARED_PAGE.photos} ${i + 1}` })),
        }),
      );
    })
    .on(['GET', 'HEAD'], '/:token/:kind{video|poster|photo}/:id', async (c) => {
      privateHeaders(c);
      const shared = await openShareLink(deps.db, c.req.param('token'));
      const gone = () => c.body(null, 404);
      if (shared.state !== 'active') return gone();
      const id = c.req.param('id');
      const kind = c.req.param('kind');
      const key =
        kind === 'photo'
          ? shared.stills.find((s) => s.id === id)?.storageUrl
          : kind === 'poster'
            ? (shared.videos.find((v) => v.id === id)?.thumbnailUrl ?? undefined)
            : shared.videos.find((v) => v.id === id)?.videoUrl;
      if (!key) return gone();
      const res = await serveStored(deps.storage, key, { method: c.req.method, rangeHeader: c.req.header('range') });
      if (!res) return gone();
      // Only this link's own page may play it; a revoked link stops at the next request.
      res.headers.set('Cache-Control', 'private, no-store');
      res.headers.set('X-Robots-Tag', 'noindex, nofollow');
      return res;
    });
}
