// The contact form (POST /api/contact): the message is stored first, then the team is told
// (reply-to the sender) and the sender gets an auto-reply; a mail failure keeps the message.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../src/common/company';
import { CONTACT, FIELD_ERRORS } from '../../src/common/messages';
import { contactMessages } from '../../src/server/db/schema';
import { startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jsonOf, settle } from '../support/http';
import type { ReceivedMail } from '../support/smtp';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
});
afterEach(() => {
  app.smtp.setFailing(false);
});
afterAll(async () => {
  await app?.close();
});

const send = (json: unknown) => app.fetch('/api/contact', { method: 'POST', json });
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
      mailStatus: 'sent',
    });

    const team = await app.smtp.waitFor(COMPANY.teamInbox, m.subject);
    const reply = await app.smtp.waitFor(m.email, m.subject);
    expect(app.smtp.mails.indexOf(team)).toBeLessThan(app.smtp.mails.indexOf(reply));
    expect(team.to).toEqual([COMPANY.teamInbox]);
    expect(team.replyTo).toContain(m.email);
    expect(reply.to).toEqual([m.email]);
    const submitted = submittedTexts(before, after);
    expectTemplateFields(team, m, m.phone, submitted);
    expectTemplateFields(reply, m, m.phone, submitted);
    expect(reply.text).toContain(`Hi ${m.firstName} ${m.lastName}`);
  });

  it('without a phone number stores null and mails "Not provided"', async () => {
    for (const phone of [undefined, '', '   ']) {
      const m = message({ phone });
      const before = new Date();
      const res = await send(m);
      expect(res.status).toBe(201);
      const [row] = await rowsFrom(m.email);
      expect(row!.phone).toBeNull();
      const reply = await app.smtp.waitFor(m.email, m.subject);
      const team = app.smtp.mails.find((x) => x.to.includes(COMPANY.teamInbox) && x.replyTo?.includes(m.email));
      expect(team).toBeDefined();
      const submitted = submittedTexts(before, new Date());
      expectTemplateFields(reply, { ...m, phone: '' }, 'Not provided', submitted);
      expectTemplateFields(team!, { ...m, phone: '' }, 'Not provided', submitted);
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
    const mailsBefore = app.smtp.mails.length;
    const res = await send(message(overrides));
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', message: text });
    expect((await allRows()).length).toBe(rowsBefore);
    await settle(100);
    expect(app.smtp.mails.length).toBe(mailsBefore);
  });

  it('when mail fails: 502 with the spec texts, and the message is kept as failed', async () => {
    app.smtp.setFailing(true);
    const m = message();
    const res = await send(m);
    expect(res.status).toBe(502);
    expect(await jsonOf(res)).toEqual({ code: 'MAIL_FAILED', message: CONTACT.failure.description, title: CONTACT.failure.title });
    const rows = await rowsFrom(m.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: m.subject, message: m.message, mailStatus: 'failed' });
    expect(app.smtp.mails.filter((x) => x.to.includes(m.email) || x.replyTo?.includes(m.email))).toHaveLength(0);
  });
});
