// Buying a reel with the built-in test checkout (issue 9): the server prices the order, a user
// buys only their own approved request and only once, the test checkout's page takes test cards,
// and only its signed callback (the same code as Stripe's webhook) marks anything paid.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, IMPERSONATION } from '../../src/common/admin-messages';
import { CHECKOUT, PROMO } from '../../src/common/dashboard-messages';
import { AUTH_REQUIRED } from '../../src/common/messages';
import { localCheckoutSessions, orders, paymentEvents, promoCodes } from '../../src/server/db/schema';
import { createLocalProvider, expireLocalSession, LOCAL_SIGNATURE_HEADER, localWebhookSecret, signLocalPayload } from '../../src/server/payments/local-provider';
import { queryRows } from '../../src/server/db/client';
import { jobsOf } from '../support/jobs';
import { reelPrice } from '../../src/server/payments/pricing';
import { cookiesFrom, createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { eventsOf, eventually, insertRequest, insertUnpaidVideo, ordersOf, videoState } from '../support/purchase';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let admin: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  await makeAdmin(app, admin.userId);
  await app.db.insert(promoCodes).values([
    { code: 'SPRING20', discountPercent: 20, active: true },
    { code: 'OLD10', discountPercent: 10, active: false },
    { code: 'TEAMFREE', discountPercent: 100, active: true },
  ]);
});
afterAll(async () => {
  await app?.close();
});

const checkout = (cookie: string | undefined, body: unknown) => app.fetch('/api/checkout', { method: 'POST', cookie, json: body });
type CheckoutAnswer = { url: string; orderId: string };
const pathOf = (url: string) => new URL(url).pathname;
const sessionIdOf = (url: string) => pathOf(url).split('/').pop()!;

/** The test checkout's form, as the page posts it. */
function pay(sessionId: string, card: Partial<Record<'number' | 'expiry' | 'cvc' | 'name', string>>, headers: Record<string, string> = {}) {
  const form = new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Parent', ...card });
  return app.fetch(`/checkout/local/${sessionId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form.toString(),
  });
}

describe('the price', () => {
  it('is the spec price less the percent, in whole cents', () => {
    expect(reelPrice()).toEqual({ listCents: 15000, discountCents: 0, totalCents: 15000 });
    expect(reelPrice(20)).toEqual({ listCents: 15000, discountCents: 3000, totalCents: 12000 });
    expect(reelPrice(33)).toEqual({ listCents: 15000, discountCents: 4950, totalCents: 10050 });
    expect(reelPrice(100)).toEqual({ listCents: 15000, discountCents: 15000, totalCents: 0 });
  });
});

describe('POST /api/checkout', () => {
  it('prices on the server: a price or discount sent by the browser is ignored', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const res = await checkout(buyer.cookie, { requestId, promoCode: null, priceInCents: 1, discountAmount: 14999, amount: 1 });
    expect(res.status).toBe(200);
    const { url, orderId } = await jsonOf<CheckoutAnswer>(res);
    expect(pathOf(url)).toMatch(/^\/checkout\/local\/cs_local_[a-f0-9]{32}$/);
    const [order] = await ordersOf(app, buyer.userId);
    expect(order).toMatchObject({ id: orderId, requestId, amount: 15000, discountCents: 0, status: 'pending', provider: 'local', promoCode: null, currency: 'usd' });
    const [session] = await app.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, sessionIdOf(url)));
    expect(session).toMatchObject({ amountTotal: 15000, currency: 'usd', clientReferenceId: orderId, metadata: { orderId }, status: 'open', customerEmail: buyer.email });
    expect(session!.successUrl).toBe(`${app.origin}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`);
    expect(session!.cancelUrl).toBe(`${app.origin}/dashboard?checkout=cancel`);
  });

  it('takes an active promo code in any case; an inactive or unknown one is refused with the spec text and changes nothing', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    for (const code of ['old10', 'OLD10', 'NOPE', 'x'.repeat(100)]) {
      const res = await checkout(buyer.cookie, { requestId, promoCode: code });
      expect(res.status, code).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'INVALID_PROMO', message: PROMO.invalid.description, title: PROMO.invalid.title });
    }
    expect(await ordersOf(app, buyer.userId)).toEqual([]);

    const res = await checkout(buyer.cookie, { requestId, promoCode: '  spring20 ' });
    expect(res.status).toBe(200);
    const [order] = await ordersOf(app, buyer.userId);
    expect(order).toMatchObject({ amount: 12000, discountCents: 3000, promoCode: 'SPRING20' });
    const [session] = await app.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, sessionIdOf((await jsonOf<CheckoutAnswer>(res)).url)));
    expect(session!.amountTotal).toBe(12000);
  });

  it('reuses the pending order and its session; a new price closes the old session first', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const first = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId }));
    const again = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId }));
    expect(again).toEqual(first);
    expect(await app.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.clientReferenceId, first.orderId))).toHaveLength(1);

    const discounted = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId, promoCode: 'spring20' }));
    expect(discounted.orderId).toBe(first.orderId);
    expect(discounted.url).not.toBe(first.url);
    const [old] = await app.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, sessionIdOf(first.url)));
    expect(old!.status).toBe('expired');
    const orderRows = await ordersOf(app, buyer.userId);
    expect(orderRows).toHaveLength(1);
    expect(orderRows[0]).toMatchObject({ amount: 12000, checkoutAttempt: 2, stripeSessionId: sessionIdOf(discounted.url) });
    // The old page can no longer be paid.
    const page = await app.fetch(pathOf(first.url));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This checkout has expired');
    expect((await pay(sessionIdOf(first.url), {})).status).toBe(410);
    // Its expired event reaches the webhook and changes nothing.
    await eventually(async () => (await eventsOf(app, first.orderId)).length === 1);
    expect((await eventsOf(app, first.orderId))[0]).toMatchObject({ type: 'checkout.session.expired', outcome: 'ignored' });
    expect((await ordersOf(app, buyer.userId))[0]!.status).toBe('pending');
  });

  it("refuses another user's request, a request not approved yet, a delivered one, and a visitor", async () => {
    const buyer = await createVerifiedUser(app);
    const other = await createVerifiedUser(app);
    const othersRequest = await insertRequest(app, other.userId);
    const pending = await insertRequest(app, buyer.userId, 'pending');
    const delivered = await insertRequest(app, buyer.userId, 'delivered');

    const cases: Array<[unknown, number, string]> = [
      [{ requestId: othersRequest }, 404, 'REQUEST_NOT_FOUND'],
      [{ requestId: 'not-a-uuid' }, 404, 'REQUEST_NOT_FOUND'],
      [{}, 404, 'REQUEST_NOT_FOUND'],
      [{ requestId: pending }, 409, 'NOT_READY'],
      [{ requestId: delivered }, 409, 'NOT_READY'],
    ];
    for (const [body, status, code] of cases) {
      const res = await checkout(buyer.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await jsonOf(res)).toEqual({ code, message: CHECKOUT.notReady, title: CHECKOUT.failedTitle });
    }
    const visitor = await checkout(undefined, { requestId: othersRequest });
    expect(visitor.status).toBe(401);
    expect(await jsonOf(visitor)).toEqual({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
    expect(await ordersOf(app, buyer.userId)).toEqual([]);
    expect(await ordersOf(app, other.userId)).toEqual([]);
  });

  it('without a request id, buys the oldest approved request of the caller', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const res = await checkout(buyer.cookie, { priceInCents: 15000, promoCode: null, discountAmount: 0 });
    expect(res.status).toBe(200);
    expect((await ordersOf(app, buyer.userId))[0]!.requestId).toBe(requestId);
  });

  it('is refused to an admin viewing the site as the user', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const started = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: buyer.userId } });
    expect(started.status).toBe(200);
    const res = await checkout(cookiesFrom(started), { requestId });
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toEqual({ code: 'IMPERSONATING', message: IMPERSONATION.refused, title: CHECKOUT.failedTitle });
    expect(await ordersOf(app, buyer.userId)).toEqual([]);
  });

  it('a 100% code completes a free order at once: videos unlocked, receipt sent, no second purchase', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const video = await insertUnpaidVideo(app, buyer.userId, requestId);
    const res = await checkout(buyer.cookie, { requestId, promoCode: 'teamfree' });
    expect(res.status).toBe(200);
    const { url } = await jsonOf<CheckoutAnswer>(res);
    const sessionId = new URL(url).searchParams.get('session_id')!;
    expect(url).toBe(`${app.origin}/dashboard?checkout=success&session_id=${sessionId}`);
    const [order] = await ordersOf(app, buyer.userId);
    expect(order).toMatchObject({ status: 'completed', amount: 0, discountCents: 15000, provider: 'free', promoCode: 'TEAMFREE' });
    expect(await videoState(app, video)).toEqual({ isPaid: true, isVisible: true });
    const receipt = await app.smtp.waitFor(buyer.email, 'order is confirmed');
    expect(receipt.text).toContain('Total paid: $0.00');
    expect(receipt.text).toContain('Promo code TEAMFREE: -$150.00');

    const byFree = await jsonOf(await app.fetch(`/api/orders/by-session/${sessionId}`, { cookie: buyer.cookie }));
    expect(byFree).toMatchObject({ status: 'completed', amount: 0, provider: 'free' });
    const again = await checkout(buyer.cookie, { requestId });
    expect(again.status).toBe(409);
    expect(await jsonOf(again)).toEqual({ code: 'ALREADY_PAID', message: CHECKOUT.alreadyPaid, title: CHECKOUT.failedTitle });
  });
});

describe('the test checkout', () => {
  it('pays only through its signed callback: declined card first, then a test card, then the order completes and unlocks the videos', async () => {
    const buyer = await createVerifiedUser(app, { fullName: 'Pat Parent' });
    const requestId = await insertRequest(app, buyer.userId);
    const forRequest = await insertUnpaidVideo(app, buyer.userId, requestId);
    const forNone = await insertUnpaidVideo(app, buyer.userId, null);
    const otherRequest = await insertRequest(app, buyer.userId, 'pending');
    const forOther = await insertUnpaidVideo(app, buyer.userId, otherRequest);
    const { url, orderId } = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId, promoCode: 'SPRING20' }));
    const sessionId = sessionIdOf(url);

    const page = await app.fetch(pathOf(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('TEST MODE');
    expect(html).toContain('$120.00');
    expect(html).toContain(buyer.email);

    // The declined card: the page says so, nothing changes.
    const declined = await pay(sessionId, { number: '4000 0000 0000 0002' });
    expect(declined.status).toBe(200);
    const declinedHtml = await declined.text();
    expect(declinedHtml).toContain('Your card was declined. Try a different card.');
    // The fields keep what was typed (a test card's number too), as a provider's page does.
    expect(declinedHtml).toMatch(/name="number"[^>]*value="4000 0000 0000 0002"/);
    // A real card number is never written back into the page.
    const real = await pay(sessionId, { number: '4111 1111 1111 1111' });
    const realHtml = await real.text();
    expect(realHtml).toContain('Your card was declined. This checkout is in test mode: use a test card.');
    expect(realHtml).toMatch(/name="number"[^>]*value=""/);
    expect(realHtml).toMatch(/name="cvc"[^>]*value=""/);
    expect(realHtml).not.toContain('4111');
    const invalid = await pay(sessionId, { number: '4242 4242 4242 4241', expiry: '01 / 20', cvc: '1' });
    expect(invalid.status).toBe(200);
    const invalidHtml = await invalid.text();
    for (const text of ['Your card number is invalid.', "Your card&#39;s expiration date is in the past.", "Your card&#39;s security code is incomplete."]) {
      expect(invalidHtml).toContain(text);
    }
    // A form posted from elsewhere pays nothing.
    expect((await pay(sessionId, {}, { origin: 'https://evil.example' })).status).toBe(403);
    const [session] = await app.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, sessionId));
    expect(session!.status).toBe('open');
    expect((await ordersOf(app, buyer.userId))[0]!.status).toBe('pending');

    // The test card: back to the dashboard at once; the order waits for the callback.
    const paid = await pay(sessionId, {});
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${app.origin}/dashboard?checkout=success&session_id=${sessionId}`);
    const completed = await eventually(async () => {
      const [order] = await app.db.select().from(orders).where(eq(orders.id, orderId));
      return order?.status === 'completed' && order;
    });
    expect(completed.stripePaymentId).toMatch(/^pi_local_[a-f0-9]{32}$/);
    expect(completed.completedAt).toBeInstanceOf(Date);
    expect(await videoState(app, forRequest)).toEqual({ isPaid: true, isVisible: true });
    expect(await videoState(app, forNone)).toEqual({ isPaid: true, isVisible: true });
    expect(await videoState(app, forOther)).toEqual({ isPaid: false, isVisible: false });
    expect(await eventsOf(app, orderId)).toMatchObject([{ provider: 'local', type: 'checkout.session.completed', outcome: 'completed' }]);

    const receipt = await app.smtp.waitFor(buyer.email, 'order is confirmed');
    expect(receipt.text).toContain('Total paid: $120.00');
    expect(receipt.text).toContain('This was a test payment');
    const byBuyer = await app.fetch(`/api/orders/by-session/${sessionId}`, { cookie: buyer.cookie });
    expect(await jsonOf(byBuyer)).toMatchObject({ id: orderId, status: 'completed', amount: 12000, discountCents: 3000, promoCode: 'SPRING20', provider: 'local' });
    // Another user cannot read it.
    const other = await createVerifiedUser(app);
    expect((await app.fetch(`/api/orders/by-session/${sessionId}`, { cookie: other.cookie })).status).toBe(404);
    // The session is paid: its page says so, and buying again is refused.
    expect((await app.fetch(pathOf(url))).status).toBe(410);
    expect((await checkout(buyer.cookie, { requestId })).status).toBe(409);
    const requests = await jsonOf<Array<{ id: string; paid: boolean }>>(await app.fetch('/api/requests', { cookie: buyer.cookie }));
    expect(requests.find((r) => r.id === requestId)!.paid).toBe(true);
  });

  it('its webhook refuses an unsigned, forged or stale callback, and takes a repeated one once', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const video = await insertUnpaidVideo(app, buyer.userId, requestId);
    const { url, orderId } = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId }));
    const sessionId = sessionIdOf(url);
    // What the test checkout would say once paid, sent by someone who does not hold the secret.
    const [row] = await app.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, sessionId));
    const event = JSON.stringify({
      id: 'evt_local_forged',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: sessionId, object: 'checkout.session', amount_total: 15000, currency: 'usd', client_reference_id: orderId, metadata: { orderId }, payment_status: 'paid', status: 'complete', payment_intent: 'pi_x' } },
    });
    const post = (headers: Record<string, string>, body = event) =>
      fetch(`${app.origin}/api/payments/local/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const secret = localWebhookSecret(app.server.deps.config);
    const refused = [
      await post({}),
      await post({ [LOCAL_SIGNATURE_HEADER]: signLocalPayload('not-the-secret', event) }),
      await post({ [LOCAL_SIGNATURE_HEADER]: signLocalPayload(secret, event, Math.floor(Date.now() / 1000) - 301) }),
      await post({ [LOCAL_SIGNATURE_HEADER]: signLocalPayload(secret, event) }, event.replace('"usd"', '"eur"')),
    ];
    for (const res of refused) {
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'WEBHOOK_REFUSED', message: 'Webhook refused.' });
    }
    // Correctly signed, but the session is still open at the provider: nothing is paid.
    const early = await post({ [LOCAL_SIGNATURE_HEADER]: signLocalPayload(secret, event) });
    expect(early.status).toBe(200);
    expect(await jsonOf(early)).toMatchObject({ outcome: 'awaiting_payment' });
    expect(row!.status).toBe('open');
    expect((await ordersOf(app, buyer.userId))[0]!.status).toBe('pending');
    expect(await videoState(app, video)).toEqual({ isPaid: false, isVisible: false });
    // The same event id again is a duplicate.
    const again = await post({ [LOCAL_SIGNATURE_HEADER]: signLocalPayload(secret, event) });
    expect(await jsonOf(again)).toMatchObject({ outcome: 'duplicate' });
    expect(await app.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_local_forged'))).toHaveLength(1);
  });
});

describe('the test checkout, when things go wrong', () => {
  it('a payment whose callback was never sent (a crash) is sent by the periodic check', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const { url, orderId } = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId }));
    // The session was paid, and the process died before its delivery job was stored.
    await app.db
      .update(localCheckoutSessions)
      .set({ status: 'complete', paymentStatus: 'paid', paymentIntent: 'pi_local_crashed', eventId: 'evt_local_crashed', eventType: 'checkout.session.completed', updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(localCheckoutSessions.id, sessionIdOf(url)));
    expect(await createLocalProvider(app.server.deps).resumeDeliveries()).toBeGreaterThanOrEqual(1);
    const order = await eventually(async () => (await ordersOf(app, buyer.userId)).find((o) => o.id === orderId && o.status === 'completed'));
    expect(order.stripePaymentId).toBe('pi_local_crashed');
  });

  it('a session nobody pays expires after 24 hours, and its order with it', async () => {
    const buyer = await createVerifiedUser(app);
    const requestId = await insertRequest(app, buyer.userId);
    const { url } = await jsonOf<CheckoutAnswer>(await checkout(buyer.cookie, { requestId }));
    const sessionId = sessionIdOf(url);
    const [job] = (await jobsOf(app, 'payments.local-expire')).filter((j) => j.data.sessionId === sessionId);
    const [row] = await queryRows<{ start_after: Date }>(app.db, sql`SELECT start_after FROM pgboss.job WHERE id = ${job!.id}`);
    expect(Math.abs(new Date(row!.start_after).getTime() - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    // What that job does when its time comes:
    await expireLocalSession(createLocalProvider(app.server.deps))({ sessionId }, { jobId: job!.id, retryCount: 0, lastAttempt: false, heartbeat: async () => {} });
    await eventually(async () => (await ordersOf(app, buyer.userId))[0]!.status === 'expired');
    const page = await app.fetch(pathOf(url));
    expect(page.status).toBe(410);
  });
});

describe('a paid request in the admin area', () => {
  it('shows as paid, and its approval cannot be undone', async () => {
    const buyer = await createVerifiedUser(app, { fullName: 'Paige Paid' });
    const requestId = await insertRequest(app, buyer.userId);
    await checkout(buyer.cookie, { requestId, promoCode: 'TEAMFREE' });
    const undo = await app.fetch(`/api/admin/requests/${requestId}/undo`, { method: 'POST', cookie: admin.cookie });
    expect(undo.status).toBe(409);
    expect(await jsonOf(undo)).toEqual({ code: 'PAID', message: ADMIN.requestToasts.paid });
    const list = await jsonOf<{ users: Array<{ id: string; requests: Array<{ id: string; status: string; paid: boolean }> }> }>(
      await app.fetch('/api/admin/users?q=paige', { cookie: admin.cookie }),
    );
    expect(list.users.find((u) => u.id === buyer.userId)!.requests).toMatchObject([{ id: requestId, status: 'ready_to_purchase', paid: true }]);
    // Delivering it still works.
    expect((await app.fetch(`/api/admin/requests/${requestId}/deliver`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
  });
});

describe('promo codes in the admin area', () => {
  const create = (cookie: string | undefined, body: unknown) => app.fetch('/api/admin/promo-codes', { method: 'POST', cookie, json: body });

  it('creates, lists, deactivates and reactivates; a code is unique in any case', async () => {
    const created = await create(admin.cookie, { code: 'Summer15', discountPercent: 15 });
    expect(created.status).toBe(201);
    expect(await jsonOf(created)).toMatchObject({ code: 'Summer15', discountPercent: 15, active: true });
    const taken = await create(admin.cookie, { code: 'SUMMER15', discountPercent: 30 });
    expect(taken.status).toBe(409);
    expect(await jsonOf(taken)).toEqual({ code: 'PROMO_CODE_TAKEN', message: ADMIN.promoCodes.taken, title: ADMIN.promoCodes.failedTitle });

    const buyer = await createVerifiedUser(app);
    const check = (code: string) => app.fetch('/api/promo-codes/check', { method: 'POST', cookie: buyer.cookie, json: { code } });
    expect(await jsonOf(await check('summer15'))).toEqual({ code: 'Summer15', discountPercent: 15 });

    const off = await app.fetch('/api/admin/promo-codes/summer15', { method: 'PATCH', cookie: admin.cookie, json: { active: false } });
    expect(await jsonOf(off)).toMatchObject({ code: 'Summer15', active: false });
    expect((await check('Summer15')).status).toBe(404);
    const list = await jsonOf<Array<{ code: string; active: boolean }>>(await app.fetch('/api/admin/promo-codes', { cookie: admin.cookie }));
    expect(list.find((p) => p.code === 'Summer15')).toMatchObject({ active: false });
    await app.fetch('/api/admin/promo-codes/Summer15', { method: 'PATCH', cookie: admin.cookie, json: { active: true } });
    expect((await check('SUMMER15')).status).toBe(200);
  });

  it('a code with a last day and a limit of uses: listed with its uses, refused at checkout once past its day or used up, with its own message', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await create(admin.cookie, { code: 'TWICE', discountPercent: 100, expiresOn: today, maxUses: 2 });
    expect(created.status).toBe(201);
    expect(await jsonOf(created)).toMatchObject({ code: 'TWICE', expiresOn: today, maxUses: 2, uses: 0 });
    // Two families use it (a 100% code completes the order at once); the third is refused.
    for (let i = 0; i < 2; i++) {
      const buyer = await createVerifiedUser(app);
      expect((await checkout(buyer.cookie, { requestId: await insertRequest(app, buyer.userId), promoCode: 'twice' })).status).toBe(200);
    }
    const listed = await jsonOf<Array<{ code: string; uses: number; maxUses: number | null }>>(await app.fetch('/api/admin/promo-codes', { cookie: admin.cookie }));
    expect(listed.find((p) => p.code === 'TWICE')).toMatchObject({ uses: 2, maxUses: 2 });
    const third = await createVerifiedUser(app);
    const requestId = await insertRequest(app, third.userId);
    const refused = await checkout(third.cookie, { requestId, promoCode: 'TWICE' });
    expect(refused.status).toBe(400);
    expect(await jsonOf(refused)).toEqual({ code: 'INVALID_PROMO', message: PROMO.used_up.description, title: PROMO.used_up.title });
    const checked = await app.fetch('/api/promo-codes/check', { method: 'POST', cookie: third.cookie, json: { code: 'twice' } });
    expect(await jsonOf(checked)).toMatchObject({ message: PROMO.used_up.description });
    expect(await ordersOf(app, third.userId)).toEqual([]);

    // Past its last day (set in the database: the form takes today or later).
    await create(admin.cookie, { code: 'LASTWEEK', discountPercent: 10 });
    await app.db.update(promoCodes).set({ expiresOn: '2020-01-31' }).where(eq(promoCodes.code, 'LASTWEEK'));
    const late = await checkout(third.cookie, { requestId, promoCode: 'lastweek' });
    expect(await jsonOf(late)).toEqual({ code: 'INVALID_PROMO', message: PROMO.expired.description, title: PROMO.expired.title });
    expect(await ordersOf(app, third.userId)).toEqual([]);
  });

  it('refuses bad input with the exact message and stores nothing', async () => {
    const before = await app.db.select().from(promoCodes);
    const cases: Array<[unknown, string]> = [
      [{ code: 'PAST', discountPercent: 10, expiresOn: '2020-01-01' }, ADMIN.promoCodes.invalidExpiry],
      [{ code: 'NODAY', discountPercent: 10, expiresOn: '2030-02-30' }, ADMIN.promoCodes.invalidExpiry],
      [{ code: 'WORDDAY', discountPercent: 10, expiresOn: 'soon' }, ADMIN.promoCodes.invalidExpiry],
      [{ code: 'NOUSE', discountPercent: 10, maxUses: 0 }, ADMIN.promoCodes.invalidUses],
      [{ code: 'HALFUSE', discountPercent: 10, maxUses: 1.5 }, ADMIN.promoCodes.invalidUses],
      [{ code: 'MANYUSE', discountPercent: 10, maxUses: 100_001 }, ADMIN.promoCodes.invalidUses],
      [{ code: '', discountPercent: 10 }, ADMIN.promoCodes.invalidCode],
      [{ code: 'has space', discountPercent: 10 }, ADMIN.promoCodes.invalidCode],
      [{ code: 'X'.repeat(65), discountPercent: 10 }, ADMIN.promoCodes.invalidCode],
      [{ code: 'ZERO', discountPercent: 0 }, ADMIN.promoCodes.invalidPercent],
      [{ code: 'TOOMUCH', discountPercent: 101 }, ADMIN.promoCodes.invalidPercent],
      [{ code: 'HALF', discountPercent: 12.5 }, ADMIN.promoCodes.invalidPercent],
      [{ code: 'WORDS', discountPercent: 'ten' }, ADMIN.promoCodes.invalidPercent],
      [{ code: 'NONE' }, ADMIN.promoCodes.invalidPercent],
    ];
    for (const [body, message] of cases) {
      const res = await create(admin.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message, title: ADMIN.promoCodes.failedTitle });
    }
    const unknown = await app.fetch('/api/admin/promo-codes/NOSUCH', { method: 'PATCH', cookie: admin.cookie, json: { active: false } });
    expect(unknown.status).toBe(404);
    expect(await app.db.select().from(promoCodes)).toEqual(before);
  });

  it('is for admins only', async () => {
    const member = await createVerifiedUser(app);
    for (const cookie of [member.cookie, undefined]) {
      expect((await create(cookie, { code: 'SNEAKY', discountPercent: 100 })).status).toBe(cookie ? 403 : 401);
      expect((await app.fetch('/api/admin/promo-codes', { cookie })).status).toBe(cookie ? 403 : 401);
      expect((await app.fetch('/api/admin/promo-codes/SPRING20', { method: 'PATCH', cookie, json: { active: false } })).status).toBe(cookie ? 403 : 401);
    }
    expect(await app.db.select().from(promoCodes).where(eq(promoCodes.code, 'SNEAKY'))).toEqual([]);
    expect((await app.db.select().from(promoCodes).where(eq(promoCodes.code, 'SPRING20')))[0]!.active).toBe(true);
  });
});
