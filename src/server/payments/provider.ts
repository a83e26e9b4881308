// One interface for whoever takes the money. Two drivers: Stripe (stripe-provider.ts) and the
// built-in test checkout (local-provider.ts). The rest of the product (checkout.ts,
// completion.ts) only speaks this interface, so both confirm a payment through the same code.

/** The state of a hosted checkout, as the provider knows it. */
export interface CheckoutSession {
  id: string;
  /** Where the buyer pays; null once the session is no longer open. */
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotal: number | null;
  currency: string | null;
  /** Our order id, as we gave it (metadata.orderId). */
  orderId: string | null;
  clientReferenceId: string | null;
  /** The provider's payment reference (a PaymentIntent id), once there is one. */
  paymentId: string | null;
}

export const PAYMENT_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** A verified provider event about a checkout session. */
export interface PaymentEvent {
  id: string;
  type: PaymentEventType;
  session: CheckoutSession;
}

/** A refund, as the provider knows it. */
export interface ProviderRefund {
  id: string;
  /** pending, succeeded or failed (Stripe's requires_action and canceled read as pending and failed). */
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  currency: string;
  /** The payment it gives money back on (a PaymentIntent id). */
  paymentId: string | null;
  /** Our refund id, as we gave it (metadata.refundId); null for one made in the provider's dashboard. */
  refundId: string | null;
}

export const REFUND_EVENT_TYPES = ['refund.created', 'refund.updated', 'refund.failed'] as const;
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

/** A verified provider event about a refund. */
export interface RefundEvent {
  id: string;
  type: RefundEventType;
  refund: ProviderRefund;
}

export interface RefundInput {
  paymentId: string;
  amountCents: number;
  orderId: string;
  refundId: string;
  /** The same key for the same refund: a retried call never gives money back twice. */
  idempotencyKey: string;
}

export const isRefundEvent = (event: PaymentEvent | RefundEvent): event is RefundEvent => 'refund' in event;

export interface CheckoutInput {
  orderId: string;
  amountCents: number;
  currency: 'usd';
  /** The line the buyer sees, e.g. "Highlight reel: Spring Classic 2026". */
  description: string;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  /** The same key for the same attempt: a retried call gets the same session, never a second one. */
  idempotencyKey: string;
}

/** The provider refused or could not be reached; the message is for logs, not for the buyer. */
export class ProviderError extends Error {}

/** A webhook that is not a genuine, fresh event of our provider: answered 400, nothing changes. */
export class WebhookRefused extends Error {}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  createCheckout(input: CheckoutInput): Promise<CheckoutSession>;
  retrieveCheckout(sessionId: string): Promise<CheckoutSession>;
  /** Closes an open session so it can no longer be paid; answers the session's state either way. */
  expireCheckout(sessionId: string): Promise<CheckoutSession>;
  createRefund(input: RefundInput): Promise<ProviderRefund>;
  retrieveRefund(refundId: string): Promise<ProviderRefund>;
  /**
   * The event in a webhook request, checked against its signature on the raw body. Returns null
   * for a genuine event of a type we do not act on; throws WebhookRefused for anything else.
   */
  verifyWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent | RefundEvent | null>;
}
