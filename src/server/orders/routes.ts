// /api/orders and /api/promo-codes: the caller's order for a checkout session id (what the
// dashboard shows after the provider sends the buyer back), and promo-code checks.
import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { PROMO } from '../../common/dashboard-messages';
import { requireUser, type ViewerEnv } from '../auth/session';
import { highlightRequests, orders } from '../db/schema';
import { clientIp } from '../http/client-ip';
import type { AppDeps } from '../deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES } from '../http/rate-limit';
import { promoFor } from '../payments/promo-codes';

/** What a checkout session id can look like (the payment provider's, or ours); anything else names no order. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,255}$/;

export function orderRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .use(requireUser(deps.auth, deps.db))
    .get('/by-session/:sessionId', async (c) => {
      // Only the caller's own order: a session id from the URL is never trusted on its own.
      const sessionId = c.req.param('sessionId');
      const [row] = SESSION_ID.test(sessionId)
        ? await deps.db
            .select({ order: orders, event: highlightRequests.event })
            .from(orders)
            .leftJoin(highlightRequests, eq(highlightRequests.id, orders.requestId))
            .where(and(eq(orders.stripeSessionId, sessionId), eq(orders.userId, c.var.viewer.userId)))
        : [];
      if (!row) return apiError(c, 404, 'NOT_FOUND', 'Order not found');
      const { order } = row;
      c.header('Cache-Control', 'no-store');
      return c.json({
        id: order.id,
        amount: order.amount,
        discountCents: order.discountCents,
        promoCode: order.promoCode,
        currency: order.currency,
        status: order.status,
        /** stripe, local (a test payment) or free. */
        provider: order.provider,
        event: row.event,
        createdAt: order.createdAt.toISOString(),
        completedAt: order.completedAt?.toISOString() ?? null,
      });
    });
}

export function promoRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).post('/check', async (c) => {
    // Codes are worth money: guessing them is limited per account and per address.
    const limit = await deps.limiter.check([
      [RATE_RULES.promoCheckPerUser, c.var.viewer.accountId],
      [RATE_RULES.promoCheckPerIp, clientIp(c, deps.config.trustProxy)],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    const body = (await c.req.json().catch(() => null)) as { code?: unknown } | null;
    const found = typeof body?.code === 'string' ? await promoFor(deps.db, body.code) : ({ refused: 'invalid' } as const);
    if ('refused' in found) return apiError(c, 404, 'INVALID_PROMO', PROMO[found.refused].description, PROMO[found.refused].title);
    const promo = found.promo;
    return c.json({ code: promo.code, discountPercent: promo.discountPercent });
  });
}
