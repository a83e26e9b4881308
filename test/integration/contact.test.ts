// The contact form (POST /api/contact): the message is stored first, then the team is told
// (reply-to the sender) and the sender gets a fixed acknowledgement; mail goes through the stored
// queue, so an SMTP outage loses nothing and the mail follows when SMTP is back.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../src/common/company';
import { FIELD_ERRORS } from '../../src/common/messages';
import { contactMessages } from '../../src/server/db/schema';
import { RATE_RULES } from '../../src/server/http/rate-limit';
import { startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jobsOf, jobsSettled } from '../support/jobs';
import { jsonOf, settle } from '../support/http';
import type { ReceivedMail } from '../support/smtp';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50, mailRetryDelaySeconds: 1 });
});
afterEach(() => {
  app.smtp.setFailing(false);
});
afterAll(async () => {
  await app?.close();
});

const send = (json: unknown) => app.fetch('/api/contact', { method: 'POST', json });
/** The team's copy of the message from `email` (its reply-to is the sender). */
async function teamMailFrom(email: string): Promise<ReceivedMail> {
  await expect.poll(() => app.smtp.mails.some((x) => x.to.includes(COMPANY.teamInbox) && x.replyTo?.includes(email)), { timeout: 10_000 }).toBe(true);
  return app.smtp.mails.find((x) => x.to.includes(COMPANY.teamInbox) && x.replyTo?.includes(email))!;
}
const rowsFrom = (email: string) => app.db.select().from(contactMessages).where(eq(contactMessages.email, email));
const allRows = () => app.db.select().from(contactMessages);

function message(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Jamie',
    lastName: 'Fox',
    email: uniqueEmail('contact'),
    phone: '(512) 555-0100',
    subject: 'Filming at the spring tournament',
    message: 'Hi!\nWill you film the spring tournament in Round Rock?',
    ...overrides,
  };
}

/** "Submitted: ..." as the server writes it, for any moment in [from, to]. */
function submittedTexts(from: Date, to: Date): string[] {
  const fmt = (d: Date) =>
    d.toLocaleString('en-US', { timeZone: 'America/Chicago', dateStyle: 'medium', timeStyle: 'short' });
  const texts = new Set<string>();
  for (let t = from.getTime() - 60_000; t <= to.getTime() + 60_000; t += 30_000) texts.add(fmt(new Date(t)));
  return [...texts];
}

function expectTemplateFields(mail: ReceivedMail, m: ReturnType<typeof message>, phoneText: string, submitted: string[]) {
  expect(mail.text).toContain(`Name: ${m.firstName} ${m.lastName}`);
  expect(mail.text).toContain(`Email: ${m.email}`);
  expect(mail.text).toContain(`Phone: ${phoneText}`);
  expect(mail.text).toContain(`Subject: ${m.subject}`);
  expect(mail.text).toContain(m.message);
  const line = /Submitted: (.+)/.exec(mail.text)?.[1]?.trim();
  expect(submitted).toContain(line);
}

describe('contact form', () => {
  it('stores the message, then mails the team (reply-to the sender), then the sender', async () => {
    const m = message();
    const before = new Date();
    const res = await send(m);
    const after = new Date();
    expect(res.status).toBe(201);
    const { id } = await jsonOf<{ id: string }>(res);

    const [row] = await rowsFrom(m.email);
    expect(row).toMatchObject({
      id,
      firstName: m.firstName,
      lastName: m.lastName,
      email: m.email,
      phone: m.phone,
      subject: m.subject,
      message: m.message,
    });

    const team = await teamMailFrom(m.email);
    const reply = await app.smtp.waitFor(m.email, 'We received your message');
    expect(app.smtp.mails.indexOf(team)).toBeLessThan(app.smtp.mails.indexOf(reply));
    expect(team.to).toEqual([COMPANY.teamInbox]);
    expect(team.replyTo).toContain(m.email);
    expect(reply.to).toEqual([m.email]);
    expectTemplateFields(team, m, m.phone, submittedTexts(before, after));
  });

  it('the auto-reply repeats nothing the sender typed (issue 6, threat 9: our mail with an attacker\'s words)', async () => {
    const lure = 'Your account is locked. Verify at https://evil.example';
    const m = message({ firstName: lure.slice(0, 50), lastName: 'https://evil.example', subject: lure, message: lure });
    expect((await send(m)).status).toBe(201);
    const reply = await app.smtp.waitFor(m.email, 'We received your message');
    for (const part of [reply.subject, reply.text, reply.html]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('locked');
    }
    expect(reply.subject).toBe('We received your message');
    // The team still sees every word.
    const team = await app.smtp.waitFor(COMPANY.teamInbox, lure);
    expect(team.text).toContain(lure);
  });

  it('one address gets a limited number of auto-replies; every message still reaches the team', async () => {
    // At the real limits (this file's app multiplies them by 50).
    const strict = await startTestApp();
    try {
      const email = uniqueEmail('victim');
      const limit = strict.server.deps.limiter.limitOf(RATE_RULES.contactAutoReplyPerRecipient);
      for (let i = 0; i < limit + 2; i++) {
        const res = await strict.fetch('/api/contact', { method: 'POST', json: message({ email, subject: `Flood ${i}` }) });
        expect(res.status).toBe(201);
      }
      await expect.poll(() => strict.smtp.mails.filter((x) => x.replyTo?.includes(email)).length, { timeout: 10_000 }).toBe(limit + 2);
      await jobsSettled(strict, 'mail.deliver');
      expect(strict.smtp.mails.filter((x) => x.to.includes(email))).toHaveLength(limit);
      expect(await strict.db.select().from(contactMessages).where(eq(contactMessages.email, email))).toHaveLength(limit + 2);
    } finally {
      await strict.close();
    }
  });

  it('without a phone number stores null and mails "Not provided"', async () => {
    for (const phone of [undefined, '', '   ']) {
      const m = message({ phone });
      const before = new Date();
      const res = await send(m);
      expect(res.status).toBe(201);
      const [row] = await rowsFrom(m.email);
      expect(row!.phone).toBeNull();
      const team = await teamMailFrom(m.email);
      expectTemplateFields(team, { ...m, phone: '' }, 'Not provided', submittedTexts(before, new Date()));
    }
  });

  const missing: Array<[string, Record<string, unknown>, string]> = [
    ['first name', { firstName: undefined }, FIELD_ERRORS.required('First name')],
    ['last name', { lastName: '' }, FIELD_ERRORS.required('Last name')],
    ['email', { email: undefined }, FIELD_ERRORS.email],
    ['a valid email', { email: 'jamie at example' }, FIELD_ERRORS.email],
    ['subject', { subject: '  ' }, FIELD_ERRORS.required('Subject')],
    ['message', { message: undefined }, FIELD_ERRORS.required('Message')],
  ];
  it.each(missing)('without %s: refused with its message, nothing stored, nothing mailed', async (_what, overrides, text) => {
    const rowsBefore = (await allRows()).length;
    await jobsSettled(app, 'mail.deliver'); // mail of earlier tests is delivered by now
    const mailsBefore = app.smtp.mails.length;
    const res = await send(message(overrides));
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', message: text });
    expect((await allRows()).length).toBe(rowsBefore);
    await settle(100);
    expect(app.smtp.mails.length).toBe(mailsBefore);
  });

  it('when SMTP is down: the message is stored, its mail queued, and delivered once SMTP is back', async () => {
    app.smtp.setFailing(true);
    const m = message();
    const res = await send(m);
    expect(res.status).toBe(201);
    expect(await rowsFrom(m.email)).toHaveLength(1);
    // The first attempt fails and is recorded; the job waits for its retry. Nothing is lost.
    const teamJob = async () => (await jobsOf(app, 'mail.deliver')).find((j) => j.data.replyTo === m.email);
    await expect.poll(async () => (await teamJob())?.state, { timeout: 10_000 }).toBe('retry');
    expect((await teamJob())!.output?.message).toMatch(/421|Service not available/);
    expect(app.smtp.mails.filter((x) => x.replyTo?.includes(m.email))).toHaveLength(0);

    app.smtp.setFailing(false);
    const team = await teamMailFrom(m.email);
    expect(team.text).toContain(m.message);
    await app.smtp.waitFor(m.email, 'We received your message', 15_000);
    await expect.poll(async () => (await teamJob())?.state, { timeout: 10_000 }).toBe('completed');
  });
});
