// /api/admin: only for active admins (requireAdmin: 401 for visitors, 403 for everyone else,
// and for an admin who is viewing the site as a user). Thin: each route checks its input and
// calls the service of the domain it touches.
import { footageRoutes } from '../footage/routes';
import { reelRoutes } from '../reels/routes';
import { createFootageUploads } from '../footage/uploads';
import { Hono, type Context } from 'hono';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ADMIN, REFUNDS } from '../../common/admin-messages';
import { hasControlCharacters } from '../../common/schemas';
import { eraseAccount } from '../accounts/erasure';
import { archiveWaitingList, listWaitingList, waitingListCsv } from '../accounts/waiting-list';
import { audit } from '../audit/log';
import { requireAdmin, type ViewerEnv } from '../auth/session';
import { isUuid } from '../db/errors';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { jsonText } from '../http/json-text';
import { readForm, uploadLimit } from '../http/uploads';
import { user, userProfiles } from '../db/schema';
import { JOB_NAMES, type JobType } from '../jobs/definitions';
import { listOrders, ordersCsv, ordersQuerySchema } from '../orders/queries';
import { RefundRefused, startRefund } from '../payments/refunds';
import { createPromo, listPromos, newPromoSchema, PromoCodeTaken, setPromoActive } from '../payments/promo-codes';
import { listRequestQueue, queueQuerySchema } from '../requests/queue';
import { transitionRequest, TransitionRefused, type RequestTransition } from '../requests/service';
import { replaceStills, STILL_MAX_BYTES, STILLS_MAX_FILES, StillsRejected } from '../stills/service';
import { deleteVideo } from '../videos/service';
import { createVideoUploads } from '../videos/uploads';
import { listUsersJson, portalStats, usersQuerySchema, type AdminUsersPage } from './users';

const promoDto = (p: { code: string; discountPercent: number; active: boolean; expiresOn: string | null; maxUses: number | null; uses?: number; createdAt: Date }) => ({
  code: p.code,
  discountPercent: p.discountPercent,
  active: p.active,
  expiresOn: p.expiresOn,
  maxUses: p.maxUses,
  uses: p.uses ?? 0,
  createdAt: p.createdAt.toISOString(),
});

/** A refund: the amount in cents (all that is left when not given) and the admin's reason. */
const refundSchema = z
  .object({
    amountCents: z.number({ message: REFUNDS.badAmount }).int(REFUNDS.badAmount).min(1, REFUNDS.badAmount).max(10_000_000, REFUNDS.badAmount).optional(),
    reason: z.string().trim().max(500, 'Keep the reason under 500 characters.').refine((v) => !hasControlCharacters(v), 'Keep the reason to plain text.').optional(),
  })
  .strict();
/** At most a page of the queue approved at once. */
const approveSchema = z.object({ ids: z.array(z.string().uuid()).min(1).max(50) }).strict();

export function adminRoutes(deps: AppDeps) {
  const uploads = createVideoUploads(deps);
  const footageUploads = createFootageUploads(deps);
  const transition = (move: RequestTransition) => async (c: Context<ViewerEnv>) => {
    try {
      const row = await transitionRequest(deps, c.req.param('id') ?? '', move, c.var.viewer.userId);
      return c.json({ id: row.id, status: row.status });
    } catch (error) {
      if (!(error instanceof TransitionRefused)) throw error;
      return apiError(c, error.code === 'NOT_FOUND' ? 404 : 409, error.code, error.message);
    }
  };

  return (
    new Hono<ViewerEnv>()
      .use(requireAdmin(deps.auth, deps.db))
      .get('/whoami', (c) => {
        const viewer = c.var.viewer;
        return c.json({ userId: viewer.userId, email: viewer.email, name: viewer.name });
      })
      .get('/stats', async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await portalStats(deps.db));
      })
      .get('/users', async (c) => {
        const query = usersQuerySchema.safeParse(c.req.query());
        if (!query.success) return apiError(c, 400, 'VALIDATION_ERROR', ADMIN.users.loadFailed.description);
        c.header('Cache-Control', 'no-store');
        return jsonText<AdminUsersPage>(c, await listUsersJson(deps.db, query.data));
      })
      // The work queue (issue 36 item 1): every request, where it stands, filtered and searched.
      .get('/requests', async (c) => {
        const query = queueQuerySchema.safeParse(c.req.query());
        if (!query.success) return apiError(c, 400, 'VALIDATION_ERROR', ADMIN.queue.loadFailed);
        c.header('Cache-Control', 'no-store');
        return c.json(await listRequestQueue(deps.db, query.data));
      })
      // Several requests approved at once (each as the one-by-one approval does, audited there).
      .post('/requests/approve', async (c) => {
        const body = approveSchema.safeParse(await c.req.json().catch(() => null));
        if (!body.success) return apiError(c, 400, 'VALIDATION_ERROR', ADMIN.queue.approveInvalid);
        const approved: string[] = [];
        const refused: Array<{ id: string; message: string }> = [];
        for (const id of new Set(body.data.ids)) {
          try {
            approved.push((await transitionRequest(deps, id, 'acknowledge', c.var.viewer.userId)).id);
          } catch (error) {
            if (!(error instanceof TransitionRefused)) throw error;
            refused.push({ id, message: error.message });
          }
        }
        return c.json({ approved, refused });
      })
      .post('/requests/:id/acknowledge', transition('acknowledge'))
      .post('/requests/:id/undo', transition('undo'))
      .post('/requests/:id/deliver', transition('deliver'))
      .delete('/videos/:id', async (c) => {
        const row = await deleteVideo(deps, c.req.param('id'), c.var.viewer.userId);
        return row ? c.json({ id: row.id }) : apiError(c, 404, 'NOT_FOUND', ADMIN.deleteVideo.failedFallback, ADMIN.deleteVideo.failedTitle);
      })
      // Erasing a family's account (issue 33): the admin types the account's address to confirm;
      // an admin's account is refused; audited in eraseAccount.
      .post('/users/:id/erase', async (c) => {
        const userId = c.req.param('id');
        const body = (await c.req.json().catch(() => null)) as { confirmEmail?: unknown } | null;
        const typed = typeof body?.confirmEmail === 'string' ? body.confirmEmail.trim().toLowerCase() : '';
        // The address the list shows: the family's, for an athlete the family added (decision 0036).
        const [target] = await deps.db.select({ email: userProfiles.email }).from(userProfiles).where(eq(userProfiles.id, userId));
        if (!target) return apiError(c, 404, 'USER_NOT_FOUND', ADMIN.users.erase.failed.description, ADMIN.users.erase.failed.title);
        if (!typed || typed !== target.email.toLowerCase()) return apiError(c, 400, 'CONFIRMATION_MISMATCH', ADMIN.users.erase.mismatch, ADMIN.users.erase.failed.title);
        const outcome = await eraseAccount(deps, userId, { kind: 'admin', adminId: c.var.viewer.userId });
        if (!outcome.erased) {
          return outcome.reason === 'admin'
            ? apiError(c, 409, 'ADMIN_ACCOUNT', ADMIN.users.erase.refusedAdmin, ADMIN.users.erase.failed.title)
            : apiError(c, 404, 'USER_NOT_FOUND', ADMIN.users.erase.failed.description, ADMIN.users.erase.failed.title);
        }
        return c.json({ erased: true });
      })
      .post('/users/:id/stills', uploadLimit(STILLS_MAX_FILES * STILL_MAX_BYTES + 256 * 1024, { title: ADMIN.stills.invalidType, description: ADMIN.stills.tooLarge }), async (c) => {
        const userId = c.req.param('id');
        const form = await readForm(c);
        const files = form ? [form.files].flat().filter((f): f is File => f instanceof File && f.size > 0) : [];
        const [owner] = await deps.db.select({ id: user.id }).from(user).where(eq(user.id, userId));
        if (!owner) return apiError(c, 404, 'USER_NOT_FOUND', ADMIN.video.failedFallback, ADMIN.video.uploadFailed);
        try {
          const stills = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: Buffer.from(await f.arrayBuffer()) })));
          const count = await replaceStills(deps, userId, stills, c.var.viewer.userId);
          return c.json({ count }, 201);
        } catch (error) {
          if (!(error instanceof StillsRejected)) throw error;
          return apiError(c, error.status, 'STILLS_REJECTED', error.message, error.title);
        }
      })
      .get('/orders', async (c) => {
        const query = ordersQuerySchema.safeParse(c.req.query());
        if (!query.success) return apiError(c, 400, 'VALIDATION_ERROR', query.error.issues[0]!.message, ADMIN.orders.loadFailed.title);
        c.header('Cache-Control', 'no-store');
        return c.json(await listOrders(deps.db, query.data));
      })
      .get('/orders.csv', async (c) => {
        const query = ordersQuerySchema.safeParse(c.req.query());
        if (!query.success) return apiError(c, 400, 'VALIDATION_ERROR', query.error.issues[0]!.message, ADMIN.orders.loadFailed.title);
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
        c.header('Cache-Control', 'no-store');
        return c.body(await ordersCsv(deps.db, query.data));
      })
      .post('/orders/:id/refunds', async (c) => {
        const body = refundSchema.safeParse(await c.req.json().catch(() => null));
        if (!body.success) return apiError(c, 400, 'VALIDATION_ERROR', body.error.issues[0]!.message, REFUNDS.failedTitle);
        try {
          const refund = await startRefund(deps, { orderId: c.req.param('id'), ...body.data, adminId: c.var.viewer.userId });
          return c.json({ id: refund.id, amount: refund.amount, status: refund.status }, 202);
        } catch (error) {
          if (!(error instanceof RefundRefused)) throw error;
          return apiError(c, error.status, error.code, error.message, REFUNDS.failedTitle);
        }
      })
      .get('/promo-codes', async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json((await listPromos(deps.db)).map(promoDto));
      })
      .post('/promo-codes', async (c) => {
        const input = newPromoSchema.safeParse(await c.req.json().catch(() => ({})));
        if (!input.success) return apiError(c, 400, 'VALIDATION_ERROR', input.error.issues[0]!.message, ADMIN.promoCodes.failedTitle);
        try {
          const promo = await createPromo(deps.db, input.data);
          await audit(deps.db, { actorId: c.var.viewer.userId, action: 'promo.create', subjectUserId: null, details: promoDto(promo) });
          return c.json(promoDto(promo), 201);
        } catch (error) {
          if (!(error instanceof PromoCodeTaken)) throw error;
          return apiError(c, 409, 'PROMO_CODE_TAKEN', error.message, ADMIN.promoCodes.failedTitle);
        }
      })
      .patch('/promo-codes/:code', async (c) => {
        const body = (await c.req.json().catch(() => null)) as { active?: unknown } | null;
        if (typeof body?.active !== 'boolean') return apiError(c, 400, 'VALIDATION_ERROR', 'Say whether the code is active.', ADMIN.promoCodes.failedTitle);
        const promo = await setPromoActive(deps.db, c.req.param('code'), body.active);
        if (!promo) return apiError(c, 404, 'NOT_FOUND', ADMIN.promoCodes.notFound, ADMIN.promoCodes.failedTitle);
        await audit(deps.db, { actorId: c.var.viewer.userId, action: body.active ? 'promo.activate' : 'promo.deactivate', subjectUserId: null, details: { code: promo.code } });
        return c.json(promoDto(promo));
      })
      .get('/waiting-list', async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await listWaitingList(deps.db));
      })
      .get('/waiting-list.csv', async (c) => {
        const list = await listWaitingList(deps.db);
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="waiting-list-${new Date().toISOString().slice(0, 10)}.csv"`);
        c.header('Cache-Control', 'no-store');
        return c.body(waitingListCsv(list.entries));
      })
      .post('/waiting-list/archive', async (c) => {
        // Only what the admin was looking at: entries newer than the page stay. Without that
        // moment (a body that is no object, or no date) nothing is archived.
        const body = (await c.req.json().catch(() => null)) as { upTo?: unknown } | null;
        const upTo = typeof body?.upTo === 'string' ? new Date(body.upTo) : null;
        if (!upTo || Number.isNaN(upTo.getTime())) return apiError(c, 400, 'VALIDATION_ERROR', ADMIN.waitingList.archiveNeedsMoment);
        return c.json({ archived: await archiveWaitingList(deps.db, c.var.viewer.userId, upTo) });
      })
      .get('/jobs/failed', async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await deps.jobs.failed());
      })
      .post('/jobs/:name/:id/retry', async (c) => {
        const name = c.req.param('name') as JobType;
        const id = c.req.param('id');
        if (!JOB_NAMES.includes(name) || !isUuid(id)) return apiError(c, 404, 'NOT_FOUND', 'Not found');
        await deps.jobs.retry(name, id);
        return c.json({ retried: true });
      })
      // Resumable video uploads (tus): create, continue, check, cancel.
      .all('/footage-uploads', (c) => footageUploads.handle(c))
      .all('/footage-uploads/:id', (c) => footageUploads.handle(c))
      .route('/', footageRoutes(deps))
      .route('/', reelRoutes(deps))
      .all('/uploads', (c) => uploads.handle(c))
      .all('/uploads/:id', (c) => uploads.handle(c))
  );
}
