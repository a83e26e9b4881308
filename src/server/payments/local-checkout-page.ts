// The built-in test checkout's page: what a provider's hosted checkout in test mode looks like,
// rendered on the server with no script at all (a plain form). Test cards only: a real card
// number is declined, never written back into the page, and no card number is ever stored or logged.
import { COMPANY } from '../../common/company';
import { escapeHtml } from '../http/html';

export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardField = keyof CardForm;

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export type CardCheck = { ok: true } | { ok: false; errors: Partial<Record<CardField, string>> } | { ok: false; declined: string };

/** One of the numbers the page itself lists (and the other success card). */
export function isTestCardNumber(typed: string): boolean {
  const number = typed.replace(/[\s-]/g, '');
  return (Object.values(TEST_CARDS) as string[]).includes(number) || number === '5555555555554444';
}

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

/** What a provider's test mode says about a card, field by field, then as a whole. */
export function checkTestCard(form: CardForm, now = new Date()): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const number = form.number.replace(/[\s-]/g, '');
  if (!/^\d*$/.test(number)) errors.number = 'Your card number is invalid.';
  else if (number.length < 13) errors.number = 'Your card number is incomplete.';
  else if (number.length > 19 || !luhn(number)) errors.number = 'Your card number is invalid.';

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry);
  if (!expiry) errors.expiry = "Your card's expiration date is incomplete.";
  else {
    const month = Number(expiry[1]);
    const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    if (month < 1 || month > 12) errors.expiry = "Your card's expiration month is invalid.";
    else if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
      errors.expiry = "Your card's expiration date is in the past.";
    } else if (year > now.getUTCFullYear() + 50) errors.expiry = "Your card's expiration year is invalid.";
  }
  if (!/^\d{3,4}$/.test(form.cvc.trim())) errors.cvc = "Your card's security code is incomplete.";
  if (!form.name.trim()) errors.name = 'Enter the name on the card.';
  else if (form.name.length > 200) errors.name = 'The name on the card is too long.';
  if (Object.keys(errors).length) return { ok: false, errors };

  if (number === TEST_CARDS.success || number === '5555555555554444') return { ok: true };
  if (number === TEST_CARDS.insufficientFunds) return { ok: false, declined: 'Your card has insufficient funds. Try a different card.' };
  if (number === TEST_CARDS.declined) return { ok: false, declined: 'Your card was declined. Try a different card.' };
  return { ok: false, declined: 'Your card was declined. This checkout is in test mode: use a test card.' };
}

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#fff;line-height:1.45}
.test{background:#b35900;color:#fff;font-size:13px;font-weight:600;text-align:center;padding:6px 12px;letter-spacing:.02em}
.wrap{max-width:980px;margin:0 auto;padding:32px 20px 48px;display:grid;gap:40px}
@media(min-width:900px){.wrap{grid-template-columns:1fr 1fr;gap:72px;padding-top:64px}}
a{color:#4f46e5}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #4f46e5;outline-offset:2px}
.back{display:inline-flex;align-items:center;gap:8px;color:#1a1f36;text-decoration:none;font-weight:600}
.back:hover{text-decoration:underline}
.merchant{margin:28px 0 4px;color:#4f566b;font-size:16px}
.amount{margin:0;font-size:36px;font-weight:700;letter-spacing:-.01em}
.item{display:flex;justify-content:space-between;gap:16px;margin-top:24px;padding-top:16px;border-top:1px solid #e3e8ee;font-size:15px}
.hint{margin-top:28px;background:#fff8eb;border:1px solid #f5c26b;border-radius:8px;padding:12px 14px;font-size:14px;color:#5c3b00}
.hint code{font-family:ui-monospace,Menlo,monospace;font-size:13px;background:#fff;border:1px solid #f0d9a8;border-radius:4px;padding:1px 4px;white-space:nowrap}
h1{font-size:20px;margin:0 0 16px}
label{display:block;font-size:14px;font-weight:600;color:#30313d;margin:16px 0 6px}
input{width:100%;font:inherit;font-size:16px;padding:10px 12px;border:1px solid #c6cbd4;border-radius:6px;color:#1a1f36;background:#fff}
input[readonly]{background:#f6f8fa;color:#4f566b}
input[aria-invalid=true]{border-color:#c0123c}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.field-error{color:#b00a30;font-size:13px;margin:6px 0 0}
.alert{border:1px solid #f3b7c3;background:#fff0f3;color:#8a0926;border-radius:8px;padding:12px 14px;font-size:14px;margin-bottom:8px}
button{margin-top:24px;width:100%;font:inherit;font-size:16px;font-weight:600;color:#fff;background:#4f46e5;border:0;border-radius:6px;padding:13px 16px;cursor:pointer}
button:hover{background:#4338ca}
.foot{margin-top:20px;font-size:13px;color:#4f566b;text-align:center}
.state{max-width:520px;margin:80px auto;padding:0 20px;text-align:center}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><div class="test" role="note">TEST MODE: the built-in test checkout. No card is charged and no money moves.</div>${body}</body></html>`;
}

export interface CheckoutView {
  sessionId: string;
  amountTotal: number;
  currency: string;
  description: string;
  customerEmail: string | null;
  cancelUrl: string;
  actionPath: string;
}

const FIELD_IDS: Record<CardField, string> = { number: 'card-number', expiry: 'card-expiry', cvc: 'card-cvc', name: 'card-name' };

export function renderCheckoutPage(
  view: CheckoutView,
  state: { values?: Partial<CardForm>; errors?: Partial<Record<CardField, string>>; declined?: string } = {},
): string {
  const total = money(view.amountTotal, view.currency);
  const testCardTyped = isTestCardNumber(state.values?.number ?? '');
  const field = (name: CardField, label: string, attrs: string) => {
    const error = state.errors?.[name];
    const id = FIELD_IDS[name];
    // After a decline or a mistake the fields keep what was typed, as a provider's page does
    // (issue 34, item 7); a card number and its security code only when the number is one of the
    // published test cards, so a real card number is never written into a page.
    const value = name === 'expiry' || name === 'name' || testCardTyped ? (state.values?.[name] ?? '') : '';
    return `<div><label for="${id}">${label}</label><input id="${id}" name="${name}" ${attrs} value="${escapeHtml(value)}"${
      error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''
    }>${error ? `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : ''}</div>`;
  };
  const problems = [state.declined, ...Object.values(state.errors ?? {})].filter(Boolean) as string[];
  const alert = problems.length
    ? `<div class="alert" role="alert">${state.declined ? escapeHtml(state.declined) : `Check the card details: ${problems.length === 1 ? 'one field needs' : `${problems.length} fields need`} attention.`}</div>`
    : '';
  return page(
    `Pay ${COMPANY.name}: ${total}`,
    `<main class="wrap">
  <section aria-label="Order summary">
    <a class="back" href="${escapeHtml(view.cancelUrl)}"><span aria-hidden="true">&larr;</span> Back to ${escapeHtml(COMPANY.name)}</a>
    <p class="merchant">Pay ${escapeHtml(COMPANY.name)}</p>
    <p class="amount">${total}</p>
    <div class="item"><span>${escapeHtml(view.description)}</span><span>${total}</span></div>
    <div class="hint"><strong>Test cards.</strong> <code>4242 4242 4242 4242</code> succeeds; <code>4000 0000 0000 0002</code> is declined. Use any future date and any 3 digits.</div>
  </section>
  <section aria-labelledby="pay-title">
    <h1 id="pay-title">Pay with card</h1>
    ${alert}
    <form method="post" action="${escapeHtml(view.actionPath)}" novalidate>
      <div><label for="email">Email</label><input id="email" type="email" value="${escapeHtml(view.customerEmail ?? '')}" readonly></div>
      ${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" maxlength="23"')}
      <div class="row">
        ${field('expiry', 'Expiration (MM / YY)', 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" maxlength="9"')}
        ${field('cvc', 'Security code (CVC)', 'inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" maxlength="4"')}
      </div>
      ${field('name', 'Name on card', 'autocomplete="cc-name" maxlength="200"')}
      <button type="submit">Pay ${total}</button>
    </form>
    <p class="foot"><a href="${escapeHtml(view.cancelUrl)}">Cancel and return to ${escapeHtml(COMPANY.name)}</a></p>
  </section>
</main>`,
  );
}

/** A session that can no longer be paid: paid already, expired, or unknown. */
export function renderClosedPage(kind: 'complete' | 'expired' | 'unknown', returnUrl: string): string {
  const text = {
    complete: ['This checkout is complete', 'This order has been paid. You can close this page.'],
    expired: ['This checkout has expired', 'Nothing was charged. Start again from your dashboard to buy your reel.'],
    unknown: ['Checkout not found', 'This checkout link is not valid. Start again from your dashboard.'],
  }[kind];
  return page(
    text[0]!,
    `<main class="state"><h1>${escapeHtml(text[0]!)}</h1><p>${escapeHtml(text[1]!)}</p><p><a href="${escapeHtml(returnUrl)}">Return to ${escapeHtml(COMPANY.name)}</a></p></main>`,
  );
}
