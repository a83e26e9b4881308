// Stripe Checkout through the official SDK. A session per order attempt (idempotency key from
// checkout.ts), our order id in metadata and client_reference_id, and webhooks verified with
// STRIPE_WEBHOOK_SECRET on the raw body (the SDK also refuses a timestamp older than 5 minutes).
import Stripe from 'stripe';
import {
  PAYMENT_EVENT_TYPES,
  REFUND_EVENT_TYPES,
  ProviderError,
  WebhookRefused,
  type CheckoutSession,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
  type ProviderRefund,
  type RefundEvent,
  type RefundEventType,
} from './provider';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (stripe-mock, a test server); null: Stripe's own. */
  apiUrl: string | null;
}

/** Stripe's own tolerance for the signature's timestamp, in seconds. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export function createStripeProvider(opts: StripeOptions): PaymentProvider {
  const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'http:' ? 80 : 443),
      protocol: api.protocol === 'http:' ? 'http' : 'https',
    }),
  });

  /** Any SDK failure becomes a ProviderError with Stripe's message for the logs. */
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      const e = error as { type?: string; message?: string; statusCode?: number };
      throw new ProviderError(`Stripe ${what} failed: ${e.type ?? 'error'} ${e.statusCode ?? ''} ${e.message ?? ''}`.trim());
    }
  };

  return {
    kind: 'stripe',

    async createCheckout(input) {
      const session = await call('checkout.sessions.create', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: input.currency, unit_amount: input.amountCents, product_data: { name: input.description } },
              },
            ],
            client_reference_id: input.orderId,
            metadata: { orderId: input.orderId },
            payment_intent_data: { metadata: { orderId: input.orderId } },
            ...(input.customerEmail && { customer_email: input.customerEmail }),
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toCheckoutSession(session);
    },

    async retrieveCheckout(sessionId) {
      return toCheckoutSession(await call('checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(sessionId)));
    },

    async expireCheckout(sessionId) {
      try {
        return toCheckoutSession(await stripe.checkout.sessions.expire(sessionId));
      } catch {
        // Not open any more (paid, or expired already): say what it is now.
        return this.retrieveCheckout(sessionId);
      }
    },

    async createRefund(input) {
      const refund = await call('refunds.create', () =>
        stripe.refunds.create(
          { payment_intent: input.paymentId, amount: input.amountCents, metadata: { orderId: input.orderId, refundId: input.refundId } },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toRefund(refund);
    },

    async retrieveRefund(refundId) {
      return toRefund(await call('refunds.retrieve', () => stripe.refunds.retrieve(refundId)));
    },

    async verifyWebhook(rawBody, headers) {
      const signature = headers.get('stripe-signature');
      if (!signature) throw new WebhookRefused('no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookRefused(`signature: ${(error as Error).message}`);
      }
      if ((REFUND_EVENT_TYPES as readonly string[]).includes(event.type)) {
        const refund = event.data.object as Stripe.Refund;
        if (refund?.object !== 'refund') throw new WebhookRefused(`${event.type} without a refund`);
        return { id: event.id, type: event.type as RefundEventType, refund: toRefund(refund) } satisfies RefundEvent;
      }
      if (!(PAYMENT_EVENT_TYPES as readonly string[]).includes(event.type)) return null;
      const object = event.data.object as Stripe.Checkout.Session;
      if (object?.object !== 'checkout.session') throw new WebhookRefused(`${event.type} without a checkout session`);
      return { id: event.id, type: event.type as PaymentEventType, session: toCheckoutSession(object) } satisfies PaymentEvent;
    },
  };
}

function toCheckoutSession(s: Stripe.Checkout.Session): CheckoutSession {
  const paymentIntent = typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null);
  return {
    id: s.id,
    url: s.url ?? null,
    status: oneOf(String(s.status), ['complete', 'expired'] as const, 'open'),
    paymentStatus: oneOf(String(s.payment_status), ['paid', 'no_payment_required'] as const, 'unpaid'),
    amountTotal: s.amount_total ?? null,
    currency: s.currency ?? null,
    orderId: s.metadata?.orderId ?? null,
    clientReferenceId: s.client_reference_id ?? null,
    paymentId: paymentIntent,
  };
}

function toRefund(r: Stripe.Refund): ProviderRefund {
  const status = String(r.status);
  return {
    id: r.id,
    status: status === 'succeeded' ? 'succeeded' : status === 'failed' || status === 'canceled' ? 'failed' : 'pending',
    amount: r.amount,
    currency: r.currency,
    paymentId: typeof r.payment_intent === 'string' ? r.payment_intent : (r.payment_intent?.id ?? null),
    refundId: r.metadata?.refundId ?? null,
  };
}

/** The value when it is one of `known`, else the fallback (the SDK types allow any string). */
function oneOf<const K extends string, F extends string>(value: string, known: readonly K[], fallback: F): K | F {
  return (known as readonly string[]).includes(value) ? (value as K) : fallback;
}
