// The fake Stripe (test/support/fake-stripe.ts) as the real `stripe` SDK sees it over HTTP: the
// SDK's own encoding, parsing and error classes are what the order tests will rely on.
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_STRIPE_KEY, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe';

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = clientWith(FAKE_STRIPE_KEY);
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

function clientWith(key: string): Stripe {
  return new Stripe(key, { host: fake.host, port: fake.port, protocol: fake.protocol, maxNetworkRetries: 0 });
}

function sessionParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      { quantity: 1, price_data: { currency: 'USD', unit_amount: 15000, product_data: { name: 'Tournament film' } } },
      { quantity: 2, price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Extra copy' } } },
    ],
    metadata: { orderId: 'ord_42' },
    client_reference_id: 'ord_42',
    customer_email: 'parent@example.com',
    success_url: 'https://app.example/orders/42?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://app.example/orders/42',
    ...overrides,
  };
}

/** The rejection of `promise`, to look at its class and fields. */
async function errorOf(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Stripe.errors.StripeError);
  return err as Stripe.errors.StripeError;
}

describe('fake Stripe, Checkout Sessions through the real SDK', () => {
  it('creates a session from bracket-encoded params and records the request', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'order-42-checkout' });

    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{24,}$/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: 20000,
      amount_total: 20000,
      currency: 'usd',
      client_reference_id: 'ord_42',
      customer_email: 'parent@example.com',
      customer_details: null,
      payment_intent: null,
      livemode: false,
      metadata: { orderId: 'ord_42' },
      success_url: 'https://app.example/orders/42?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example/orders/42',
      url: `${fake.url}/pay/${session.id}`,
    });
    expect(session.expires_at - session.created).toBe(24 * 60 * 60);
    expect(Math.abs(session.created - Date.now() / 1000)).toBeLessThan(5);
    expect(session.lastResponse.requestId).toMatch(/^req_/);
    expect(fake.sessions.get(session.id)).toMatchObject({ id: session.id, status: 'open' });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: 'order-42-checkout' });
    expect(request!.params).toMatchObject({
      mode: 'payment',
      client_reference_id: 'ord_42',
      metadata: { orderId: 'ord_42' },
      line_items: [
        { quantity: '1', price_data: { currency: 'USD', unit_amount: '15000', product_data: { name: 'Tournament film' } } },
        { quantity: '2', price_data: { currency: 'usd', unit_amount: '2500', product_data: { name: 'Extra copy' } } },
      ],
    });
  });

  it('replays a request with the same idempotency key and refuses the key with other params', async () => {
    const first = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'replay-key' });
    const count = fake.sessions.size;

    const again = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'replay-key' });
    expect(again.id).toBe(first.id);
    expect(again).toEqual(first);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(fake.sessions.size).toBe(count);

    const err = await errorOf(
      stripe.checkout.sessions.create(sessionParams({ client_reference_id: 'ord_43' }), { idempotencyKey: 'replay-key' }),
    );
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(err.type).toBe('StripeIdempotencyError');
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe(
      "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'replay-key' if you meant to execute a different request.",
    );
    expect(fake.sessions.size).toBe(count);
  });

  it('refuses a wrong API key', async () => {
    const err = await errorOf(clientWith('sk_test_wrong_key_9876').checkout.sessions.create(sessionParams()));
    expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(err.statusCode).toBe(401);
    expect(err.message).toBe('Invalid API Key provided: sk_test_****9876');
  });

  it('refuses missing and invalid params with the param named', async () => {
    const count = fake.sessions.size;
    const noSuccessUrl = await errorOf(stripe.checkout.sessions.create(sessionParams({ success_url: undefined })));
    expect(noSuccessUrl).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(noSuccessUrl).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'success_url' });

    const noName = await errorOf(
      stripe.checkout.sessions.create(
        sessionParams({ line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 100, product_data: { description: 'no name' } as never } }] }),
      ),
    );
    expect(noName).toMatchObject({ code: 'parameter_missing', param: 'line_items[0][price_data][product_data][name]' });

    const badAmount = await errorOf(
      stripe.checkout.sessions.create(
        sessionParams({ line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 1.5, product_data: { name: 'x' } } }] }),
      ),
    );
    expect(badAmount).toMatchObject({ code: 'parameter_invalid_integer', param: 'line_items[0][price_data][unit_amount]' });

    const noMode = await errorOf(stripe.checkout.sessions.create(sessionParams({ mode: undefined })));
    expect(noMode).toMatchObject({ code: 'parameter_missing', param: 'mode' });

    const tooManyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const metadata = await errorOf(stripe.checkout.sessions.create(sessionParams({ metadata: tooManyKeys })));
    expect(metadata).toMatchObject({ statusCode: 400, param: 'metadata' });

    const longKey = await errorOf(stripe.checkout.sessions.create(sessionParams({ metadata: { ['k'.repeat(41)]: 'v' } })));
    expect(longKey).toMatchObject({ statusCode: 400, param: 'metadata' });
    const longValue = await errorOf(stripe.checkout.sessions.create(sessionParams({ metadata: { orderId: 'v'.repeat(501) } })));
    expect(longValue).toMatchObject({ statusCode: 400, param: 'metadata[orderId]' });
    const longRef = await errorOf(stripe.checkout.sessions.create(sessionParams({ client_reference_id: 'r'.repeat(201) })));
    expect(longRef).toMatchObject({ statusCode: 400, param: 'client_reference_id' });
    const unknown = await errorOf(stripe.checkout.sessions.create({ ...sessionParams(), colour: 'red' } as never));
    expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'colour' });

    const soon = Math.floor(Date.now() / 1000) + 60;
    const expiresAt = await errorOf(stripe.checkout.sessions.create(sessionParams({ expires_at: soon })));
    expect(expiresAt).toMatchObject({ statusCode: 400, param: 'expires_at' });
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const expiring = await stripe.checkout.sessions.create(sessionParams({ expires_at: inAnHour }));
    expect(expiring.expires_at).toBe(inAnHour);

    expect(fake.sessions.size).toBe(count + 1); // only the valid one
  });

  it('retrieves, expires once, and answers 404 for an unknown id', async () => {
    const created = await stripe.checkout.sessions.create(sessionParams());
    const retrieved = await stripe.checkout.sessions.retrieve(created.id);
    expect(retrieved).toEqual(created);

    const expired = await stripe.checkout.sessions.expire(created.id);
    expect(expired).toMatchObject({ id: created.id, status: 'expired', url: null });
    expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('expired');

    const twice = await errorOf(stripe.checkout.sessions.expire(created.id));
    expect(twice).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(twice.statusCode).toBe(400);
    expect(twice.message).toMatch(/open/);

    const unknown = await errorOf(stripe.checkout.sessions.retrieve('cs_test_nope'));
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'session' });
    expect(unknown.message).toBe("No such checkout.session: 'cs_test_nope'");
    await expect(stripe.checkout.sessions.expire('cs_test_nope')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('shows a paid session after pay(), and pay() refuses a session that is not open', async () => {
    const created = await stripe.checkout.sessions.create(sessionParams());
    fake.pay(created.id);
    const paid = await stripe.checkout.sessions.retrieve(created.id);
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid', customer_details: { email: 'parent@example.com' } });
    expect(paid.payment_intent).toMatch(/^pi_test_/);
    expect(() => fake.pay(created.id)).toThrow(/not open/);
    expect(() => fake.pay('cs_test_nope')).toThrow();

    const delayed = await stripe.checkout.sessions.create(sessionParams());
    expect(fake.pay(delayed.id, { paymentStatus: 'unpaid' })).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
  });

  it('fails the next request as asked, then answers normally', async () => {
    fake.failNext(500, { type: 'api_error', message: 'Stripe is down' });
    const err = await errorOf(stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'after-outage' }));
    expect(err).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(err).toMatchObject({ statusCode: 500, message: 'Stripe is down' });

    // The failure came before idempotency handling, so the same key now creates the session.
    const session = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'after-outage' });
    expect(session.status).toBe('open');

    fake.failNext(402, { type: 'card_error', message: 'Your card was declined.', code: 'card_declined' }, 2);
    await expect(stripe.checkout.sessions.retrieve(session.id)).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
    await expect(stripe.checkout.sessions.retrieve(session.id)).rejects.toMatchObject({ code: 'card_declined' });
    await expect(stripe.checkout.sessions.retrieve(session.id)).resolves.toMatchObject({ id: session.id });
  });

  it('answers unknown URLs with Stripe’s 404 and JSON headers on every response', async () => {
    const res = await fetch(`${fake.url}/v1/nothing/here`, { headers: { Authorization: `Bearer ${FAKE_STRIPE_KEY}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(await res.json()).toEqual({
      error: { type: 'invalid_request_error', message: 'Unrecognized request URL (GET: /v1/nothing/here).' },
    });
  });

  it('sends the customer on to success_url with the session id filled in from the hosted page', async () => {
    const created = await stripe.checkout.sessions.create(sessionParams());
    const res = await fetch(created.url!, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`https://app.example/orders/42?session=${created.id}`);
    expect(fake.sessions.get(created.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
  });

  it('builds webhook events around a copy of the session', async () => {
    const created = await stripe.checkout.sessions.create(sessionParams());
    const session = fake.pay(created.id);
    const event = stripeEvent('checkout.session.completed', session, { id: 'evt_test_1', created: 1_700_000_000 });
    expect(event).toMatchObject({
      id: 'evt_test_1',
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: 1_700_000_000,
      livemode: false,
      type: 'checkout.session.completed',
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    expect(event.data.object).toEqual(session);
    expect(event.data.object).not.toBe(session);
    expect(stripeEvent('checkout.session.expired', session).id).toMatch(/^evt_test_/);
  });
});
