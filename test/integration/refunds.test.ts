// Refunds (issue 36 item 3): an admin gives money back on a paid order through the order's
// provider; only the provider's signed event changes the order, once. Through Stripe (the real
// SDK against test/support/fake-stripe.ts) and through the built-in test checkout end to end.
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS } from '../../src/common/admin-messages';
import { auditLog, highlightRequests, orders, paymentEvents, refunds, userStills } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertStill, makeAdmin } from '../support/dashboard-fixtures';
import { FAKE_STRIPE_KEY, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe';
import { jsonOf } from '../support/http';
import { jobsOf } from '../support/jobs';
import { eventually, insertRequest, insertUnpaidVideo, videoState } from '../support/purchase';

const WEBHOOK_SECRET = 'whsec_test_refunds_0123456789';
const sdk = new Stripe(FAKE_STRIPE_KEY);
type User = Awaited<ReturnType<typeof createVerifiedUser>>;

/** A family with a request, a Not Yet Paid video and a still of it, and a checkout started. */
async function startPurchase(app: TestApp) {
  const buyer: User = await createVerifiedUser(app);
  const requestId = await insertRequest(app, buyer.userId);
  const videoId = await insertUnpaidVideo(app, buyer.userId, requestId);
  const still = await insertStill(app, buyer.userId, 0);
  await app.db.update(userStills).set({ requestId, isVisible: false }).where(eq(userStills.id, still.id));
  const res = await app.fetch('/api/checkout', { method: 'POST', cookie: buyer.cookie, json: { requestId } });
  expect(res.status).toBe(200);
  const { orderId, url } = await jsonOf<{ orderId: string; url: string }>(res);
  return { buyer, requestId, videoId, orderId, url };
}

const orderOf = async (app: TestApp, id: string) => (await app.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const refundsOfOrder = (app: TestApp, orderId: string) => app.db.select().from(refunds).where(eq(refunds.orderId, orderId));
const stillsVisible = async (app: TestApp, requestId: string) => (await app.db.select().from(userStills).where(eq(userStills.requestId, requestId))).map((s) => s.isVisible);
const refundMails = async (app: TestApp, to: string) => (await jobsOf(app, 'mail.deliver')).filter((j) => j.data.to === to && String(j.data.subject).startsWith('Your refund'));

describe('refunds through Stripe', () => {
  let app: TestApp;
  let stripe: FakeStripe;
  let admin: User;
  let member: User;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    app = await startTestApp({
      rateLimitScale: 50,
      payments: { driver: 'stripe', secretKey: FAKE_STRIPE_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: stripe.url },
    });
    admin = await createVerifiedUser(app, { fullName: 'Rita Refunds' });
    await makeAdmin(app, admin.userId);
    member = await createVerifiedUser(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  const refund = (orderId: string, body: unknown, cookie: string | undefined = admin.cookie) =>
    app.fetch(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', cookie, json: body });
  /** Sends a Stripe event to the webhook, signed as Stripe signs it. */
  const deliver = (event: Stripe.Event) => {
    const payload = JSON.stringify(event);
    return fetch(`${app.origin}/api/payments/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      body: payload,
    });
  };
  /** A purchase paid at Stripe and confirmed by its webhook. */
  async function paidPurchase() {
    const p = await startPurchase(app);
    const sessionId = (await orderOf(app, p.orderId)).stripeSessionId!;
    const session = stripe.pay(sessionId);
    expect((await deliver(stripeEvent('checkout.session.completed', session))).status).toBe(200);
    expect((await orderOf(app, p.orderId)).status).toBe('completed');
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: true, isVisible: true });
    return { ...p, paymentIntent: session.payment_intent as string };
  }

  it('a whole refund: asked at Stripe with its own key, confirmed only by the event, then the reel is locked again and the family told', async () => {
    const p = await paidPurchase();
    const asked = await refund(p.orderId, { reason: 'Camera missed the game' });
    expect(asked.status).toBe(202);
    const { id } = await jsonOf<{ id: string; status: string }>(asked);
    const call = stripe.requests.find((r) => r.path === '/v1/refunds' && r.idempotencyKey === `refund:${id}`)!;
    expect(call.params).toMatchObject({ payment_intent: p.paymentIntent, amount: '15000', metadata: { orderId: p.orderId, refundId: id } });

    // Stripe has refunded; until its event comes, nothing the family has changes.
    expect(await refundsOfOrder(app, p.orderId)).toMatchObject([{ status: 'pending', amount: 15000, reason: 'Camera missed the game', requestedBy: admin.userId }]);
    expect((await orderOf(app, p.orderId)).status).toBe('completed');
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: true, isVisible: true });

    const stripeRefund = [...stripe.refunds.values()].find((r) => r.metadata?.refundId === id)!;
    const event = stripeEvent('refund.updated', stripeRefund);
    expect(await jsonOf(await deliver(event))).toMatchObject({ outcome: 'refunded' });
    expect(await orderOf(app, p.orderId)).toMatchObject({ status: 'refunded', refundedCents: 15000 });
    expect(await refundsOfOrder(app, p.orderId)).toMatchObject([{ status: 'succeeded', providerRefundId: stripeRefund.id }]);
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: false, isVisible: false });
    expect(await stillsVisible(app, p.requestId)).toEqual([false]);
    const mails = await refundMails(app, p.buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.data.subject).toBe('Your refund of $150.00');
    expect(String(mails[0]!.data.text)).toContain('locked again');
    expect(await app.db.select().from(auditLog).where(eq(auditLog.action, 'order.refund'))).toEqual(
      expect.arrayContaining([expect.objectContaining({ actorId: admin.userId, subjectUserId: p.buyer.userId })]),
    );

    // The same event again changes nothing; the family may buy the reel again.
    expect(await jsonOf(await deliver(event))).toMatchObject({ outcome: 'duplicate' });
    expect(await refundMails(app, p.buyer.email)).toHaveLength(1);
    const again = await app.fetch('/api/checkout', { method: 'POST', cookie: p.buyer.cookie, json: { requestId: p.requestId } });
    expect(again.status).toBe(200);

    // Nothing is left to refund.
    const more = await refund(p.orderId, {});
    expect(more.status).toBe(409);
    expect((await jsonOf(more)).message).toBe(REFUNDS.notPaid);
  });

  it('a part refund keeps the reel unlocked; asking for more than is left is refused with nothing asked of Stripe', async () => {
    const p = await paidPurchase();
    const asked = await refund(p.orderId, { amountCents: 5000 });
    expect(asked.status).toBe(202);
    const calls = stripe.requests.filter((r) => r.path === '/v1/refunds').length;
    const tooMuch = await refund(p.orderId, { amountCents: 10001 });
    expect(tooMuch.status).toBe(400);
    expect(await jsonOf(tooMuch)).toEqual({ code: 'TOO_MUCH', message: REFUNDS.tooMuch(10000), title: REFUNDS.failedTitle });
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds').length).toBe(calls);
    expect(await refundsOfOrder(app, p.orderId)).toHaveLength(1);

    const { id } = await jsonOf<{ id: string }>(asked);
    const stripeRefund = [...stripe.refunds.values()].find((r) => r.metadata?.refundId === id)!;
    expect(await jsonOf(await deliver(stripeEvent('refund.created', stripeRefund)))).toMatchObject({ outcome: 'refunded' });
    expect(await orderOf(app, p.orderId)).toMatchObject({ status: 'completed', refundedCents: 5000, refundedAt: null });
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: true, isVisible: true });
    expect(String((await refundMails(app, p.buyer.email))[0]!.data.text)).toContain('stay unlocked');

    // The admins' list shows it.
    const list = await jsonOf<{ orders: Array<{ id: string; refundedCents: number; refunds: Array<{ amount: number; status: string; byAdmin: boolean }> }> }>(
      await app.fetch(`/api/admin/orders?q=${p.orderId}`, { cookie: admin.cookie }),
    );
    expect(list.orders).toEqual([expect.objectContaining({ id: p.orderId, refundedCents: 5000, refunds: [expect.objectContaining({ amount: 5000, status: 'succeeded', byAdmin: true })] })]);
  });

  it('a refund made in Stripe’s own dashboard is recorded from its event', async () => {
    const p = await paidPurchase();
    const made = stripe.refundFromDashboard(p.paymentIntent, 15000);
    expect(await jsonOf(await deliver(stripeEvent('refund.created', made)))).toMatchObject({ outcome: 'refunded' });
    expect(await refundsOfOrder(app, p.orderId)).toMatchObject([{ status: 'succeeded', amount: 15000, requestedBy: null, providerRefundId: made.id }]);
    expect(await orderOf(app, p.orderId)).toMatchObject({ status: 'refunded', refundedCents: 15000 });
  });

  it('a refund event of no order of ours, or unsigned, is refused and changes nothing', async () => {
    const stranger = { id: 're_test_stranger', object: 'refund', amount: 100, currency: 'usd', payment_intent: 'pi_nobody', status: 'succeeded', metadata: {} } as unknown as Stripe.Refund;
    stripe.refunds.set(stranger.id, stranger);
    expect((await deliver(stripeEvent('refund.updated', stranger))).status).toBe(400);
    const payload = JSON.stringify(stripeEvent('refund.updated', stranger));
    const unsigned = await fetch(`${app.origin}/api/payments/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    expect(unsigned.status).toBe(400);
    expect(await app.db.select().from(refunds).where(eq(refunds.providerRefundId, stranger.id))).toEqual([]);
  });

  it('when Stripe refuses, says so, and nothing is held back from another try', async () => {
    const p = await paidPurchase();
    stripe.failNext(400, { type: 'invalid_request_error', message: 'Charge has a dispute.', code: 'charge_disputed' });
    const refused = await refund(p.orderId, {});
    expect(refused.status).toBe(502);
    expect(await jsonOf(refused)).toEqual({ code: 'PROVIDER_REFUSED', message: REFUNDS.providerRefused, title: REFUNDS.failedTitle });
    expect(await refundsOfOrder(app, p.orderId)).toMatchObject([{ status: 'failed' }]);
    expect(await orderOf(app, p.orderId)).toMatchObject({ status: 'completed', refundedCents: 0 });
    expect((await refund(p.orderId, {})).status).toBe(202);
  });

  it('only an admin may refund, and bad amounts, unknown and unpaid orders are refused with their words', async () => {
    const p = await startPurchase(app);
    const paid = await paidPurchase();
    expect((await refund(paid.orderId, {}, '')).status).toBe(401);
    expect((await refund(paid.orderId, {}, member.cookie)).status).toBe(403);
    expect((await refund(paid.orderId, {}, paid.buyer.cookie)).status).toBe(403);
    for (const amountCents of [0, -5, 12.5, '100', 20_000_000]) {
      const res = await refund(paid.orderId, { amountCents });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(REFUNDS.badAmount);
    }
    expect((await refund(paid.orderId, { amountCents: 100, extra: true })).status).toBe(400);
    expect((await refund(paid.orderId, { reason: 'x'.repeat(501) })).status).toBe(400);
    const unknown = await refund('00000000-0000-4000-8000-000000000000', {});
    expect(unknown.status).toBe(404);
    expect((await jsonOf(unknown)).message).toBe(REFUNDS.notFound);
    expect((await refund('not-an-id', {})).status).toBe(404);
    const pending = await refund(p.orderId, {});
    expect(pending.status).toBe(409);
    expect((await jsonOf(pending)).message).toBe(REFUNDS.notPaid);
    expect(await refundsOfOrder(app, paid.orderId)).toEqual([]);
    expect(await refundsOfOrder(app, p.orderId)).toEqual([]);
  });
});

describe('refunds through the built-in test checkout', () => {
  let app: TestApp;
  let admin: User;

  beforeAll(async () => {
    app = await startTestApp({ rateLimitScale: 50 });
    admin = await createVerifiedUser(app, { fullName: 'Rita Refunds' });
    await makeAdmin(app, admin.userId);
  }, 60_000);
  afterAll(() => app?.close());

  it('pays with a test card, refunds in full, and the provider’s own callback confirms it', async () => {
    const p = await startPurchase(app);
    const sessionId = new URL(p.url).pathname.split('/').pop()!;
    const form = new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Parent' });
    const paid = await app.fetch(`/checkout/local/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(paid.status).toBe(303);
    await eventually(async () => (await orderOf(app, p.orderId)).status === 'completed');
    await app.db.update(highlightRequests).set({ status: 'delivered' }).where(eq(highlightRequests.id, p.requestId));

    const asked = await app.fetch(`/api/admin/orders/${p.orderId}/refunds`, { method: 'POST', cookie: admin.cookie, json: {} });
    expect(asked.status).toBe(202);
    const order = await eventually(async () => {
      const o = await orderOf(app, p.orderId);
      return o.status === 'refunded' && o;
    });
    expect(order.refundedCents).toBe(order.amount);
    expect(await videoState(app, p.videoId)).toEqual({ isPaid: false, isVisible: false });
    // A delivered request goes back to waiting for payment.
    expect((await app.db.select().from(highlightRequests).where(eq(highlightRequests.id, p.requestId)))[0]!.status).toBe('ready_to_purchase');
    const events = await app.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, p.orderId));
    expect(events.map((e) => `${e.type}:${e.outcome}`)).toEqual(expect.arrayContaining(['checkout.session.completed:completed', 'refund.updated:refunded']));
    // The mail is queued just after the change commits.
    const [mail] = await eventually(async () => {
      const mails = await refundMails(app, p.buyer.email);
      return mails.length > 0 && mails;
    });
    expect(String(mail!.data.text)).toContain('test payment');

    // The family sees the refund with their request.
    const mine = await jsonOf<Array<{ id: string; paid: boolean; refund: { amountCents: number; at: string } | null }>>(await app.fetch('/api/requests', { cookie: p.buyer.cookie }));
    expect(mine.find((r) => r.id === p.requestId)).toMatchObject({ paid: false, refund: { amountCents: order.amount } });
  });
});
