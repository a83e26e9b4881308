// Payment routes. Thin: each checks who calls and what they send, then calls checkout.ts or
// completion.ts.
//  - POST /api/checkout: the buyer starts a checkout; answers the provider's page to go to.
//  - POST /api/payments/{stripe,local}/webhook: provider events, authenticated by their
//    signature alone (no session, no Origin: they come from a server).
//  - /checkout/local/:id: the built-in test checkout's page and its card form.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { IMPERSONATION } from '../../common/admin-messages';
import { CHECKOUT } from '../../common/dashboard-messages';
import { hasControlCharacters } from '../../common/schemas';
import { requireUser, type ViewerEnv } from '../auth/session';
import { trustedOrigins } from '../auth/auth';
import type { AppDeps } from '../deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES } from '../http/rate-limit';
import { clientIp } from '../http/client-ip';
import { CheckoutRefused, startCheckout } from './checkout';
import { EventRefused, handlePaymentEvent } from './completion';
import { LOCAL_CHECKOUT_PATH, type LocalProvider } from './local-provider';
import { checkTestCard, renderCheckoutPage, renderClosedPage, type CardForm } from './local-checkout-page';
import { isRefundEvent, ProviderError, WebhookRefused, type PaymentProvider } from './provider';
import { handleRefundEvent } from './refunds';

/** The webhooks: reached by the provider's servers, so outside the Origin check (app.ts). */
export const WEBHOOK_PATHS = ['/api/payments/stripe/webhook', '/api/payments/local/webhook'] as const;

/** What the dialog sends. Anything else in the body (a price, a discount) is never read. */
const checkoutBody = z.object({
  requestId: z.string().max(100).optional(),
  promoCode: z
    .string()
    .max(200)
    .refine((v) => !hasControlCharacters(v))
    .nullish(),
});

export function checkoutRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireUser(deps.auth, deps.db)).post('/', async (c) => {
    const viewer = c.var.viewer;
    // Paying is the family's own act: an admin viewing the site as them cannot.
    if (viewer.impersonatedBy) return apiError(c, 403, 'IMPERSONATING', IMPERSONATION.refused, CHECKOUT.failedTitle);
    const limit = await deps.limiter.check([
      [RATE_RULES.checkoutPerUser, viewer.accountId],
      [RATE_RULES.checkoutPerIp, clientIp(c, deps.config.trustProxy)],
    ]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    const raw: unknown = await c.req.json().catch(() => ({}));
    const body = checkoutBody.safeParse(raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {});
    if (!body.success) return apiError(c, 400, 'VALIDATION_ERROR', CHECKOUT.failedFallback, CHECKOUT.failedTitle);
    try {
      return c.json(await startCheckout(deps, { userId: viewer.userId, email: viewer.email }, body.data));
    } catch (error) {
      if (!(error instanceof CheckoutRefused)) throw error;
      return apiError(c, error.status, error.code, error.message, error.title);
    }
  });
}

export function webhookRoutes(deps: AppDeps) {
  const receive = (kind: PaymentProvider['kind']) =>
    async (c: import('hono').Context) => {
      if (deps.payments.kind !== kind) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      // The signature is over the exact bytes sent: read them as they came, parse nothing first.
      const raw = await c.req.text();
      try {
        const event = await deps.payments.verifyWebhook(raw, c.req.raw.headers);
        if (!event) return c.json({ received: true, outcome: 'not handled' });
        const outcome = isRefundEvent(event) ? await handleRefundEvent(deps, deps.payments, event) : await handlePaymentEvent(deps, deps.payments, event);
        return c.json({ received: true, outcome });
      } catch (error) {
        if (error instanceof WebhookRefused || error instanceof EventRefused) {
          console.warn(`[payments] ${kind} webhook refused: ${error.message}`);
          return apiError(c, 400, 'WEBHOOK_REFUSED', 'Webhook refused.');
        }
        // The provider could not be asked about the session: the event is sent again later.
        if (error instanceof ProviderError) {
          console.error(`[payments] ${kind} webhook: ${error.message}`);
          return apiError(c, 503, 'PROVIDER_UNAVAILABLE', 'Try again later.');
        }
        throw error;
      }
    };
  return new Hono().post('/stripe/webhook', receive('stripe')).post('/local/webhook', receive('local'));
}

/** The built-in test checkout's page; only while no Stripe key is set. */
export function localCheckoutRoutes(deps: AppDeps, provider: LocalProvider) {
  const origins = new Set(trustedOrigins(deps.config));
  const dashboard = `${deps.config.baseUrl}/dashboard`;
  const html = (c: import('hono').Context, body: string, status: 200 | 404 | 410 = 200) => {
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex');
    return c.html(body, status);
  };
  const view = (row: NonNullable<Awaited<ReturnType<LocalProvider['find']>>>) => ({
    sessionId: row.id,
    amountTotal: row.amountTotal,
    currency: row.currency,
    description: row.description,
    customerEmail: row.customerEmail,
    cancelUrl: row.cancelUrl,
    actionPath: `${LOCAL_CHECKOUT_PATH}/${row.id}`,
  });
  /** The open session, or the page that says why it cannot be paid. */
  const open = async (c: import('hono').Context) => {
    const id = c.req.param('id') ?? '';
    const row = /^cs_local_[a-z0-9]{1,64}$/.test(id) ? await provider.find(id) : null;
    if (!row) return { page: html(c, renderClosedPage('unknown', dashboard), 404) };
    if (row.status === 'open' && row.expiresAt <= new Date()) {
      await provider.expireCheckout(row.id);
      return { page: html(c, renderClosedPage('expired', dashboard), 410) };
    }
    if (row.status !== 'open') return { page: html(c, renderClosedPage(row.status === 'complete' ? 'complete' : 'expired', dashboard), 410) };
    return { row };
  };

  return new Hono()
    .get('/:id', async (c) => {
      const { row, page } = await open(c);
      return page ?? html(c, renderCheckoutPage(view(row!)));
    })
    .post('/:id', bodyLimit({ maxSize: 8 * 1024, onError: (c) => c.text('Too large', 413) }), async (c) => {
      // A form of our own page posts with our Origin; nothing else may pay a session.
      if (!origins.has(c.req.header('origin') ?? '')) return c.text('Forbidden', 403);
      const { row, page } = await open(c);
      if (page) return page;
      const form = await c.req.parseBody();
      const values: CardForm = {
        number: String(form.number ?? ''),
        expiry: String(form.expiry ?? ''),
        cvc: String(form.cvc ?? ''),
        name: String(form.name ?? ''),
      };
      const check = checkTestCard(values);
      // The page again with what went wrong, as a provider's page shows it (a 200: it is a page).
      if (!check.ok) return html(c, renderCheckoutPage(view(row!), { values, ...check }));
      const paid = await provider.markPaid(row!.id);
      if (!paid) return html(c, renderClosedPage('complete', dashboard), 410);
      // Back to the shop, as a provider does; the order is confirmed by the callback, not by this.
      return c.redirect(paid.successUrl.replace('{CHECKOUT_SESSION_ID}', paid.id), 303);
    });
}
