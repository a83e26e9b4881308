// Payments through Stripe (issue 9). The real `stripe` SDK talks HTTP to a Stripe-like server on
// loopback (test/support/fake-stripe.ts); webhooks are signed with the SDK's own test-header code.
// Only a genuine, fresh, signed event for the order's own session, amount and currency completes
// an order, and exactly once.
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHECKOUT } from '../../src/common/dashboard-messages';
import { orders, paymentEvents, promoCodes } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { FAKE_STRIPE_KEY, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe';
import { jsonOf } from '../support/http';
import { jobsOf } from '../support/jobs';
import { eventsOf, insertRequest, insertUnpaidVideo, ordersOf, videoState } from '../support/purchase';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const sdk = new Stripe(FAKE_STRIPE_KEY);

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await startFakeStripe();
  app = await startTestApp({
    rateLimitScale: 50,
    payments: { driver: 'stripe', secretKey: FAKE_STRIPE_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: stripe.url },
  });
  await app.db.insert(promoCodes).values({ code: 'SPRING20', discountPercent: 20, active: true });
});
afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

const checkout = (cookie: string, body: unknown) => app.fetch('/api/checkout', { method: 'POST', cookie, json: body });

/** A buyer with an approved request, a Not Yet Paid video for it, and a checkout started. */
async function startedPurchase(promoCode: string | null = null) {
  const buyer: User = await createVerifiedUser(app);
  const requestId = await insertRequest(app, buyer.userId);
  const videoId = await insertUnpaidVideo(app, buyer.userId, requestId);
  const res = await checkout(buyer.cookie, { requestId, promoCode });
  expect(res.status).toBe(200);
  const { url, orderId } = await jsonOf<{ url: string; orderId: string }>(res);
  const [order] = await app.db.select().from(orders).where(eq(orders.id, orderId));
  return { buyer, requestId, videoId, url, orderId, sessionId: order!.stripeSessionId! };
}

/** Sends a webhook as Stripe does: the exact payload and its Stripe-Signature header. */
function deliver(payload: string, signature?: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (signature !== null) headers['stripe-signature'] = signature ?? sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  // No Origin and no cookie: Stripe's servers send neither.
  return fetch(`${app.origin}/api/payments/stripe/webhook`, { method: 'POST', headers, body: payload });
}
const payloadOf = (event: Stripe.Event) => JSON.stringify(event, null, 2);

async function expectUnchanged(p: { orderId: string; videoId: string }) {
  const [order] = await app.db.select().from(orders).where(eq(orders.id, p.orderId));
  expect(order!.status).toBe('pending');
  expect(order!.stripePaymentId).toBeNull();
  expect(await videoState(app, p.videoId)).toEqual({ isPaid: false, isVisible: false });
  expect(await eventsOf(app, p.orderId)).toEqual([]);
}

let receiptsBefore = 0;
beforeEach(async () => {
  receiptsBefore = (await jobsOf(app, 'mail.deliver')).filter((j) => String(j.data.subject).includes('order is confirmed')).length;
});
const receiptJobs = async () => (await jobsOf(app, 'mail.deliver')).filter((j) => String(j.data.subject).includes('order is confirmed')).length - receiptsBefore;

describe('the Stripe driver', () => {
  it('creates a Checkout Session through the SDK: order id in metadata and client_reference_id, an idempotency key per order', async () => {
    const p = await startedPurchase('spring20');
    expect(p.url).toBe(`${stripe.url}/pay/${p.sessionId}`);
    const creates = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    const mine = creates.find((r) => (r.params.metadata as Record<string, string>)?.orderId === p.orderId)!;
    expect(mine.idempotencyKey).toBe(`order-${p.orderId}-attempt-1`);
    expect(mine.params).toMatchObject({
      mode: 'payment',
      client_reference_id: p.orderId,
      customer_email: p.buyer.email,
      success_url: `${app.origin}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${app.origin}/dashboard?checkout=cancel`,
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '12000' } }],
    });
    expect(stripe.sessions.get(p.sessionId)).toMatchObject({ amount_total: 12000, currency: 'usd', status: 'open' });

    // Asking again reuses the open session: a retrieve, no second session.
    const count = stripe.sessions.size;
    const again = await jsonOf<{ url: string }>(await checkout(p.buyer.cookie, { requestId: p.requestId, promoCode: 'SPRING20' }));
    expect(again.url).toBe(p.url);
    expect(stripe.sessions.size).toBe(count);
  });

  it("when Stripe fails, says the spec's text, keeps the order, and the next try reuses the same idempotency key", async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    stripe.failNext(500, { type: 'api_error', message: 'Something went wrong on our end.' }, 3);
    const failed = await checkout(buyer.cookie, { requestId });
    expect(failed.status).toBe(502);
    expect(await jsonOf(failed)).toEqual({ code: 'PROVIDER_ERROR', message: CHECKOUT.failedFallback, title: CHECKOUT.failedTitle });
    const [order] = await ordersOf(app, buyer.userId);
    expect(order).toMatchObject({ status: 'pending', stripeSessionId: null, checkoutAttempt: 1 });

    const ok = await checkout(buyer.cookie, { requestId });
    expect(ok.status).toBe(200);
    const keys = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').map((r) => r.idempotencyKey);
    expect(keys.filter((k) => k === `order-${order!.id}-attempt-1`).length).toBeGreaterThanOrEqual(2);
    expect([...stripe.sessions.values()].filter((s) => s.client_reference_id === order!.id)).toHaveLength(1);
  });
});

describe('the Stripe webhook', () => {
  it('a valid checkout.session.completed completes the order, unlocks the videos and queues one receipt', async () => {
    const p = await startedPurchase();
    const session = stripe.pay(p.sessionId);
    const res = await deliver(payloadOf(stripeEvent('checkout.session.completed', session)));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ received: true, outcome: 'completed' });
    const [order] = await app.db.select().from(orders).where(eq(orders.id, p.orderId));
    expect(order).toMatchObject({ status: 'completed', stripePaymentId: session.payment_intent });
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: true, isVisible: true });
    const mail = await app.smtp.waitFor(p.buyer.email, 'order is confirmed');
    expect(mail.text).toContain('Total paid: $150.00');
    expect(mail.text).toContain(`Payment reference: ${session.payment_intent}`);
    expect(mail.text).not.toContain('test payment');
  });

  it('refuses no signature, a wrong one, a re-serialised body and an old timestamp, and changes nothing', async () => {
    const p = await startedPurchase();
    const payload = payloadOf(stripeEvent('checkout.session.completed', stripe.pay(p.sessionId)));
    const signed = sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const attempts = [
      await deliver(payload, null),
      await deliver(payload, sdk.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' })),
      await deliver(payload, 't=123,v1=deadbeef'),
      // The same event, parsed and written again: other bytes, so the signature no longer holds.
      await deliver(JSON.stringify(JSON.parse(payload)), signed),
      await deliver(payload, sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 })),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'WEBHOOK_REFUSED', message: 'Webhook refused.' });
    }
    await expectUnchanged(p);
  });

  it('refuses a signed event for an unknown order, or with a tampered amount or currency, and changes nothing', async () => {
    const p = await startedPurchase();
    const session = stripe.pay(p.sessionId);
    const unknownOrder = { ...session, metadata: { orderId: '00000000-0000-4000-8000-000000000000' }, client_reference_id: '00000000-0000-4000-8000-000000000000' };
    const noOrder = { ...session, metadata: {}, client_reference_id: null };
    for (const tampered of [unknownOrder, noOrder, { ...session, amount_total: 100 }, { ...session, currency: 'eur' }]) {
      const res = await deliver(payloadOf(stripeEvent('checkout.session.completed', tampered as Stripe.Checkout.Session)));
      expect(res.status).toBe(400);
    }
    // Stripe's own copy disagrees with the order: the amount was changed at the provider.
    stripe.sessions.get(p.sessionId)!.amount_total = 1;
    const res = await deliver(payloadOf(stripeEvent('checkout.session.completed', session)));
    expect(res.status).toBe(400);
    stripe.sessions.get(p.sessionId)!.amount_total = 15000;
    await expectUnchanged(p);
  });

  it('the same event twice, and twice at once, completes the order exactly once', async () => {
    const p = await startedPurchase();
    const event = stripeEvent('checkout.session.completed', stripe.pay(p.sessionId));
    const payload = payloadOf(event);
    const [a, b] = await Promise.all([deliver(payload), deliver(payload)]);
    const outcomes = [(await jsonOf(a)).outcome, (await jsonOf(b)).outcome].sort();
    expect(outcomes).toEqual(['completed', 'duplicate']);
    const later = await deliver(payload);
    expect(await jsonOf(later)).toMatchObject({ outcome: 'duplicate' });
    expect(await app.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, event.id))).toHaveLength(1);
    await app.smtp.waitFor(p.buyer.email, 'order is confirmed');
    expect(await receiptJobs()).toBe(1);

    // A second, different event saying the same (Stripe may send both): recorded, nothing more.
    const other = await deliver(payloadOf(stripeEvent('checkout.session.async_payment_succeeded', stripe.sessions.get(p.sessionId)!)));
    expect(await jsonOf(other)).toMatchObject({ outcome: 'ignored' });
    expect(await receiptJobs()).toBe(1);
    // A late 'expired' does not undo the payment.
    const late = await deliver(payloadOf(stripeEvent('checkout.session.expired', stripe.sessions.get(p.sessionId)!)));
    expect(await jsonOf(late)).toMatchObject({ outcome: 'ignored' });
    expect((await ordersOf(app, p.buyer.userId))[0]!.status).toBe('completed');
  });

  it("completed with payment_status 'unpaid' waits; async_payment_failed fails the order; the videos stay locked", async () => {
    const p = await startedPurchase();
    const session = stripe.pay(p.sessionId, { paymentStatus: 'unpaid' });
    const waiting = await deliver(payloadOf(stripeEvent('checkout.session.completed', session)));
    expect(await jsonOf(waiting)).toMatchObject({ outcome: 'awaiting_payment' });
    expect((await ordersOf(app, p.buyer.userId))[0]!.status).toBe('pending');
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: false, isVisible: false });

    const failed = await deliver(payloadOf(stripeEvent('checkout.session.async_payment_failed', session)));
    expect(await jsonOf(failed)).toMatchObject({ outcome: 'failed' });
    expect((await ordersOf(app, p.buyer.userId))[0]!.status).toBe('failed');
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: false, isVisible: false });
    expect(await receiptJobs()).toBe(0);
    // A new checkout starts a new order.
    const again = await checkout(p.buyer.cookie, { requestId: p.requestId });
    expect(again.status).toBe(200);
    expect((await ordersOf(app, p.buyer.userId)).map((o) => o.status)).toEqual(['failed', 'pending']);
  });

  it('an expired session marks its pending order expired; the buyer can start again', async () => {
    const p = await startedPurchase();
    // 24 hours pass at Stripe.
    const session = stripe.sessions.get(p.sessionId)!;
    session.status = 'expired';
    const res = await deliver(payloadOf(stripeEvent('checkout.session.expired', session)));
    expect(await jsonOf(res)).toMatchObject({ outcome: 'expired' });
    expect((await ordersOf(app, p.buyer.userId))[0]!.status).toBe('expired');
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: false, isVisible: false });
    const again = await checkout(p.buyer.cookie, { requestId: p.requestId });
    expect(again.status).toBe(200);
    expect((await ordersOf(app, p.buyer.userId)).map((o) => o.status)).toEqual(['expired', 'pending']);
  });

  it('answers other event types with 200 and acts on nothing', async () => {
    const payload = JSON.stringify({ id: 'evt_test_other', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1', object: 'payment_intent' } } });
    const res = await deliver(payload);
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ received: true, outcome: 'not handled' });
    expect(await app.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_test_other'))).toEqual([]);
  });

  it('the local test checkout is not there when Stripe is configured', async () => {
    // The web app's not-found page, not a checkout.
    expect(await (await app.fetch('/checkout/local/cs_local_0123')).text()).not.toContain('TEST MODE');
    const res = await fetch(`${app.origin}/api/payments/local/webhook`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
  });
});
