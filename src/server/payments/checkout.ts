// Starting a checkout for the buyer's own approved request. The server decides everything: which
// request, the price (pricing.ts), the promo code; the browser sends a request id and a code,
// never an amount. One order per request while it is pending: asking again reuses it (and its
// provider session when nothing changed); a different price closes the old session first, so
// only one can ever be paid. A 100% code makes a free order that completes here, with no provider.
import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { CHECKOUT, PROMO } from '../../common/dashboard-messages';
import { highlightRequests, orders } from '../db/schema';
import { rosterAllowsPurchase } from '../rosters/link';
import { isUniqueViolation, isUuid } from '../db/errors';
import type { AppDeps } from '../deps';
import { afterOrderCompleted, completeOrder, type Order } from './completion';
import { reelPrice } from './pricing';
import { promoFor } from './promo-codes';
import { ProviderError } from './provider';
import { reelFactsOfRequest } from '../requests/reel-progress';

export class CheckoutRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 502,
    readonly code: string,
    message: string,
    readonly title: string = CHECKOUT.failedTitle,
  ) {
    super(message);
  }
}

export interface Buyer {
  userId: string;
  email: string;
}

export interface CheckoutInput {
  /** Which request; without it, the buyer's oldest request that is ready to purchase. */
  requestId?: string;
  promoCode?: string | null;
}

export async function startCheckout(deps: AppDeps, buyer: Buyer, input: CheckoutInput): Promise<{ url: string; orderId: string }> {
  const request = await findRequest(deps, buyer.userId, input.requestId);
  if (!request) throw new CheckoutRefused(404, 'REQUEST_NOT_FOUND', CHECKOUT.notReady);
  if (request.status !== 'ready_to_purchase') throw new CheckoutRefused(409, 'NOT_READY', CHECKOUT.notReady);
  // At an event with rosters: a sure link to the athlete's roster entry, or an admin's confirmation.
  if (!(await rosterAllowsPurchase(deps.db, request))) throw new CheckoutRefused(409, 'ROSTER_UNCONFIRMED', CHECKOUT.rosterUnconfirmed);
  // A reel made from the footage is sold once the family can see it: not before its first render.
  const reel = await reelFactsOfRequest(deps.db, request.id);
  if (reel?.fromFootage && !reel.previewKey) {
    throw new CheckoutRefused(409, 'PREVIEW_NOT_READY', CHECKOUT.previewNotReady);
  }

  const typed = input.promoCode?.trim();
  const found = typed ? await promoFor(deps.db, typed) : null;
  if (found && 'refused' in found) throw new CheckoutRefused(400, 'INVALID_PROMO', PROMO[found.refused].description, PROMO[found.refused].title);
  const promo = found?.promo ?? null;
  const price = reelPrice(promo?.discountPercent ?? 0);
  const terms = { amount: price.totalCents, discountCents: price.discountCents, promoCode: promo?.code ?? null };

  // Two checkouts for one request (two tabs, a double click) take turns on the request's row.
  const { order, pending } = await deps.db.transaction(async (tx) => {
    await tx.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.id, request.id)).for('update');
    const mine = await tx.select().from(orders).where(eq(orders.requestId, request.id));
    if (mine.some((o) => o.status === 'completed')) throw new CheckoutRefused(409, 'ALREADY_PAID', CHECKOUT.alreadyPaid);
    const pending = mine.find((o) => o.status === 'pending') ?? null;
    if (pending) return { order: pending, pending: true };
    const [created] = await tx
      .insert(orders)
      .values({ userId: buyer.userId, requestId: request.id, ...terms, currency: 'usd', provider: price.totalCents === 0 ? 'free' : deps.payments.kind })
      .returning();
    return { order: created!, pending: false };
  });

  if (price.totalCents === 0) return completeFreeOrder(deps, order, pending, terms);

  if (pending && order.stripeSessionId) {
    const same = order.provider === deps.payments.kind && order.amount === terms.amount && order.promoCode === terms.promoCode;
    const url = await closeOrReuse(deps, order, same);
    if (url) return { url, orderId: order.id };
  }
  const current = await nextAttempt(deps, order, terms);

  try {
    const session = await deps.payments.createCheckout({
      orderId: current.id,
      amountCents: current.amount,
      currency: 'usd',
      description: `Highlight reel: ${request.event}`,
      customerEmail: buyer.email,
      successUrl: `${deps.config.baseUrl}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${deps.config.baseUrl}/dashboard?checkout=cancel`,
      idempotencyKey: `order-${current.id}-attempt-${current.checkoutAttempt}`,
    });
    if (!session.url) throw new ProviderError(`session ${session.id} came without a url`);
    await deps.db
      .update(orders)
      .set({ stripeSessionId: session.id, checkoutUrl: session.url, updatedAt: new Date() })
      .where(and(eq(orders.id, current.id), eq(orders.checkoutAttempt, current.checkoutAttempt)));
    await deps.bus.publish({ topic: 'orders', userId: buyer.userId, action: pending ? 'update' : 'insert', id: current.id });
    return { url: session.url, orderId: current.id };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.error(`[payments] checkout for order ${current.id}: ${error.message}`);
    throw new CheckoutRefused(502, 'PROVIDER_ERROR', CHECKOUT.failedFallback);
  }
}

async function findRequest(deps: AppDeps, userId: string, requestId: string | undefined) {
  if (requestId !== undefined && !isUuid(requestId)) return null;
  const [row] = await deps.db
    .select()
    .from(highlightRequests)
    .where(
      requestId
        ? and(eq(highlightRequests.id, requestId), eq(highlightRequests.userId, userId))
        : and(eq(highlightRequests.userId, userId), eq(highlightRequests.status, 'ready_to_purchase')),
    )
    .orderBy(asc(highlightRequests.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The pending order's session: its address when it can still be paid on the same terms; else it
 * is closed (null: a new attempt follows). A session already paid means the payment is on its
 * way to our webhook: no second checkout.
 */
async function closeOrReuse(deps: AppDeps, order: Order, sameTerms: boolean): Promise<string | null> {
  if (order.provider !== deps.payments.kind) return null; // made by a provider no longer configured
  try {
    let session = await deps.payments.retrieveCheckout(order.stripeSessionId!);
    if (session.status === 'open' && sameTerms && session.url) return session.url;
    if (session.status === 'open') session = await deps.payments.expireCheckout(session.id);
    if (session.status === 'complete') throw new CheckoutRefused(409, 'PAYMENT_IN_PROGRESS', CHECKOUT.paymentInProgress);
    return null;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.error(`[payments] order ${order.id}: ${error.message}`);
    throw new CheckoutRefused(502, 'PROVIDER_ERROR', CHECKOUT.failedFallback);
  }
}

type Terms = Pick<Order, 'amount' | 'discountCents' | 'promoCode'>;

/** A started attempt on these terms: asking the provider again with its key gives its one session. */
const attemptOn = (order: Order, terms: Terms, provider: string) =>
  order.status === 'pending' &&
  order.checkoutAttempt > 0 &&
  order.provider === provider &&
  order.amount === terms.amount &&
  order.promoCode === terms.promoCode;

/** The order on the new terms, as a new attempt with no session yet (its key is a new one). */
async function nextAttempt(deps: AppDeps, order: Order, terms: Terms): Promise<Order> {
  // An attempt that a crash or a concurrent checkout left without a session: the same key gets the same session.
  if (!order.stripeSessionId && attemptOn(order, terms, deps.payments.kind)) return order;
  const [next] = await deps.db
    .update(orders)
    .set({
      ...terms,
      provider: deps.payments.kind,
      checkoutAttempt: order.checkoutAttempt + 1,
      stripeSessionId: null,
      checkoutUrl: null,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending'), eq(orders.checkoutAttempt, order.checkoutAttempt)))
    .returning();
  if (next) return next;
  // Another checkout for this order moved first (a double click): join it if it is on these terms.
  const [now] = await deps.db.select().from(orders).where(eq(orders.id, order.id));
  if (now && attemptOn(now, terms, deps.payments.kind)) return now;
  throw new CheckoutRefused(409, 'CHECKOUT_CHANGED', CHECKOUT.generic);
}

/** A 100% promo code: the order completes at once, with no provider and no money. */
async function completeFreeOrder(
  deps: AppDeps,
  order: Order,
  pending: boolean,
  terms: Terms,
): Promise<{ url: string; orderId: string }> {
  // A checkout left open on the old price must not be payable any more.
  if (pending && order.stripeSessionId) await closeOrReuse(deps, order, false);
  const sessionId = `free_${randomBytes(16).toString('hex')}`;
  try {
    const completed = await deps.db.transaction(async (tx) => {
      const [free] = await tx
        .update(orders)
        .set({ ...terms, provider: 'free', stripeSessionId: sessionId, updatedAt: new Date() })
        .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
        .returning();
      if (!free) throw new CheckoutRefused(409, 'CHECKOUT_CHANGED', CHECKOUT.generic);
      return completeOrder(tx, free, null);
    });
    await afterOrderCompleted(deps, completed);
    await deps.bus.publish({ topic: 'orders', userId: completed.userId!, action: 'update', id: completed.id });
    await deps.bus.publish({ topic: 'user_videos', userId: completed.userId!, action: 'update' });
    return { url: `${deps.config.baseUrl}/dashboard?checkout=success&session_id=${sessionId}`, orderId: completed.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw new CheckoutRefused(409, 'ALREADY_PAID', CHECKOUT.alreadyPaid);
    throw error;
  }
}
