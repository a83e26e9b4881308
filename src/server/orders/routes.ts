// /api/orders and /api/promo-codes: what the dashboard needs before payments exist: the
// caller's order for a checkout session id, and promo-code checks.
import { Hono } from 'hono';
import { and, eq, sql } from 'drizzle-orm';
import { PROMO } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { orders, promoCodes } from '../db/schema';
import { clientIp } from '../http/client-ip';
import type { AppDeps } from '../http/deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES } from '../http/rate-limit';

/** What a checkout session id can look like (the payment provider's, or ours); anything else names no order. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,255}$/;

export function orderRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/by-session/:sessionId', async (c) => {
      // Only the caller's own order: a session id from the URL is never trusted on its own.
      const sessionId = c.req.param('sessionId');
      const [order] = SESSION_ID.test(sessionId)
        ? await deps.db
            .select()
            .from(orders)
            .where(and(eq(orders.stripeSessionId, sessionId), eq(orders.userId, c.var.viewer.userId)))
        : [];
      if (!order) return apiError(c, 404, 'NOT_FOUND', 'Order not found');
      return c.json({ id: order.id, amount: order.amount, status: order.status, createdAt: order.createdAt.toISOString() });
    });
}

export function promoRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).post('/check', async (c) => {
    // Codes are worth money: guessing them is limited per account and per address.
    const limit = await deps.limiter.check([
      [RATE_RULES.promoCheckPerUser, c.var.viewer.userId],
      [RATE_RULES.promoCheckPerIp, clientIp(c, deps.config.trustProxy)],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    const body = (await c.req.json().catch(() => null)) as { code?: unknown } | null;
    const code = typeof body?.code === 'string' ? body.code.trim() : '';
    if (!code || code.length > 64 || !/^[\w-]+$/.test(code)) {
      return apiError(c, 404, 'INVALID_PROMO', PROMO.invalid.description, PROMO.invalid.title);
    }
    const [promo] = await deps.db
      .select({ code: promoCodes.code, discountPercent: promoCodes.discountPercent })
      .from(promoCodes)
      .where(and(eq(sql`lower(${promoCodes.code})`, code.toLowerCase()), eq(promoCodes.active, true)));
    if (!promo) return apiError(c, 404, 'INVALID_PROMO', PROMO.invalid.description, PROMO.invalid.title);
    return c.json({ code: promo.code, discountPercent: promo.discountPercent });
  });
}
