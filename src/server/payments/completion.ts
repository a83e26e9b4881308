// Acting on a verified provider event: the one road by which an order is paid, for Stripe's
// webhooks and the built-in test checkout's callbacks alike. Events come late, more than once and
// out of order, so: the provider's current state of the session is read again before acting;
// each event id is recorded under a unique index inside the transaction that acts on it, after
// the order row is locked, so a repeated or concurrent delivery changes nothing twice; and the
// session must be the order's, for the order's amount and currency, or nothing happens at all.
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUuid } from '../db/errors';
import { highlightRequests, orders, paymentEvents, reelRenders, userProfiles, userStills, userVideos } from '../db/schema';
import { addresseeOf } from '../family/members';
import type { AppDeps } from '../deps';
import { jobIdFor } from '../jobs/queue';
import { receiptMail } from '../mail/templates';
import { deliverIfReady } from '../reels/render-job';
import { tellTeam } from '../team/notices';
import type { CheckoutSession, PaymentEvent, PaymentProvider } from './provider';

/** The event does not fit any order of ours: answered 400, nothing recorded, nothing changed. */
export class EventRefused extends Error {}

export type Order = typeof orders.$inferSelect;
export type EventOutcome = 'completed' | 'awaiting_payment' | 'failed' | 'expired' | 'ignored' | 'duplicate';

export async function handlePaymentEvent(deps: AppDeps, provider: PaymentProvider, event: PaymentEvent): Promise<EventOutcome> {
  const orderId = event.session.orderId;
  if (!orderId || !isUuid(orderId)) throw new EventRefused(`${event.id}: the session names no order`);
  // The provider's word now, not the event's: a late 'expired' must not undo a payment, and an
  // event's copy of the session may be stale.
  const current = await provider.retrieveCheckout(event.session.id);

  const { outcome, order } = await deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new EventRefused(`${event.id}: no order ${orderId}`);
    // An earlier session of this order (expired, then replaced by checkout.ts) changes nothing.
    const earlier = event.session.id !== order.stripeSessionId && event.session.clientReferenceId === order.id;
    if (!earlier && order.provider !== provider.kind) throw new EventRefused(`${event.id}: order ${orderId} is not paid through ${provider.kind}`);
    if (!earlier) for (const session of [event.session, current]) checkSessionFits(session, order, event.id);
    else if (current.paymentStatus === 'paid') console.error(`[payments] ${event.id}: an earlier session of order ${order.id} was paid; see the provider's dashboard`);

    const outcome = earlier ? 'ignored' : decide(event, current, order);
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider: provider.kind, eventId: event.id, type: event.type, orderId: order.id, outcome })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return { outcome: 'duplicate' as const, order };

    if (outcome === 'completed') return { outcome, order: await completeOrder(tx, order, current.paymentId) };
    if (outcome === 'failed' || outcome === 'expired') {
      const [changed] = await tx
        .update(orders)
        .set({ status: outcome, checkoutUrl: null, updatedAt: new Date() })
        .where(eq(orders.id, order.id))
        .returning();
      return { outcome, order: changed! };
    }
    return { outcome, order };
  });

  if (order.status === 'completed') await afterOrderCompleted(deps, order);
  // An order whose buyer's account was erased is kept for accounting only: nobody to tell.
  if (outcome !== 'duplicate' && outcome !== 'ignored' && order.userId) {
    await deps.bus.publish({ topic: 'orders', userId: order.userId, action: 'update', id: order.id });
    if (outcome === 'completed') await deps.bus.publish({ topic: 'user_videos', userId: order.userId, action: 'update' });
  }
  return outcome;
}

/** A session that is not this order's, or not for its amount and currency, is refused whole. */
function checkSessionFits(session: CheckoutSession, order: Order, eventId: string): void {
  const problems = [
    session.id !== order.stripeSessionId && 'session id',
    session.clientReferenceId !== order.id && 'client reference',
    session.orderId !== order.id && 'order id',
    session.amountTotal !== order.amount && `amount ${session.amountTotal} for ${order.amount}`,
    session.currency?.toLowerCase() !== order.currency && `currency ${session.currency}`,
  ].filter(Boolean);
  if (problems.length) throw new EventRefused(`${eventId} does not fit order ${order.id}: ${problems.join(', ')}`);
}

function decide(event: PaymentEvent, current: CheckoutSession, order: Order): Exclude<EventOutcome, 'duplicate'> {
  const pending = order.status === 'pending';
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      if (current.status === 'complete' && current.paymentStatus === 'paid') return order.status === 'completed' ? 'ignored' : 'completed';
      // A delayed method (a bank debit): paid later, or not; the order waits.
      return 'awaiting_payment';
    case 'checkout.session.async_payment_failed':
      return pending && current.paymentStatus !== 'paid' ? 'failed' : 'ignored';
    case 'checkout.session.expired':
      return pending && current.status === 'expired' ? 'expired' : 'ignored';
  }
}

/**
 * The order is paid: it completes, and the athlete's Not Yet Paid videos (those of this request,
 * and those uploaded for no request in particular) become paid and visible, in the caller's
 * transaction. Money taken for an order that had meanwhile expired or failed still completes it.
 */
export async function completeOrder(tx: Db, order: Order, paymentId: string | null): Promise<Order> {
  const now = new Date();
  const [completed] = await tx
    .update(orders)
    .set({ status: 'completed', stripePaymentId: paymentId, completedAt: now, checkoutUrl: null, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  if (order.userId) {
    await tx
    .update(userVideos)
    .set({ isPaid: true, isVisible: true })
    .where(
      and(
        eq(userVideos.userId, order.userId),
        eq(userVideos.isPaid, false),
        eq(userVideos.status, 'active'),
        order.requestId ? or(isNull(userVideos.requestId), eq(userVideos.requestId, order.requestId)) : isNull(userVideos.requestId),
      ),
    );
  }
  // Stills picked by a reel render of this request (reels/render-job.ts) are unlocked with it.
  if (order.requestId) await tx.update(userStills).set({ isVisible: true }).where(and(eq(userStills.requestId, order.requestId), eq(userStills.isVisible, false)));
  return completed!;
}

/** Once an order is paid: its receipt, the team told, and its reel delivered if it is already rendered. */
export async function afterOrderCompleted(deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'bus'>, order: Pick<Order, 'id' | 'requestId'>): Promise<void> {
  await queueReceipt(deps, order.id);
  await tellTeamOfPayment(deps, order.id);
  if (order.requestId) await deliverIfReady(deps, order.requestId);
}

/** The team hears of each payment once, with the request's review to open (issue 36 item 4). */
async function tellTeamOfPayment(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, orderId: string): Promise<void> {
  const [row] = await deps.db
    .select({ order: orders, event: highlightRequests.event, firstName: userProfiles.firstName, lastName: userProfiles.lastName, email: userProfiles.email })
    .from(orders)
    .leftJoin(highlightRequests, eq(highlightRequests.id, orders.requestId))
    .leftJoin(userProfiles, eq(userProfiles.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row || row.order.status !== 'completed') return;
  const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  const athlete = [row.firstName, row.lastName].filter(Boolean).join(' ') || 'A family';
  const { order } = row;
  await tellTeam(deps, {
    key: `payment:${order.id}`,
    kind: 'payment',
    subject: `Paid ${money(order.amount)}: ${athlete}${row.event ? ` (${row.event})` : ''}`,
    lines: [
      `${athlete} paid ${money(order.amount)}${order.promoCode ? ` with the code ${order.promoCode} (-${money(order.discountCents)})` : ''}${order.provider === 'local' ? ', a test payment' : order.provider === 'free' ? ', free with a code' : ''}.`,
      order.requestId ? 'The reel is delivered as soon as it is rendered; open the review to see where it stands.' : 'The videos waiting for payment are unlocked.',
      `Order ${order.id}`,
    ],
    link: order.requestId ? `${deps.config.baseUrl}/admin/requests/${order.requestId}` : `${deps.config.baseUrl}/admin/orders?q=${order.id}`,
    replyTo: row.email,
    userId: order.userId,
  });
}

/**
 * Stores the receipt for delivery once. Safe to call again (after a crash, for a repeated event):
 * the mail job's id comes from the order, and receipt_queued_at says it was done.
 */
export async function queueReceipt(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, orderId: string): Promise<void> {
  const [row] = await deps.db
    .select({
      order: orders,
      event: highlightRequests.event,
    })
    .from(orders)
    .leftJoin(highlightRequests, eq(highlightRequests.id, orders.requestId))
    .where(eq(orders.id, orderId));
  const addressee = row?.order.userId ? await addresseeOf(deps.db, row.order.userId) : null;
  if (!row || row.order.status !== 'completed' || row.order.receiptQueuedAt || !addressee) return;
  // A reel already rendered unlocks with the payment: no "7-10 business days" for it.
  const [rendered] = row.order.requestId
    ? await deps.db.select({ id: reelRenders.id }).from(reelRenders).where(and(eq(reelRenders.requestId, row.order.requestId), eq(reelRenders.state, 'ready'))).limit(1)
    : [];
  await deps.mailer.send(
    receiptMail({
      to: addressee.email,
      firstName: addressee.greeting,
      athleteName: addressee.athleteName,
      event: row.event,
      order: row.order,
      dashboardUrl: `${deps.config.baseUrl}${addressee.dashboardPath}`,
      reelRendered: Boolean(rendered),
    }),
    { id: jobIdFor(`receipt:${orderId}`) },
  );
  await deps.db.update(orders).set({ receiptQueuedAt: sql`now()` }).where(eq(orders.id, orderId));
}
