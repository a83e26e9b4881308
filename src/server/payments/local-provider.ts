// The built-in test checkout: a payment provider's test mode, served by the product itself, so a
// person trying the product can buy a reel end to end with no account anywhere. It keeps its own
// sessions (local_checkout_sessions), as a provider would on its side, takes test cards on its
// own page (local-checkout-page.ts), and confirms a payment only by a signed server-to-server
// callback to our webhook (the 'payments.local-deliver-event' job), retried until taken: the
// same road as a Stripe webhook, never the buyer's return.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { localCheckoutSessions, localRefunds } from '../db/schema';
import { jobIdFor, type JobHandler, type JobQueue } from '../jobs/queue';
import {
  PAYMENT_EVENT_TYPES,
  REFUND_EVENT_TYPES,
  ProviderError,
  WebhookRefused,
  type CheckoutSession,
  type PaymentEventType,
  type PaymentProvider,
  type ProviderRefund,
  type RefundEventType,
} from './provider';

export const LOCAL_SIGNATURE_HEADER = 'local-payments-signature';
export const LOCAL_WEBHOOK_PATH = '/api/payments/local/webhook';
export const LOCAL_CHECKOUT_PATH = '/checkout/local';
/** As long as a Stripe Checkout Session stays open by default. */
const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const SIGNATURE_TOLERANCE_SECONDS = 300;

type SessionRow = typeof localCheckoutSessions.$inferSelect;

/** The secret the test checkout signs its callbacks with: derived from the auth secret, never stored. */
export function localWebhookSecret(config: Config): string {
  return createHmac('sha256', config.authSecret).update('local-payments-webhook').digest('base64url');
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`: the shape of Stripe's signature header. */
export function signLocalPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

function verifyLocalSignature(secret: string, body: string, header: string | null): void {
  if (!header) throw new WebhookRefused(`no ${LOCAL_SIGNATURE_HEADER} header`);
  const parts = new Map(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  if (!Number.isInteger(timestamp) || given.length !== 32) throw new WebhookRefused('malformed signature header');
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'), 'hex');
  if (!timingSafeEqual(given, expected)) throw new WebhookRefused('signature does not match the body');
  if (Math.abs(Date.now() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) throw new WebhookRefused('timestamp outside the tolerance');
}

/**
 * Where the test checkout reaches our webhook: this server on loopback (a provider would use the
 * public address; the test checkout runs beside the server, and the public address may not loop back).
 */
export function localCallbackOrigin(config: Config): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The session as a provider's API shows it (Stripe's field names, so events read alike). */
export function sessionObject(row: SessionRow, config: Config) {
  return {
    id: row.id,
    object: 'checkout.session',
    amount_total: row.amountTotal,
    currency: row.currency,
    client_reference_id: row.clientReferenceId,
    customer_email: row.customerEmail,
    created: Math.floor(row.createdAt.getTime() / 1000),
    expires_at: Math.floor(row.expiresAt.getTime() / 1000),
    livemode: false,
    metadata: row.metadata,
    mode: 'payment',
    payment_intent: row.paymentIntent,
    payment_status: row.paymentStatus,
    status: row.status,
    success_url: row.successUrl,
    cancel_url: row.cancelUrl,
    url: row.status === 'open' ? `${config.baseUrl}${LOCAL_CHECKOUT_PATH}/${row.id}` : null,
  };
}

function toCheckoutSession(o: ReturnType<typeof sessionObject>): CheckoutSession {
  return {
    id: o.id,
    url: o.url,
    status: o.status as CheckoutSession['status'],
    paymentStatus: o.payment_status as CheckoutSession['paymentStatus'],
    amountTotal: o.amount_total,
    currency: o.currency,
    orderId: o.metadata?.orderId ?? null,
    clientReferenceId: o.client_reference_id,
    paymentId: o.payment_intent,
  };
}

type RefundRow = typeof localRefunds.$inferSelect;

/** A refund as a provider's API shows it (Stripe's field names). */
export function refundObject(row: RefundRow) {
  return {
    id: row.id,
    object: 'refund',
    amount: row.amount,
    currency: row.currency,
    payment_intent: row.paymentIntent,
    metadata: row.metadata,
    status: row.status,
    created: Math.floor(row.createdAt.getTime() / 1000),
  };
}

function toRefund(o: ReturnType<typeof refundObject>): ProviderRefund {
  return {
    id: o.id,
    status: o.status === 'succeeded' ? 'succeeded' : o.status === 'failed' ? 'failed' : 'pending',
    amount: o.amount,
    currency: o.currency,
    paymentId: o.payment_intent,
    refundId: o.metadata?.refundId ?? null,
  };
}

/** Lower case only: the checkout page's path is a page path, and page paths are lower case. */
const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

export interface LocalProviderDeps {
  config: Config;
  db: Db;
  jobs: JobQueue;
}

export function createLocalProvider(deps: LocalProviderDeps): PaymentProvider & {
  /** The session behind the checkout page, or null. */
  find(sessionId: string): Promise<SessionRow | null>;
  /** The test card was accepted: the session completes and its event goes out. Null when it is not open. */
  markPaid(sessionId: string): Promise<SessionRow | null>;
  /** Queues again the events a crash may have left undelivered (run when the worker starts). */
  resumeDeliveries(): Promise<number>;
} {
  const { config, db, jobs } = deps;
  const secret = localWebhookSecret(config);

  const find = async (id: string) => (await db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, id)))[0] ?? null;
  const deliver = (row: Pick<SessionRow, 'id' | 'eventId'>) =>
    jobs.send('payments.local-deliver-event', { sessionId: row.id }, { id: jobIdFor(`local-event:${row.eventId}`) });

  /** Ends an open session with its one event, in one statement; null when it was not open. */
  const end = async (id: string, status: 'complete' | 'expired', type: PaymentEventType): Promise<SessionRow | null> => {
    const [row] = await db
      .update(localCheckoutSessions)
      .set({
        status,
        ...(status === 'complete' && { paymentStatus: 'paid', paymentIntent: newId('pi_local'), completedAt: new Date() }),
        eventId: newId('evt_local'),
        eventType: type,
        updatedAt: new Date(),
      })
      .where(and(eq(localCheckoutSessions.id, id), eq(localCheckoutSessions.status, 'open')))
      .returning();
    if (row) await deliver(row);
    return row ?? null;
  };

  return {
    kind: 'local',
    find,

    async createCheckout(input) {
      const { idempotencyKey, ...request } = input;
      const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      const id = newId('cs_local');
      const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
      const [created] = await db
        .insert(localCheckoutSessions)
        .values({
          id,
          idempotencyKey,
          fingerprint,
          amountTotal: input.amountCents,
          currency: input.currency,
          description: input.description,
          customerEmail: input.customerEmail,
          clientReferenceId: input.orderId,
          metadata: { orderId: input.orderId },
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          expiresAt,
        })
        .onConflictDoNothing({ target: localCheckoutSessions.idempotencyKey })
        .returning();
      if (created) {
        await jobs.send('payments.local-expire', { sessionId: id }, { id: jobIdFor(`local-expire:${id}`), startAfter: expiresAt });
        return toCheckoutSession(sessionObject(created, config));
      }
      // The same key again: the same session for the same request, as a provider answers a retry.
      const [existing] = await db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.idempotencyKey, idempotencyKey));
      if (!existing || existing.fingerprint !== fingerprint) throw new ProviderError('idempotency key reused with different parameters');
      return toCheckoutSession(sessionObject(existing, config));
    },

    async retrieveCheckout(sessionId) {
      const row = await find(sessionId);
      if (!row) throw new ProviderError(`no such checkout session: ${sessionId}`);
      return toCheckoutSession(sessionObject(row, config));
    },

    async expireCheckout(sessionId) {
      await end(sessionId, 'expired', 'checkout.session.expired');
      return this.retrieveCheckout(sessionId);
    },

    markPaid: (sessionId) => end(sessionId, 'complete', 'checkout.session.completed'),

    async createRefund(input) {
      // Test mode: a refund of a paid session succeeds at once, never for more than is left of it.
      const row = await db.transaction(async (tx) => {
        const [replayed] = await tx.select().from(localRefunds).where(eq(localRefunds.idempotencyKey, input.idempotencyKey));
        if (replayed) return replayed;
        const [paid] = await tx
          .select()
          .from(localCheckoutSessions)
          .where(and(eq(localCheckoutSessions.paymentIntent, input.paymentId), eq(localCheckoutSessions.paymentStatus, 'paid')))
          .for('update');
        if (!paid) throw new ProviderError(`no paid payment ${input.paymentId}`);
        const [{ refunded }] = (await tx
          .select({ refunded: sql<number>`coalesce(sum(${localRefunds.amount}), 0)::int` })
          .from(localRefunds)
          .where(and(eq(localRefunds.paymentIntent, input.paymentId), eq(localRefunds.status, 'succeeded')))) as [{ refunded: number }];
        if (input.amountCents > paid.amountTotal - refunded) throw new ProviderError(`refund of ${input.amountCents} is more than the ${paid.amountTotal - refunded} left`);
        const [created] = await tx
          .insert(localRefunds)
          .values({
            id: newId('re_local'),
            idempotencyKey: input.idempotencyKey,
            paymentIntent: input.paymentId,
            amount: input.amountCents,
            currency: paid.currency,
            metadata: { orderId: input.orderId, refundId: input.refundId },
            status: 'succeeded',
            eventId: newId('evt_local'),
          })
          .returning();
        return created!;
      });
      // Sent once the refund is stored (a replay sends it again: the job's id makes it one).
      await jobs.send('payments.local-deliver-refund', { refundId: row.id }, { id: jobIdFor(`local-event:${row.eventId}`) });
      return toRefund(refundObject(row));
    },

    async retrieveRefund(refundId) {
      const [row] = await db.select().from(localRefunds).where(eq(localRefunds.id, refundId));
      if (!row) throw new ProviderError(`no such refund: ${refundId}`);
      return toRefund(refundObject(row));
    },

    async verifyWebhook(rawBody, headers) {
      verifyLocalSignature(secret, rawBody, headers.get(LOCAL_SIGNATURE_HEADER));
      let event: { id?: unknown; type?: unknown; data?: { object?: ReturnType<typeof sessionObject> } };
      try {
        event = JSON.parse(rawBody) as typeof event;
      } catch {
        throw new WebhookRefused('body is not JSON');
      }
      if (typeof event.id !== 'string' || typeof event.type !== 'string') throw new WebhookRefused('not an event');
      if ((REFUND_EVENT_TYPES as readonly string[]).includes(event.type)) {
        const refund = event.data?.object as unknown as ReturnType<typeof refundObject> | undefined;
        if (refund?.object !== 'refund') throw new WebhookRefused(`${event.type} without a refund`);
        return { id: event.id, type: event.type as RefundEventType, refund: toRefund(refund) };
      }
      if (!(PAYMENT_EVENT_TYPES as readonly string[]).includes(event.type)) return null;
      const object = event.data?.object;
      if (object?.object !== 'checkout.session') throw new WebhookRefused(`${event.type} without a checkout session`);
      return { id: event.id, type: event.type as PaymentEventType, session: toCheckoutSession(object) };
    },

    async resumeDeliveries() {
      const refundsStuck = await db
        .select({ id: localRefunds.id, eventId: localRefunds.eventId })
        .from(localRefunds)
        .where(and(isNull(localRefunds.eventDeliveredAt), lt(localRefunds.createdAt, sql`now() - interval '1 minute'`)));
      for (const row of refundsStuck) await jobs.send('payments.local-deliver-refund', { refundId: row.id }, { id: jobIdFor(`local-event:${row.eventId}`) });
      const stuck = await db
        .select({ id: localCheckoutSessions.id, eventId: localCheckoutSessions.eventId })
        .from(localCheckoutSessions)
        .where(
          and(
            isNotNull(localCheckoutSessions.eventId),
            isNull(localCheckoutSessions.eventDeliveredAt),
            lt(localCheckoutSessions.updatedAt, sql`now() - interval '1 minute'`),
          ),
        );
      for (const row of stuck) await deliver(row);
      return stuck.length + refundsStuck.length;
    },
  };
}

export type LocalProvider = ReturnType<typeof createLocalProvider>;

export function isLocalProvider(provider: PaymentProvider): provider is LocalProvider {
  return provider.kind === 'local' && 'markPaid' in provider;
}

/** An event, signed now, to our webhook; like a provider, anything but a 2xx is tried again later. */
async function postEvent(config: Config, event: { id: string; type: string; created: number; object: unknown }): Promise<void> {
  const body = JSON.stringify({ id: event.id, object: 'event', type: event.type, created: event.created, livemode: false, data: { object: event.object } });
  const res = await fetch(`${localCallbackOrigin(config)}${LOCAL_WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [LOCAL_SIGNATURE_HEADER]: signLocalPayload(localWebhookSecret(config), body) },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) throw new Error(`the webhook answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/** The 'payments.local-deliver-event' job: the session's event, signed now, to our webhook. */
export function deliverLocalEvent(deps: LocalProviderDeps): JobHandler<'payments.local-deliver-event'> {
  return async ({ sessionId }) => {
    const [row] = await deps.db.select().from(localCheckoutSessions).where(eq(localCheckoutSessions.id, sessionId));
    if (!row?.eventId || row.eventDeliveredAt) return 'skipped';
    await postEvent(deps.config, { id: row.eventId, type: row.eventType!, created: Math.floor(row.updatedAt.getTime() / 1000), object: sessionObject(row, deps.config) });
    await deps.db.update(localCheckoutSessions).set({ eventDeliveredAt: new Date() }).where(eq(localCheckoutSessions.id, sessionId));
    return 'done';
  };
}

/** The 'payments.local-deliver-refund' job: the refund's 'refund.updated' event to our webhook. */
export function deliverLocalRefund(deps: LocalProviderDeps): JobHandler<'payments.local-deliver-refund'> {
  return async ({ refundId }) => {
    const [row] = await deps.db.select().from(localRefunds).where(eq(localRefunds.id, refundId));
    if (!row || row.eventDeliveredAt) return 'skipped';
    await postEvent(deps.config, { id: row.eventId, type: 'refund.updated', created: Math.floor(row.createdAt.getTime() / 1000), object: refundObject(row) });
    await deps.db.update(localRefunds).set({ eventDeliveredAt: new Date() }).where(eq(localRefunds.id, refundId));
    return 'done';
  };
}

/** The 'payments.local-expire' job: a session still open after 24 hours expires, and says so. */
export function expireLocalSession(provider: PaymentProvider): JobHandler<'payments.local-expire'> {
  return async ({ sessionId }) => {
    const session = await provider.expireCheckout(sessionId).catch(() => null);
    return session ? 'done' : 'skipped';
  };
}
