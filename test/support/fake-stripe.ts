// A fake of Stripe's Checkout Session API on loopback, for the real `stripe` SDK to talk HTTP to:
// `new Stripe(FAKE_STRIPE_KEY, { host, port, protocol, maxNetworkRetries: 0 })`.
//
// It answers as Stripe's API reference documents, so the SDK's own parsing and error classes are
// what the tests exercise: form bodies in bracket notation, Bearer keys, idempotency keys replayed
// or refused, and errors as `{ error: { type, code, param, message } }` with Stripe's statuses.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import Stripe from 'stripe';

export const FAKE_STRIPE_KEY = 'sk_test_fake_0123456789';

export interface FakeStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, unknown>;
}

export interface FakeStripe {
  host: string;
  port: number;
  protocol: 'http';
  url: string;
  /** Every Checkout Session created, by id (the live objects: tests may read them). */
  sessions: Map<string, Stripe.Checkout.Session>;
  /** Every request received, in order (parsed params). */
  requests: FakeStripeRequest[];
  /**
   * The customer pays: status 'complete', payment_status 'paid' (or the given one, e.g. 'unpaid'
   * for a delayed method), payment_intent 'pi_test_…', customer_details with the email (the
   * session's customer_email, else `opts.email`, else a made-up one). Returns the session.
   * Throws if the session is unknown or not open.
   */
  pay(sessionId: string, opts?: { paymentStatus?: 'paid' | 'unpaid'; email?: string }): Stripe.Checkout.Session;
  /** Every refund, by id (the live objects: a test may set one's status, as Stripe later does). */
  refunds: Map<string, Stripe.Refund>;
  /** A refund made in Stripe's own dashboard, with no metadata of ours. */
  refundFromDashboard(paymentIntent: string, amount: number): Stripe.Refund;
  /** Makes the next request(s) fail with this HTTP status and Stripe error body (e.g. 500 api_error, 402 card_error). */
  failNext(status: number, error: { type: string; message: string; code?: string }, times?: number): void;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;
type Session = Stripe.Checkout.Session;
type CheckoutEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

const HOST = '127.0.0.1';
const DAY = 24 * 60 * 60;
// A client that asks for exactly "now + 30 min" (or + 24 h) reaches us a moment later; Stripe's
// clock is not ours either, so the bounds on expires_at get a little slack.
const EXPIRY_SLACK_SECONDS = 5;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomId(prefix: string, length: number): string {
  let id = prefix;
  for (let i = 0; i < length; i++) id += ALNUM[randomInt(ALNUM.length)];
  return id;
}
const nowSeconds = () => Math.floor(Date.now() / 1000);

// ---- Request bodies -------------------------------------------------------------------------

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Bracket notation as the SDK writes it (`a[b][0][c]=1`, `expand[]=x`) into nested objects, with
 * index-keyed objects turned into arrays. Metadata maps stay maps: their keys are the caller's.
 */
function parseForm(body: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const open = key.indexOf('[');
    const path =
      open <= 0 ? [key] : [key.slice(0, open), ...Array.from(key.slice(open).matchAll(/\[([^\]]*)\]/g), (m) => m[1] ?? '')];
    let node = root;
    for (let i = 0; i < path.length; i++) {
      let segment = path[i]!;
      if (segment === '') segment = String(Object.keys(node).length); // `a[]=x` appends
      if (UNSAFE_KEYS.has(segment)) break;
      if (i === path.length - 1) {
        node[segment] = value;
        break;
      }
      const next = node[segment];
      if (typeof next !== 'object' || next === null) node[segment] = {};
      node = node[segment] as Params;
    }
  }
  for (const key of Object.keys(root)) root[key] = indexedToArrays(key, root[key]);
  return root;
}

function indexedToArrays(key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, indexedToArrays(k, v)] as const);
  if (key !== 'metadata' && entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

/** JSON with sorted keys: the same parameters compare equal whatever order they came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Params;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

// ---- Validation, with Stripe's messages -----------------------------------------------------

/** A 400 invalid_request_error about one parameter. */
class ParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

// Top-level parameters of POST /v1/checkout/sessions in the SDK's API version (SessionCreateParams).
// Those this fake does not model are accepted and ignored; anything else is refused, as Stripe does.
const CREATE_PARAMS = new Set([
  'adaptive_pricing', 'after_expiration', 'allow_promotion_codes', 'allowed_payment_method_types', 'automatic_tax',
  'billing_address_collection', 'branding_settings', 'cancel_url', 'client_reference_id', 'consent_collection',
  'currency', 'custom_fields', 'custom_text', 'customer', 'customer_account', 'customer_creation', 'customer_email',
  'customer_update', 'discounts', 'excluded_payment_method_types', 'expand', 'expires_at', 'integration_identifier',
  'invoice_creation', 'line_items', 'locale', 'managed_payments', 'metadata', 'mode', 'name_collection',
  'optional_items', 'origin_context', 'payment_intent_data', 'payment_method_collection',
  'payment_method_configuration', 'payment_method_data', 'payment_method_options', 'permissions',
  'phone_number_collection', 'redirect_on_completion', 'return_url', 'saved_payment_method_options',
  'setup_intent_data', 'shipping_address_collection', 'shipping_options', 'submit_type', 'subscription_data',
  'success_url', 'tax_id_collection', 'ui_mode', 'wallet_options',
]);
const LINE_ITEM_PARAMS = new Set(['adjustable_quantity', 'dynamic_tax_rates', 'metadata', 'price', 'price_data', 'quantity', 'tax_rates']);
const PRICE_DATA_PARAMS = new Set(['currency', 'product', 'product_data', 'recurring', 'tax_behavior', 'unit_amount', 'unit_amount_decimal']);
const PRODUCT_DATA_PARAMS = new Set(['description', 'images', 'metadata', 'name', 'tax_code', 'unit_label']);
const READ_PARAMS = new Set(['expand']);
// Parameters of POST /v1/refunds (RefundCreateParams).
const REFUND_PARAMS = new Set(['amount', 'charge', 'currency', 'customer', 'expand', 'instructions_email', 'metadata', 'origin', 'payment_intent', 'reason', 'refund_application_fee', 'reverse_transfer']);

function rejectUnknown(params: Params, allowed: Set<string>, prefix: string): void {
  for (const key of Object.keys(params)) {
    if (allowed.has(key)) continue;
    const param = prefix ? `${prefix}[${key}]` : key;
    throw new ParamError(param, `Received unknown parameter: ${param}`, 'parameter_unknown');
  }
}

/** An optional string; Stripe reads an empty value as "not given". */
function optionalString(value: unknown, param: string): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new ParamError(param, `Invalid string: ${param} must be a string.`);
  return value;
}

function requiredString(value: unknown, param: string): string {
  const text = optionalString(value, param);
  if (text === null) throw new ParamError(param, `Missing required param: ${param}.`, 'parameter_missing');
  return text;
}

function maxLength(value: string | null, max: number, param: string): void {
  if (value !== null && value.length > max) {
    throw new ParamError(param, `Invalid string: ${value.slice(0, 20)}...; must be at most ${max} characters (${param}).`);
  }
}

function integerParam(value: unknown, param: string, min: number): number;
function integerParam(value: unknown, param: string, min: number, optional: true): number | null;
function integerParam(value: unknown, param: string, min: number, optional = false): number | null {
  if (value === undefined || value === '') {
    if (optional) return null;
    throw new ParamError(param, `Missing required param: ${param}.`, 'parameter_missing');
  }
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) {
    throw new ParamError(param, `Invalid integer: ${String(value)}`, 'parameter_invalid_integer');
  }
  const n = Number(value);
  if (n < min) throw new ParamError(param, `This value must be greater than or equal to ${min}.`, 'parameter_invalid_integer');
  return n;
}

function objectParam(value: unknown, param: string): Params {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParamError(param, `Invalid object: ${param} must be a hash.`);
  }
  return value as Params;
}

function urlParam(value: string | null, param: string): void {
  if (value === null) return;
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new ParamError(param, 'Not a valid URL', 'url_invalid');
}

/** Metadata as Stripe limits it: 50 keys, keys up to 40 characters, string values up to 500. */
function metadataParam(value: unknown, param: string): Record<string, string> {
  if (value === undefined || value === '') return {};
  const entries = Object.entries(objectParam(value, param));
  if (entries.length > 50) {
    throw new ParamError(param, `Invalid ${param}: metadata can have up to 50 keys, but you passed in ${entries.length} keys.`);
  }
  const metadata: Record<string, string> = {};
  for (const [key, v] of entries) {
    if (key.length > 40) {
      throw new ParamError(param, `Invalid ${param}: metadata keys can have up to 40 characters, but you passed in a key that is ${key.length} characters long.`);
    }
    if (typeof v !== 'string') throw new ParamError(`${param}[${key}]`, `Invalid value for ${param}[${key}]: metadata values must be strings.`);
    if (v.length > 500) {
      throw new ParamError(`${param}[${key}]`, `Invalid ${param}: metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters long.`);
    }
    if (v !== '') metadata[key] = v; // an empty value unsets a key
  }
  return metadata;
}

interface PricedItem {
  currency: string;
  amount: number;
}

function lineItem(raw: unknown, index: number): PricedItem {
  const p = `line_items[${index}]`;
  const item = objectParam(raw, p);
  rejectUnknown(item, LINE_ITEM_PARAMS, p);
  if (item.price !== undefined && item.price_data !== undefined) {
    throw new ParamError(p, `You may only specify one of these parameters: ${p}[price], ${p}[price_data].`);
  }
  const quantity = integerParam(item.quantity, `${p}[quantity]`, 1);
  metadataParam(item.metadata, `${p}[metadata]`);
  // This fake keeps no Prices or Products, so a reference to one is one Stripe would not find.
  const price = optionalString(item.price, `${p}[price]`);
  if (price !== null) throw new ParamError(`${p}[price]`, `No such price: '${price}'`, 'resource_missing');
  if (item.price_data === undefined) {
    throw new ParamError(p, `You must specify either \`price\` or \`price_data\` for each line item (${p}).`, 'parameter_missing');
  }
  const pd = `${p}[price_data]`;
  const priceData = objectParam(item.price_data, pd);
  rejectUnknown(priceData, PRICE_DATA_PARAMS, pd);
  const currency = requiredString(priceData.currency, `${pd}[currency]`).toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw new ParamError(`${pd}[currency]`, `Invalid currency: ${currency}.`);
  const unitAmount = integerParam(priceData.unit_amount, `${pd}[unit_amount]`, 0);
  const product = optionalString(priceData.product, `${pd}[product]`);
  if (product !== null) throw new ParamError(`${pd}[product]`, `No such product: '${product}'`, 'resource_missing');
  if (priceData.product_data === undefined) {
    throw new ParamError(`${pd}[product_data]`, `Missing required param: ${pd}[product_data].`, 'parameter_missing');
  }
  const productData = objectParam(priceData.product_data, `${pd}[product_data]`);
  rejectUnknown(productData, PRODUCT_DATA_PARAMS, `${pd}[product_data]`);
  requiredString(productData.name, `${pd}[product_data][name]`);
  metadataParam(productData.metadata, `${pd}[product_data][metadata]`);
  return { currency, amount: unitAmount * quantity };
}

/** Validates POST /v1/checkout/sessions as Stripe does and builds the open session. */
function createSession(params: Params, baseUrl: string): Session {
  rejectUnknown(params, CREATE_PARAMS, '');
  const mode = requiredString(params.mode, 'mode');
  if (!['payment', 'setup', 'subscription'].includes(mode)) {
    throw new ParamError('mode', `Invalid mode: must be one of payment, setup, or subscription`);
  }
  if (mode !== 'payment') throw new ParamError('mode', `This fake Stripe supports only mode=payment, not mode=${mode}.`);

  if (params.line_items === undefined || params.line_items === '') {
    throw new ParamError('line_items', 'Missing required param: line_items.', 'parameter_missing');
  }
  if (!Array.isArray(params.line_items)) throw new ParamError('line_items', 'Invalid array');
  const items = params.line_items.map(lineItem);
  const currency = items[0]!.currency;
  if (items.some((i) => i.currency !== currency)) {
    throw new ParamError('line_items', 'All line items in a Checkout Session must have the same currency.');
  }
  const amount = items.reduce((sum, i) => sum + i.amount, 0);

  const successUrl = requiredString(params.success_url, 'success_url');
  urlParam(successUrl, 'success_url');
  const cancelUrl = optionalString(params.cancel_url, 'cancel_url');
  urlParam(cancelUrl, 'cancel_url');
  const clientReferenceId = optionalString(params.client_reference_id, 'client_reference_id');
  maxLength(clientReferenceId, 200, 'client_reference_id');
  const customerEmail = optionalString(params.customer_email, 'customer_email');
  if (customerEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(customerEmail)) {
    throw new ParamError('customer_email', `Invalid email address: ${customerEmail}`, 'email_invalid');
  }
  const metadata = metadataParam(params.metadata, 'metadata');
  if (params.payment_intent_data !== undefined && params.payment_intent_data !== '') {
    metadataParam(objectParam(params.payment_intent_data, 'payment_intent_data').metadata, 'payment_intent_data[metadata]');
  }

  const created = nowSeconds();
  const expiresAt = integerParam(params.expires_at, 'expires_at', 0, true);
  if (expiresAt !== null && expiresAt < created + 30 * 60 - EXPIRY_SLACK_SECONDS) {
    throw new ParamError('expires_at', 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.');
  }
  if (expiresAt !== null && expiresAt > created + DAY + EXPIRY_SLACK_SECONDS) {
    throw new ParamError('expires_at', 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.');
  }

  const id = randomId('cs_test_a1', 48);
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: cancelUrl,
    client_reference_id: clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: customerEmail,
    discounts: [],
    expires_at: expiresAt ?? created + DAY,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata,
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    // Kept as given: Stripe fills in {CHECKOUT_SESSION_ID} only when it redirects the customer.
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: `${baseUrl}/pay/${id}`,
    wallet_options: null,
  };
}

// ---- The server -----------------------------------------------------------------------------

interface Reply {
  status: number;
  body: unknown;
  /** False for answers given before the endpoint ran (bad parameters): Stripe does not keep those for replay. */
  replayable: boolean;
}

interface StoredResponse {
  endpoint: string;
  params: string;
  status: number;
  body: string;
}

const invalidRequest = (status: number, message: string, extra: { code?: string; param?: string } = {}): Reply => ({
  status,
  body: { error: { type: 'invalid_request_error', ...extra, message } },
  replayable: status !== 400,
});

function maskKey(key: string): string {
  const prefix = /^[a-z]+_(?:test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}****${key.slice(-4)}`;
}

/** The key from `Authorization: Bearer <key>` (or Basic `<key>:`, which Stripe also takes). */
function apiKeyOf(req: http.IncomingMessage): string | null {
  const header = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  if (bearer) return bearer[1]!.trim();
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (basic) return Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] || null;
  return null;
}

export async function startFakeStripe(opts: { apiKey?: string } = {}): Promise<FakeStripe> {
  const apiKey = opts.apiKey ?? FAKE_STRIPE_KEY;
  const sessions = new Map<string, Session>();
  const refunds = new Map<string, Stripe.Refund>();
  const requests: FakeStripeRequest[] = [];
  const failures: Array<{ status: number; error: { type: string; message: string; code?: string } }> = [];
  const idempotent = new Map<string, StoredResponse>();
  let baseUrl = '';

  /** Sessions past expires_at are expired, as Stripe expires them on its own. */
  function current(id: string): Session | undefined {
    const session = sessions.get(id);
    if (session?.status === 'open' && nowSeconds() >= session.expires_at) {
      session.status = 'expired';
      session.url = null;
    }
    return session;
  }

  const noSuchSession = (id: string) =>
    invalidRequest(404, `No such checkout.session: '${id}'`, { code: 'resource_missing', param: 'session' });

  function pay(sessionId: string, payOpts: { paymentStatus?: 'paid' | 'unpaid'; email?: string } = {}): Session {
    const session = current(sessionId);
    if (!session) throw new Error(`fake Stripe: no Checkout Session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`fake Stripe: Checkout Session ${sessionId} is ${session.status}, not open`);
    session.status = 'complete';
    session.payment_status = payOpts.paymentStatus ?? 'paid';
    session.payment_intent = randomId('pi_test_', 24);
    session.customer_details = {
      address: null,
      business_name: null,
      email: session.customer_email ?? payOpts.email ?? 'customer@example.com',
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    session.url = null; // Stripe's url is only there while the session is open
    return session;
  }

  /**
   * A refund of a paid session's PaymentIntent, never more than is left of it (Stripe's
   * amount_too_large and charge_already_refunded); it succeeds at once, as card refunds in test mode do.
   */
  function createRefund(paymentIntent: string, amount: number | null, metadata: Record<string, string>): Reply {
    const session = [...sessions.values()].find((s) => s.payment_intent === paymentIntent && s.payment_status === 'paid');
    if (!session) return invalidRequest(404, `No such payment_intent: '${paymentIntent}'`, { code: 'resource_missing', param: 'payment_intent' });
    const refunded = [...refunds.values()].filter((r) => r.payment_intent === paymentIntent && r.status !== 'failed' && r.status !== 'canceled').reduce((n, r) => n + r.amount, 0);
    const left = (session.amount_total ?? 0) - refunded;
    if (left <= 0) return { ...invalidRequest(400, `Charge for payment intent ${paymentIntent} has already been refunded.`, { code: 'charge_already_refunded' }), replayable: true };
    const value = amount ?? left;
    if (value > left) {
      return {
        ...invalidRequest(400, `Refund amount ($${(value / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, { code: 'amount_too_large', param: 'amount' }),
        replayable: true,
      };
    }
    const refund = {
      id: randomId('re_test_', 24),
      object: 'refund',
      amount: value,
      balance_transaction: null,
      charge: null,
      created: nowSeconds(),
      currency: session.currency ?? 'usd',
      metadata,
      payment_intent: paymentIntent,
      reason: null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    } as unknown as Stripe.Refund;
    refunds.set(refund.id, refund);
    return { status: 200, body: refund, replayable: true };
  }

  /** The API proper, once the key is good; null when no endpoint matches. */
  function route(method: string, path: string, params: Params): Reply | null {
    if (method === 'POST' && path === '/v1/refunds') {
      rejectUnknown(params, REFUND_PARAMS, '');
      const paymentIntent = optionalString(params.payment_intent, 'payment_intent');
      if (!paymentIntent) throw new ParamError('payment_intent', 'One of the following params should be provided for this request: payment_intent or charge.');
      const amount = params.amount === undefined ? null : Number(params.amount);
      if (amount !== null && (!Number.isInteger(amount) || amount < 1)) throw new ParamError('amount', 'Invalid positive integer');
      return createRefund(paymentIntent, amount, (params.metadata ?? {}) as Record<string, string>);
    }
    const oneRefund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && oneRefund) {
      const id = decodeURIComponent(oneRefund[1]!);
      const refund = refunds.get(id);
      return refund ? { status: 200, body: refund, replayable: true } : invalidRequest(404, `No such refund: '${id}'`, { code: 'resource_missing', param: 'id' });
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session = createSession(params, baseUrl);
      sessions.set(session.id, session);
      return { status: 200, body: session, replayable: true };
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      rejectUnknown(params, READ_PARAMS, '');
      const id = decodeURIComponent(one[1]!);
      const session = current(id);
      return session ? { status: 200, body: session, replayable: true } : noSuchSession(id);
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) {
      rejectUnknown(params, READ_PARAMS, '');
      const id = decodeURIComponent(expire[1]!);
      const session = current(id);
      if (!session) return noSuchSession(id);
      if (session.status !== 'open') {
        return {
          ...invalidRequest(400, `Only Checkout Sessions with a status of \`open\` can be expired; this one is \`${session.status}\`.`),
          replayable: true,
        };
      }
      session.status = 'expired';
      session.url = null;
      return { status: 200, body: session, replayable: true };
    }
    return null;
  }

  /** Stripe's hosted page, reduced to its outcome: the customer pays and is sent to success_url. */
  function hostedPage(id: string): { status: number; body: unknown; location?: string } {
    const session = current(id);
    if (!session || session.status !== 'open') {
      return { status: 404, body: { error: { type: 'invalid_request_error', message: `No open Checkout Session ${id}` } } };
    }
    pay(id);
    const location = (session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', session.id);
    return { status: 303, body: { redirect: location }, location };
  }

  function handle(req: http.IncomingMessage, rawBody: string, res: http.ServerResponse): void {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', baseUrl);
    const path = url.pathname;
    const params = method === 'GET' || method === 'DELETE' ? parseForm(url.search.slice(1)) : parseForm(rawBody);
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    requests.push({ method, path, idempotencyKey, params });

    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Request-Id': randomId('req_', 14),
        'Stripe-Version': (req.headers['stripe-version'] as string | undefined) ?? Stripe.API_VERSION,
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        ...headers,
      });
      res.end(body);
    };
    const sendReply = (reply: Reply) => send(reply.status, JSON.stringify(reply.body));

    const failure = failures.shift();
    if (failure) return send(failure.status, JSON.stringify({ error: failure.error }));

    const hosted = /^\/pay\/([^/]+)$/.exec(path);
    if (method === 'GET' && hosted) {
      const page = hostedPage(decodeURIComponent(hosted[1]!));
      return send(page.status, JSON.stringify(page.body), page.location ? { Location: page.location } : {});
    }

    const key = apiKeyOf(req);
    if (key !== apiKey) {
      const message =
        key === null
          ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
          : `Invalid API Key provided: ${maskKey(key)}`;
      const body = JSON.stringify({ error: { type: 'invalid_request_error', message } });
      return send(401, body, { 'WWW-Authenticate': 'Basic realm="Stripe"' });
    }

    const endpoint = `${method} ${path}`;
    const paramsKey = canonical(params);
    if (method === 'POST' && idempotencyKey !== null) {
      const prior = idempotent.get(idempotencyKey);
      const conflict = (message: string) =>
        sendReply({
          status: 400,
          replayable: false,
          body: {
            error: {
              type: 'idempotency_error',
              message: `${message} Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          },
        });
      if (prior && prior.endpoint !== endpoint) {
        return conflict(
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${endpoint}' vs '${prior.endpoint}').`,
        );
      }
      if (prior && prior.params !== paramsKey) {
        return conflict('Keys for idempotent requests can only be used with the same parameters they were first used with.');
      }
      if (prior) return send(prior.status, prior.body, { 'Idempotent-Replayed': 'true' });
    }

    let reply: Reply;
    try {
      reply = route(method, path, params) ?? invalidRequest(404, `Unrecognized request URL (${method}: ${path}).`);
    } catch (err) {
      if (!(err instanceof ParamError)) throw err;
      // Stripe answers a missing resource named in a parameter with 400 too; neither is kept for replay.
      reply = invalidRequest(400, err.message, { ...(err.code ? { code: err.code } : {}), param: err.param });
    }
    const body = JSON.stringify(reply.body);
    if (method === 'POST' && idempotencyKey !== null && reply.replayable) {
      idempotent.set(idempotencyKey, { endpoint, params: paramsKey, status: reply.status, body });
    }
    send(reply.status, body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, Buffer.concat(chunks).toString('utf8'), res);
      } catch (err) {
        // A bug here should read as Stripe being down, not hang the SDK.
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json', 'Request-Id': randomId('req_', 14) });
        res.end(JSON.stringify({ error: { type: 'api_error', message: `fake Stripe failed: ${String(err)}` } }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${HOST}:${port}`;

  return {
    host: HOST,
    port,
    protocol: 'http',
    url: baseUrl,
    sessions,
    refunds,
    requests,
    pay,
    refundFromDashboard(paymentIntent, amount) {
      const reply = createRefund(paymentIntent, amount, {});
      if (reply.status !== 200) throw new Error(`fake Stripe: ${JSON.stringify(reply.body)}`);
      return reply.body as Stripe.Refund;
    },
    failNext(status, error, times = 1) {
      for (let i = 0; i < times; i++) failures.push({ status, error });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps connections alive; close them or close() waits for their idle timeout.
        server.closeAllConnections();
      }),
  };
}

/**
 * An Event object as Stripe sends to webhooks: { id: 'evt_test_…', object: 'event', api_version,
 * created, livemode: false, type, data: { object: <a deep copy of the session> }, pending_webhooks: 1,
 * request: { id: null, idempotency_key: null } }.
 */
export function stripeEvent(
  type: CheckoutEventType | 'refund.created' | 'refund.updated' | 'refund.failed',
  session: Stripe.Checkout.Session | Stripe.Refund,
  opts: { id?: string; created?: number } = {},
): Stripe.Event {
  return {
    id: opts.id ?? randomId('evt_test_', 24),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: opts.created ?? nowSeconds(),
    livemode: false,
    type,
    data: { object: JSON.parse(JSON.stringify(session)) as Session | Stripe.Refund },
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  } as Stripe.Event;
}
