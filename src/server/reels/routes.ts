// /api/admin/requests/:id/review… and /api/admin/footage/:id/stream: the admin's review of a
// request's clips and its render. Mounted behind the admin guard (admin/routes.ts); thin: the
// rules live in review.ts and render-job.ts.
import { Hono, type Context } from 'hono';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { REVIEW } from '../../common/admin-messages';
import type { ViewerEnv } from '../auth/session';
import { isUuid } from '../db/errors';
import { footage, highlightRequests } from '../db/schema';
import { audit } from '../audit/log';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { serveStored } from '../media/serve';
import { clipThumbnail, footageFrameJpeg } from './clip-thumbnail';
import { labelPerson, peopleAt, peopleFrameSource, PeopleRefused } from '../people/labels';
import { startRender } from './render-job';
import { announceReadyToPurchase } from '../requests/reel-progress';
import { addClip, decideClip, loadReview, reorderClips, ReviewRefused, trimClip } from './review';

const seconds = z.number().finite().min(0).max(24 * 60 * 60);
const decisionSchema = z.object({ decision: z.enum(['accepted', 'rejected']).nullable() });
const trimSchema = z.object({ startS: seconds, endS: seconds });
const addSchema = z.object({ footageId: z.string().uuid(), startS: seconds, endS: seconds });
const orderSchema = z.object({ ids: z.array(z.string().uuid()).max(500) });
const renderSchema = z.object({ spotlight: z.boolean().default(true) });
const labelSchema = z.object({ athlete: z.boolean() });
const momentSchema = z.object({ footageId: z.string().uuid(), t: z.coerce.number().finite().min(0).max(24 * 60 * 60) });

async function body<T extends z.ZodTypeAny>(c: Context, schema: T): Promise<z.output<T> | null> {
  const parsed = schema.safeParse(await c.req.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

/** Runs `work` and answers a refusal with its status and message. */
async function answer(c: Context, work: () => Promise<Response>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ReviewRefused) return apiError(c, error.status, error.status === 404 ? 'NOT_FOUND' : error.status === 409 ? 'STATE_CHANGED' : 'VALIDATION_ERROR', error.message);
    throw error;
  }
}

/** Runs `work` and answers the person labels' refusals (no such request, file or track). */
async function people(c: Context, work: () => Promise<Response>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PeopleRefused) return apiError(c, error.status, error.status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR', error.status === 404 ? REVIEW.notFound : REVIEW.invalid);
    throw error;
  }
}

export function reelRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .get('/requests/:id/review', (c) =>
      answer(c, async () => {
        c.header('Cache-Control', 'no-store');
        return c.json(await loadReview(deps.db, c.req.param('id')));
      }),
    )
    .put('/requests/:id/clips/:clipId/decision', async (c) => {
      const input = await body(c, decisionSchema);
      if (!input) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return answer(c, async () => {
        await decideClip(deps, c.req.param('id'), c.req.param('clipId'), input.decision);
        return c.json({ id: c.req.param('clipId'), decision: input.decision });
      });
    })
    .put('/requests/:id/clips/:clipId/span', async (c) => {
      const input = await body(c, trimSchema);
      if (!input) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return answer(c, async () => c.json({ id: c.req.param('clipId'), ...(await trimClip(deps, c.req.param('id'), c.req.param('clipId'), input)) }));
    })
    .post('/requests/:id/clips', async (c) => {
      const input = await body(c, addSchema);
      if (!input) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return answer(c, async () => c.json(await addClip(deps, c.req.param('id'), input), 201));
    })
    .get('/requests/:id/clips/:clipId/thumbnail', async (c) => {
      // A frame of the clip, made by the server on first sight; for admins only, like every route here.
      const key = await clipThumbnail(deps, c.req.param('id'), c.req.param('clipId')).catch((e: Error) => {
        // Footage gone or unreadable: the screen shows its grey square instead.
        console.warn('[reels] no clip thumbnail:', e.message);
        return null;
      });
      const res = key ? await serveStored(deps.storage, key, { method: c.req.method }) : null;
      if (!res) return apiError(c, 404, 'NOT_FOUND', REVIEW.clipNotFound);
      res.headers.set('Cache-Control', 'private, no-store');
      return res;
    })
    // The people tracked on a frame of a clip, and the frame itself, for the admin to point at the athlete.
    .get('/requests/:id/people', async (c) => {
      const input = momentSchema.safeParse(c.req.query());
      if (!input.success) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return people(c, async () => c.json(await peopleAt(deps.db, c.req.param('id'), input.data.footageId, input.data.t)));
    })
    .get('/requests/:id/frame', async (c) => {
      const input = momentSchema.safeParse(c.req.query());
      if (!input.success) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return people(c, async () => {
        const { sourceKey } = await peopleFrameSource(deps.db, c.req.param('id'), input.data.footageId);
        // No frame there (past the file's end, or the footage gone): not found, as a missing file.
        const jpeg = await footageFrameJpeg(deps.storage, sourceKey, input.data.t, 1280).catch(() => null);
        if (!jpeg) return apiError(c, 404, 'NOT_FOUND', REVIEW.clipNotFound);
        return c.body(new Uint8Array(jpeg), 200, { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, no-store' });
      });
    })
    // "This is the athlete" / "not the athlete": labels the track and those its evidence links to, and matches again.
    .put('/requests/:id/people/:personId', async (c) => {
      const input = await body(c, labelSchema);
      if (!input) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return people(c, async () => {
        const requestId = c.req.param('id');
        const labelled = await labelPerson(deps.db, requestId, c.req.param('personId'), input.athlete, c.var.viewer.userId);
        await audit(deps.db, { actorId: c.var.viewer.userId, action: input.athlete ? 'people.athlete' : 'people.not-athlete', subjectUserId: null, details: { requestId, personTrackIds: labelled } });
        await deps.jobs.send('faces.match-request', { requestId });
        return c.json({ labelled, matchingState: 'matching' });
      });
    })
    // The admin confirms the athlete is this family's despite a doubtful roster link: it can be bought.
    .post('/requests/:id/confirm-athlete', async (c) =>
      answer(c, async () => {
        const id = c.req.param('id');
        const [row] = isUuid(id)
          ? await deps.db
              .update(highlightRequests)
              .set({ rosterConfirmedAt: new Date(), rosterConfirmedBy: c.var.viewer.userId })
              .where(eq(highlightRequests.id, id))
              .returning({ id: highlightRequests.id, userId: highlightRequests.userId })
          : [];
        if (!row) return apiError(c, 404, 'NOT_FOUND', REVIEW.notFound);
        await audit(deps.db, { actorId: c.var.viewer.userId, action: 'roster.confirm', subjectUserId: row.userId, details: { requestId: row.id } });
        await deps.bus.publish({ topic: 'highlight_requests', userId: row.userId, action: 'update', id: row.id });
        // The family may buy now: the "ready to purchase" mail that waited for this goes (once).
        await announceReadyToPurchase(deps, row.id);
        return c.json({ confirmed: true });
      }),
    )
    .put('/requests/:id/clip-order', async (c) => {
      const input = await body(c, orderSchema);
      if (!input) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.orderChanged);
      return answer(c, async () => {
        await reorderClips(deps, c.req.param('id'), input.ids);
        return c.json({ ids: input.ids });
      });
    })
    .post('/requests/:id/render', async (c) => {
      const input = await body(c, renderSchema);
      if (!input) return apiError(c, 400, 'VALIDATION_ERROR', REVIEW.invalid);
      return answer(c, async () => {
        const render = await startRender(deps, c.req.param('id'), c.var.viewer.userId, input);
        return c.json({ id: render.id, state: render.state }, 202);
      });
    })
    .on(['GET', 'HEAD'], '/footage/:id/stream', async (c) => {
      // The admin plays a clip in place: byte ranges of the stored footage, never the whole file.
      const id = c.req.param('id');
      const [file] = isUuid(id) ? await deps.db.select({ sourceKey: footage.sourceKey }).from(footage).where(eq(footage.id, id)) : [];
      if (!file) return apiError(c, 404, 'NOT_FOUND', REVIEW.notFound);
      const res = await serveStored(deps.storage, file.sourceKey, { method: c.req.method, rangeHeader: c.req.header('range') });
      if (!res) return apiError(c, 404, 'NOT_FOUND', REVIEW.notFound);
      // Stored as bytes; browsers play it as video (the uploads are checked to be one).
      res.headers.set('Content-Type', 'video/mp4');
      res.headers.set('Cache-Control', 'private, no-store');
      return res;
    });
}
