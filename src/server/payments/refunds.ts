// Refunds (issue 36 item 3): an admin gives money back on a paid order through the order's own
// provider (Stripe's refund API or the built-in test checkout), and the provider's webhook
// confirms it, as it confirms a payment: the order changes only on the provider's word.
//
// What a refund does to the reel (docs/decisions/0039-refunds.md): a part refund changes nothing
// the family sees but the amount; the whole amount back ends the purchase, so the request's
// videos and stills go back to not paid, the order reads "refunded" and the family may buy again.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { REFUNDS } from '../../common/admin-messages';
import type { Db } from '../db/client';
import { isUuid } from '../db/errors';
import { highlightRequests, orders, paymentEvents, refunds, userStills, userVideos } from '../db/schema';
import { addresseeOf } from '../family/members';
import type { AppDeps } from '../deps';
import { jobIdFor } from '../jobs/queue';
import { refundMail } from '../mail/templates';
import { audit } from '../audit/log';
import { EventRefused, type Order } from './completion';
import { ProviderError, type PaymentProvider, type RefundEvent } from './provider';

export type Refund = typeof refunds.$inferSelect;

export class RefundRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 502,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Refunds that hold money back from a new one: confirmed, or asked and not yet answered. */
const OUTSTANDING = ['pending', 'succeeded'];

/**
 * Asks the order's provider to give back `amountCents` (all that is left when not given). The
 * refund is stored pending before the provider is asked, under an idempotency key of its own id,
 * so a retry never refunds twice; the provider's event completes it (handleRefundEvent).
 */
export async function startRefund(
  deps: Pick<AppDeps, 'db' | 'payments'>,
  input: { orderId: string; amountCents?: number; reason?: string | null; adminId: string },
): Promise<Refund> {
  const { db, payments } = deps;
  if (!isUuid(input.orderId)) throw new RefundRefused(404, 'NOT_FOUND', REFUNDS.notFound);
  const { refund, order } = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for('update');
    if (!order) throw new RefundRefused(404, 'NOT_FOUND', REFUNDS.notFound);
    if (order.status !== 'completed') throw new RefundRefused(409, 'NOT_PAID', REFUNDS.notPaid);
    if (order.provider === 'free' || order.amount === 0) throw new RefundRefused(409, 'NOTHING_PAID', REFUNDS.nothingPaid);
    if (order.provider !== payments.kind || !order.stripePaymentId) throw new RefundRefused(409, 'OTHER_PROVIDER', REFUNDS.otherProvider);
    const left = order.amount - (await heldBack(tx, order.id));
    const amount = input.amountCents ?? left;
    if (left <= 0) throw new RefundRefused(409, 'ALREADY_REFUNDED', REFUNDS.alreadyRefunded);
    if (amount > left) throw new RefundRefused(400, 'TOO_MUCH', REFUNDS.tooMuch(left));
    const [refund] = await tx
      .insert(refunds)
      .values({ orderId: order.id, provider: order.provider, amount, currency: order.currency, reason: input.reason || null, requestedBy: input.adminId })
      .returning();
    return { refund: refund!, order };
  });
  try {
    const answered = await payments.createRefund({
      paymentId: order.stripePaymentId!,
      amountCents: refund.amount,
      orderId: order.id,
      refundId: refund.id,
      idempotencyKey: `refund:${refund.id}`,
    });
    const [stored] = await db.update(refunds).set({ providerRefundId: answered.id, updatedAt: new Date() }).where(eq(refunds.id, refund.id)).returning();
    await audit(db, {
      actorId: input.adminId,
      action: 'order.refund',
      subjectUserId: order.userId,
      details: { orderId: order.id, refundId: refund.id, amount: refund.amount, reason: refund.reason },
    });
    return stored!;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // The provider took nothing (or said no): the money is not held back from another try.
    console.error(`[payments] refund ${refund.id} of order ${order.id}: ${error.message}`);
    await db.update(refunds).set({ status: 'failed', updatedAt: new Date() }).where(eq(refunds.id, refund.id));
    throw new RefundRefused(502, 'PROVIDER_REFUSED', REFUNDS.providerRefused);
  }
}

async function heldBack(db: Db, orderId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), inArray(refunds.status, OUTSTANDING)));
  return row?.cents ?? 0;
}

export type RefundOutcome = 'refunded' | 'refund_failed' | 'refund_pending' | 'ignored' | 'duplicate';

/**
 * A verified refund event. The provider's refund is read again (events come late and out of
 * order); the event id is recorded once under the order's lock; a refund made in the provider's
 * own dashboard is recorded too, found by its payment.
 */
export async function handleRefundEvent(deps: AppDeps, provider: PaymentProvider, event: RefundEvent): Promise<RefundOutcome> {
  const current = await provider.retrieveRefund(event.refund.id);
  const [known] = await deps.db
    .select({ id: refunds.id, orderId: refunds.orderId })
    .from(refunds)
    .where(current.refundId && isUuid(current.refundId) ? sql`${refunds.providerRefundId} = ${current.id} or ${refunds.id} = ${current.refundId}` : eq(refunds.providerRefundId, current.id));
  const [paidOrder] = known
    ? [{ id: known.orderId }]
    : current.paymentId
      ? await deps.db.select({ id: orders.id }).from(orders).where(and(eq(orders.stripePaymentId, current.paymentId), eq(orders.provider, provider.kind)))
      : [];
  if (!paidOrder) throw new EventRefused(`${event.id}: refund ${current.id} is of no order of ours`);

  const result = await deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, paidOrder.id)).for('update');
    if (!order) throw new EventRefused(`${event.id}: no order ${paidOrder.id}`);
    if (current.paymentId !== order.stripePaymentId || current.currency.toLowerCase() !== order.currency) {
      throw new EventRefused(`${event.id}: refund ${current.id} does not fit order ${order.id}`);
    }
    let [refund] = await tx.select().from(refunds).where(known ? eq(refunds.id, known.id) : eq(refunds.providerRefundId, current.id)).for('update');
    const outcome: Exclude<RefundOutcome, 'duplicate'> =
      refund?.status === 'succeeded' || refund?.status === current.status ? 'ignored' : current.status === 'succeeded' ? 'refunded' : current.status === 'failed' ? 'refund_failed' : 'refund_pending';
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider: provider.kind, eventId: event.id, type: event.type, orderId: order.id, outcome })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return { outcome: 'duplicate' as const, order, refund };
    if (!refund) {
      [refund] = await tx
        .insert(refunds)
        .values({ orderId: order.id, provider: provider.kind, providerRefundId: current.id, amount: current.amount, currency: order.currency, reason: null, requestedBy: null })
        .returning();
    }
    if (outcome === 'ignored' || outcome === 'refund_pending') return { outcome, order, refund };
    const now = new Date();
    [refund] = await tx
      .update(refunds)
      .set({ status: current.status, providerRefundId: current.id, amount: current.amount, confirmedAt: outcome === 'refunded' ? now : null, updatedAt: now })
      .where(eq(refunds.id, refund!.id))
      .returning();
    if (outcome === 'refund_failed') return { outcome, order, refund };
    const refundedCents = Math.min(order.amount, order.refundedCents + current.amount);
    const whole = refundedCents >= order.amount;
    const [changed] = await tx
      .update(orders)
      .set({ refundedCents, ...(whole && { status: 'refunded', refundedAt: now }), updatedAt: now })
      .where(eq(orders.id, order.id))
      .returning();
    if (whole) await withdrawPurchase(tx, changed!);
    return { outcome, order: changed!, refund };
  });

  // Told again when the provider sends the event again: the mail's job id keeps it to one, and a
  // mail that failed to queue after the change committed is not lost with the first delivery.
  if (result.refund?.status === 'succeeded' && result.order.userId) await tellFamily(deps, result.order, result.refund);
  if (result.outcome !== 'duplicate' && result.outcome !== 'ignored' && result.order.userId) {
    const userId = result.order.userId;
    await deps.bus.publish({ topic: 'orders', userId, action: 'update', id: result.order.id });
    if (result.order.status === 'refunded') {
      await deps.bus.publish({ topic: 'user_videos', userId, action: 'update' });
      await deps.bus.publish({ topic: 'user_stills', userId, action: 'update' });
      if (result.order.requestId) await deps.bus.publish({ topic: 'highlight_requests', userId, action: 'update', id: result.order.requestId });
    }
  }
  return result.outcome;
}

/**
 * The whole amount came back: the request's videos and stills are locked again and a delivered
 * request goes back to waiting for payment, as before it was bought. Videos unlocked for no
 * request in particular stay: nothing says which order paid for them.
 */
async function withdrawPurchase(tx: Db, order: Order): Promise<void> {
  if (!order.userId || !order.requestId) return;
  await tx
    .update(userVideos)
    .set({ isPaid: false, isVisible: false })
    .where(and(eq(userVideos.userId, order.userId), eq(userVideos.requestId, order.requestId)));
  await tx.update(userStills).set({ isVisible: false }).where(eq(userStills.requestId, order.requestId));
  await tx
    .update(highlightRequests)
    .set({ status: 'ready_to_purchase', updatedAt: new Date() })
    .where(and(eq(highlightRequests.id, order.requestId), eq(highlightRequests.status, 'delivered')));
}

async function tellFamily(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, order: Order, refund: Refund): Promise<void> {
  const addressee = await addresseeOf(deps.db, order.userId!);
  if (!addressee) return;
  const [request] = order.requestId ? await deps.db.select({ event: highlightRequests.event }).from(highlightRequests).where(eq(highlightRequests.id, order.requestId)) : [];
  await deps.mailer.send(
    refundMail({
      to: addressee.email,
      firstName: addressee.greeting,
      athleteName: addressee.athleteName,
      event: request?.event ?? null,
      orderId: order.id,
      amountCents: refund.amount,
      whole: order.status === 'refunded',
      test: order.provider === 'local',
      dashboardUrl: `${deps.config.baseUrl}${addressee.dashboardPath}`,
    }),
    { id: jobIdFor(`refund:${refund.id}`) },
  );
}
