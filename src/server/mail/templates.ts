// The product's e-mails. Plain text first (it is what the tests and the outbox log read), with a
// simple HTML version for mail clients.
import { COMPANY } from '../../common/company';
import { PROCESSING_TIME } from '../../common/constants';
import { DASHBOARD } from '../../common/dashboard-messages';
import { PRICES } from '../../common/prices';
import type { MailMessage } from './mailer';
import { escapeHtml } from '../http/html';

/** Where a family's answer to one of our mails goes: the address on the Contact page. */
const FAMILY_REPLY_TO = COMPANY.email;


function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#e11d48;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111;max-width:560px;margin:auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}<p style="color:#666;font-size:12px">${escapeHtml(COMPANY.name)}</p></body></html>`;
}

/**
 * The confirmation mail goes to an address nobody has confirmed yet: it carries no text typed by
 * whoever signed up (issue 33, finding 4), not even the name.
 */
export function verificationMail(to: string, url: string): MailMessage {
  const lines = [
    'Hi there,',
    'Confirm your email address to finish setting up your Get It On Tape account.',
    'This link expires in 24 hours.',
  ];
  return {
    to,
    subject: 'Confirm your email address',
    text: `${lines.join('\n\n')}\n\n${url}\n`,
    html: layout('Confirm your email address', lines, { label: 'Confirm email', url }),
  };
}

/** `name` only for a confirmed address (its owner typed it); else the mail carries none of it. */
export function resetPasswordMail(to: string, name: string | null, url: string): MailMessage {
  const lines = [
    `Hi ${name || 'there'},`,
    'Someone asked to reset the password of your Get It On Tape account. If it was you, open the link below to choose a new password. If not, you can ignore this email.',
    'This link expires in 1 hour.',
  ];
  return {
    to,
    subject: 'Reset your password',
    text: `${lines.join('\n\n')}\n\n${url}\n`,
    html: layout('Reset your password', lines, { label: 'Reset password', url }),
  };
}

/** To an admin whenever a second factor is enrolled on their account: the alert if it was not them. */
export function secondFactorEnrolledMail(to: string): MailMessage {
  const lines = [
    'An authenticator app was just set up as the second factor of your Get It On Tape admin account.',
    'If this was you, there is nothing to do. If it was not, tell another admin at once: they can remove it with npm run admin -- reset-second-factor and your password should be changed.',
  ];
  return { to, subject: 'A second factor was added to your admin account', text: `${lines.join('\n\n')}\n`, html: layout('A second factor was added to your admin account', lines) };
}

/** After an account is erased: no name (it is gone), only that it happened. */
export function accountErasedMail(to: string): MailMessage {
  const lines = [
    'Your Get It On Tape account has been closed and erased.',
    "Its profile, the athlete's photos and face data, its requests, videos and stills are deleted, and you can no longer sign in with this address. Records of payments are kept without your name or address, as accounting law requires.",
    'If you did not ask for this, reply to this email.',
  ];
  return { to, subject: 'Your account has been erased', text: `${lines.join('\n\n')}\n`, html: layout('Your account has been erased', lines) };
}

/** After one athlete of a family is erased (the account stays): the athlete's first name only. */
export function athleteErasedMail(to: string, athleteName: string): MailMessage {
  const who = athleteName || 'The athlete';
  const lines = [
    `${who}'s profile has been removed from your Get It On Tape account and erased.`,
    `${who}'s photos and face data, consents, requests, videos and stills are deleted. Your account and your other athletes are not changed. Records of payments are kept without a name, as accounting law requires.`,
    'If you did not ask for this, reply to this email.',
  ];
  return { to, subject: `${who}'s profile has been erased`, text: `${lines.join('\n\n')}\n`, html: layout(`${who}'s profile has been erased`, lines) };
}

/** The spec's contact template parameters. */
export interface ContactParams {
  user_name: string;
  user_email: string;
  user_number: string;
  subject: string;
  message: string;
  submitted: string;
}

function contactFields(p: ContactParams): string[] {
  return [
    `Name: ${p.user_name}`,
    `Email: ${p.user_email}`,
    `Phone: ${p.user_number}`,
    `Subject: ${p.subject}`,
    `Submitted: ${p.submitted}`,
    `Message:\n${p.message}`,
  ];
}

export function contactNotificationMail(to: string, p: ContactParams): MailMessage {
  const lines = contactFields(p);
  return {
    to,
    replyTo: p.user_email,
    subject: `New contact message: ${p.subject}`,
    text: lines.join('\n'),
    html: layout('New contact message', lines),
  };
}

/**
 * The acknowledgement to whoever wrote to us. Fixed words only: the address it goes to was typed
 * by the sender, so nothing else the sender typed (name, subject, message) is repeated in it.
 */
export function contactAutoReplyMail(to: string): MailMessage {
  const lines = [
    'Hi,',
    `Thanks for contacting ${COMPANY.name}. We have received your message and will reply to this address soon.`,
    'If you did not write to us, someone entered your address by mistake, and you can ignore this email.',
  ];
  return {
    to,
    subject: `We received your message`,
    text: lines.join('\n\n'),
    html: layout('We received your message', lines),
  };
}

/** The spec's note to the team after a simple sign-up (to_email, user_email, user_id, created_at). */
export function newSignupNotificationMail(to: string, p: { user_email: string; user_id: string; created_at: string }): MailMessage {
  const lines = [`A new account was created.`, `Email: ${p.user_email}`, `User ID: ${p.user_id}`, `Created: ${p.created_at}`];
  return {
    to,
    subject: `New sign-up: ${p.user_email}`,
    text: lines.join('\n'),
    html: layout('New sign-up', lines),
  };
}

/** What a team notice says (team/notices.ts sends it, with its link). */
export interface TeamText {
  subject: string;
  lines: string[];
}

/** The spec's send-highlight-request: the athlete's profile, the event and the chosen games. */
export function highlightRequestText(p: {
  profile: { first_name: string; last_name: string; email: string; team_name: string | null; jersey_number: number | null };
  event: string;
  games: string[];
}): TeamText {
  const name = `${p.profile.first_name} ${p.profile.last_name}`.trim() || p.profile.email;
  return {
    subject: `Highlight reel request: ${name} (${p.event})`,
    lines: [
      `Athlete: ${name}`,
      `Email: ${p.profile.email}`,
      `Team: ${p.profile.team_name ?? DASHBOARD.notSpecified}`,
      `Jersey number: ${p.profile.jersey_number ?? DASHBOARD.notSpecified}`,
      `Event: ${p.event}`,
      `Games:\n${p.games.length ? p.games.map((g) => `- ${g}`).join('\n') : '- (no games listed for this event)'}`,
    ],
  };
}

/** A notice to the team, with the button that opens where they act on it. */
export function teamNoticeMail(p: { to: string; subject: string; lines: string[]; link: string; replyTo: string | null }): MailMessage {
  return {
    to: p.to,
    ...(p.replyTo ? { replyTo: p.replyTo } : {}),
    subject: p.subject,
    text: `${p.lines.join('\n\n')}\n\n${p.link}\n`,
    html: layout(p.subject, p.lines, { label: 'Open in the admin area', url: p.link }),
  };
}

const NOTICE_HEADINGS: Record<string, string> = {
  request: 'New requests',
  payment: 'Payments',
  paid_waiting: 'Paid and waiting more than a day',
  failed_job: 'Failed jobs',
  hand_pick: 'Reels to pick by hand',
  nothing_found: 'Nothing found in the footage',
};

/** The day's summary of the notices held back once the team had its day's share of mails. */
export function teamSummaryMail(p: {
  to: string;
  day: string;
  notices: Array<{ kind: string; subject: string; link: string }>;
  queue: { approve: number; review: number; paid: number };
  queueUrl: string;
}): MailMessage {
  const waiting = `Waiting now: ${p.queue.approve} to approve, ${p.queue.review} to review, ${p.queue.paid} paid and waiting.`;
  const groups = Object.keys(NOTICE_HEADINGS)
    .map((kind) => ({ kind, items: p.notices.filter((n) => n.kind === kind) }))
    .filter((g) => g.items.length);
  const text = [
    `${p.notices.length} things for the team since the last mail (${p.day}).`,
    waiting,
    ...groups.map((g) => `${NOTICE_HEADINGS[g.kind]} (${g.items.length}):\n${g.items.map((n) => `- ${n.subject}\n  ${n.link}`).join('\n')}`),
    `The queue: ${p.queueUrl}`,
  ].join('\n\n');
  const list = groups
    .map(
      (g) =>
        `<h2 style="font-size:16px">${escapeHtml(NOTICE_HEADINGS[g.kind]!)} (${g.items.length})</h2><ul>${g.items.map((n) => `<li><a href="${escapeHtml(n.link)}">${escapeHtml(n.subject)}</a></li>`).join('')}</ul>`,
    )
    .join('');
  const html = layout(`Today for the team: ${p.notices.length}`, [waiting], { label: 'Open the queue', url: p.queueUrl }).replace('</h1>', `</h1>${list}`);
  return { to: p.to, subject: `Today for the team: ${p.notices.length} (${p.day})`, text: `${text}\n`, html };
}

/** To the owner of an account that saw many failed sign-ins in a short time. */
export function failedSignInsMail(to: string, signInUrl: string): MailMessage {
  const lines = [
    'Hi there,',
    'Someone tried several times, without the right password, to sign in to your Get It On Tape account. We have slowed down further attempts from where they came from.',
    'If it was you, there is nothing to do: sign in as usual, or use "Forgot your password?" on the sign-in page to choose a new one.',
    'If it was not you, your account is still safe while the password is secret. Choosing a new, longer password makes it safer still.',
  ];
  return {
    to,
    subject: 'Failed sign-in attempts on your account',
    text: `${lines.join('\n\n')}\n\n${signInUrl}\n`,
    html: layout('Failed sign-in attempts on your account', lines, { label: 'Go to sign in', url: signInUrl }),
  };
}

/** "Sam's " when the mail greets a parent about their athlete, "" when it greets the athlete. */
function whose(p: { firstName: string | null; athleteName?: string | null }): string {
  return p.athleteName && p.athleteName !== p.firstName ? `${p.athleteName}'s ` : '';
}

/** Money given back on an order (payments/refunds.ts), once the provider has confirmed it. */
export function refundMail(p: {
  to: string;
  firstName: string | null;
  athleteName?: string | null;
  event: string | null;
  orderId: string;
  amountCents: number;
  /** The whole amount: the reel is locked again. */
  whole: boolean;
  /** The built-in test checkout: no money moved. */
  test: boolean;
  dashboardUrl: string;
}): MailMessage {
  const amount = `$${(p.amountCents / 100).toFixed(2)}`;
  const reel = `${whose(p) ? `${whose(p)}highlight reel` : 'highlight reel'}${p.event ? ` for ${p.event}` : ''}`;
  const lines = [
    `Hi ${p.firstName || 'there'},`,
    `We have refunded ${amount} on your order of the ${reel} (order ${p.orderId}).`,
    p.test ? 'This was a test payment: no money was taken, and none is returned.' : 'It goes back to the card you paid with; banks usually show it within 5 to 10 business days.',
    p.whole
      ? 'As the whole amount was refunded, the reel and its photos are locked again on your dashboard. You can buy it again there at any time.'
      : 'Your reel and its photos stay unlocked on your dashboard.',
    'If you have a question, reply to this email.',
  ];
  return {
    to: p.to,
    replyTo: FAMILY_REPLY_TO,
    subject: `Your refund of ${amount}`,
    text: `${lines.join('\n\n')}\n\n${p.dashboardUrl}\n`,
    html: layout(`Your refund of ${amount}`, lines, { label: 'Go to your dashboard', url: p.dashboardUrl }),
  };
}

/** The buyer's receipt, sent once an order is paid (or free with a 100% promo code). */
export function receiptMail(p: {
  to: string;
  firstName: string | null;
  athleteName?: string | null;
  event: string | null;
  order: { id: string; amount: number; discountCents: number; promoCode: string | null; stripePaymentId: string | null; completedAt: Date | null; provider: string };
  dashboardUrl: string;
  /** The reel was made from the event's footage and is rendered: it unlocks now, no waiting. */
  reelRendered?: boolean;
}): MailMessage {
  const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  const { order } = p;
  const paidOn = (order.completedAt ?? new Date()).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const summary = [
    `Order: ${order.id}`,
    `Highlight reel${p.event ? `: ${p.event}` : ''}`,
    `Price: ${money(order.amount + order.discountCents)}`,
    ...(order.discountCents > 0 ? [`Promo code${order.promoCode ? ` ${order.promoCode}` : ''}: -${money(order.discountCents)}`] : []),
    `Total paid: ${money(order.amount)}`,
    `Date: ${paidOn}`,
    ...(order.stripePaymentId ? [`Payment reference: ${order.stripePaymentId}`] : []),
    ...(order.provider === 'local' ? ['This was a test payment: no money was taken.'] : []),
  ];
  const lines = [
    `Hi ${p.firstName || 'there'},`,
    `Thank you for your order. ${whose(p) ? `Your order of ${whose(p)}highlight reel` : 'Your highlight reel order'} is confirmed.`,
    summary.join('\n'),
    p.reelRendered
      ? 'Your reel is unlocked on your dashboard: you can watch and download it now.'
      : `Your reel will be ready in ${PROCESSING_TIME}. The videos already on your dashboard are unlocked: you can watch and download them now.`,
    'Payments are non-refundable. If something is not right, reply to this email.',
  ];
  return {
    to: p.to,
    replyTo: FAMILY_REPLY_TO,
    subject: 'Your highlight reel order is confirmed',
    text: `${lines.join('\n\n')}\n\n${p.dashboardUrl}\n`,
    html: layout('Your highlight reel order is confirmed', lines, { label: 'Go to your dashboard', url: p.dashboardUrl }),
  };
}

/** The family's reel is rendered and paid for: it is on their dashboard now. */
export function reelDeliveredMail(p: { to: string; firstName: string | null; athleteName?: string | null; event: string | null; stills: number; dashboardUrl: string }): MailMessage {
  const lines = [
    `Hi ${p.firstName || 'there'},`,
    `${whose(p) ? `${whose(p)}highlight reel` : 'Your highlight reel'}${p.event ? ` from ${p.event}` : ''} is ready: the full reel, a vertical cut for social media${p.stills ? ` and ${p.stills} photo ${p.stills === 1 ? 'still' : 'stills'}` : ''}.`,
    'Watch and download them on your dashboard.',
  ];
  return {
    to: p.to,
    replyTo: FAMILY_REPLY_TO,
    subject: `${whose(p) ? `${whose(p)}highlight reel` : 'Your highlight reel'} is ready`,
    text: `${lines.join('\n\n')}\n\n${p.dashboardUrl}\n`,
    html: layout('Your highlight reel is ready', lines, { label: 'Watch your reel', url: p.dashboardUrl }),
  };
}

/**
 * To the family, when their request arrives: what they asked for, what happens next and what it
 * will cost, before they are asked to pay anything.
 */
export function requestReceivedMail(p: { to: string; firstName: string | null; athleteName?: string | null; event: string; games: string[]; dashboardUrl: string }): MailMessage {
  const lines = [
    `Hi ${p.firstName || 'there'},`,
    `We have your request for ${whose(p) ? `${whose(p)}highlight reel` : 'a highlight reel'} from ${p.event}${p.games.length ? ` (${p.games.join(', ')})` : ''}.`,
    'What happens next: our team looks at it and we e-mail you as soon as your reel is ready to purchase. You pay nothing before then.',
    PRICES.mail,
  ];
  return {
    to: p.to,
    replyTo: FAMILY_REPLY_TO,
    subject: 'We have your highlight reel request',
    text: `${lines.join('\n\n')}\n\n${p.dashboardUrl}\n`,
    html: layout('We have your highlight reel request', lines, { label: 'Go to your dashboard', url: p.dashboardUrl }),
  };
}

/**
 * The "plus" of the parent's consent for an athlete under 13 (decision 0035): sent to the confirmed
 * address once the consent is recorded, saying what was agreed, when, and how to withdraw it.
 */
export function parentalConsentMail(p: { to: string; parentName: string; athleteName: string; givenAt: Date; dashboardUrl: string }): MailMessage {
  const when = p.givenAt.toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const lines = [
    `Hi ${p.parentName},`,
    `On ${when} (UTC) you gave your consent, as ${p.athleteName || 'the athlete'}'s parent or guardian, for us to keep ${p.athleteName || 'the athlete'}'s profile and photos and, if you turn face matching on, to find ${p.athleteName || 'them'} in the game footage of the events you request, only to make their highlight reels.`,
    'If this was not you, or you change your mind, reply to this e-mail or close the account from your dashboard: everything about the athlete is then deleted. You can also turn face matching off there at any time, which deletes their face data.',
  ];
  return {
    to: p.to,
    replyTo: FAMILY_REPLY_TO,
    subject: `Your consent for ${p.athleteName || 'your athlete'} is recorded`,
    text: `${lines.join('\n\n')}\n\n${p.dashboardUrl}\n`,
    html: layout('Your consent is recorded', lines, { label: 'Go to your dashboard', url: p.dashboardUrl }),
  };
}

/**
 * The family's reel can be bought: sent once per request, when the first render of a reel made
 * from the event's footage is ready (with its preview), or at approval when the team makes the
 * videos by hand after payment.
 */
export function readyToPurchaseMail(p: { to: string; firstName: string | null; athleteName: string | null; event: string | null; preview: boolean; dashboardUrl: string }): MailMessage {
  const who = p.athleteName || 'your athlete';
  const lines = [
    `Hi ${p.firstName || 'there'},`,
    `The highlight reel of ${who}${p.event ? ` from ${p.event}` : ''} is ready to purchase.`,
    p.preview
      ? 'Watch a short preview on your dashboard. Once you purchase, the full reel, a vertical cut for social media and the photo stills unlock at once.'
      : `Purchase it on your dashboard. Our team then makes your videos: they arrive in ${PROCESSING_TIME}.`,
    PRICES.mail,
  ];
  const label = p.preview ? 'Watch the preview' : 'Go to your dashboard';
  return {
    to: p.to,
    replyTo: FAMILY_REPLY_TO,
    subject: `Ready to purchase: ${p.athleteName ? `${p.athleteName}'s` : 'your'} highlight reel`,
    text: `${lines.join('\n\n')}\n\n${p.dashboardUrl}\n`,
    html: layout('Your highlight reel is ready to purchase', lines, { label, url: p.dashboardUrl }),
  };
}

/** To the team: a family declined face matching, so their athlete's clips are picked by hand (issue 34, item 5). */
export function handPickText(p: { athleteName: string; event: string }): TeamText {
  const name = p.athleteName || 'the athlete';
  return {
    subject: `Pick by hand: ${p.athleteName || 'athlete'} (${p.event})`,
    lines: [
      `The family of ${name} chose not to use face matching, so ${name} is not searched for by face in the footage of ${p.event}.`,
      `They get a reel all the same: find ${name} by team and jersey number, add the clips by hand on the review screen and render it. The family pays only after watching the preview.`,
    ],
  };
}

/** To the team: matching found the athlete nowhere in the footage, before the family is asked to pay. */
export function nothingFoundText(p: { athleteName: string; event: string }): TeamText {
  return {
    subject: `Nothing found: ${p.athleteName || 'athlete'} (${p.event})`,
    lines: [
      `Face matching found no appearance of ${p.athleteName || 'the athlete'} in the footage of ${p.event}.`,
      'The family is not asked to pay: their dashboard asks them to add 2-3 clear reference photos. Check the footage and the references on the review screen, add clips by hand or run the matching again.',
    ],
  };
}
