// Our mails carry only our words (issue 33, finding 4). A name opened the confirmation mail and
// every reset mail ("Hi <name>,"), so anyone could send "Your child's reel is ready. Pay at
// https://evil.example/pay" from our address to any address. Names with line breaks, links,
// addresses or markup are refused wherever a name is taken, and a mail to an address nobody has
// confirmed carries no text typed by whoever signed up.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_ERRORS } from '../../src/common/messages';
import { homepageSignups, user, userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
});
afterAll(async () => {
  await app?.close();
});

const PHISHING = [
  "Ava\n\nYour child's highlight reel is ready. Pay within 24 hours",
  'Pay at https://evil.example/pay',
  'Visit www.evil-pay.net now',
  'evil-pay.com',
  'Ava <b>urgent</b>',
  'billing@evil.example',
  'Ava\tStone',
];

const mailsTo = (email: string) => app.smtp.mails.filter((m) => m.to.includes(email));
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a name is only a name', () => {
  it('the sign-up refuses each one with the exact message, creates no account and sends no mail', async () => {
    for (const fullName of PHISHING) {
      const email = uniqueEmail('phish');
      const res = await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName, email, password: 'secret123' } });
      expect({ fullName, status: res.status }).toEqual({ fullName, status: 400 });
      expect(await res.json()).toMatchObject({ message: FIELD_ERRORS.notAName('Full Name') });
      expect(await app.db.select().from(user).where(eq(user.email, email))).toEqual([]);
    }
    await settle(500);
    expect(app.smtp.mails.filter((m) => m.to.some((t) => t.startsWith('phish.')))).toEqual([]);
  });

  it('the registration, the homepage sign-up and the profile edit refuse them too, changing nothing', async () => {
    const email = uniqueEmail('reg');
    const form = new FormData();
    for (const [k, v] of Object.entries({ firstName: 'Pay at https://evil.example/pay', lastName: 'Miles', email, username: `phish_${Date.now().toString(36)}`, password: 'secret12', birthday: '2008-05-14', state: 'Texas', city: 'Austin', teamName: 'Austin Elite', event: 'austin-fall-league-2024', jerseyNumber: '23' })) form.set(k, v);
    const registration = await app.fetch('/api/account/register', { method: 'POST', body: form });
    expect(registration.status).toBe(400);
    expect(await registration.json()).toMatchObject({ message: FIELD_ERRORS.notAName('First name') });
    expect(await app.db.select().from(user).where(eq(user.email, email))).toEqual([]);

    const homepage = await app.fetch('/api/account/homepage-signups', { method: 'POST', json: { firstName: 'Ava', lastName: 'Stone\nClick www.evil.example', email } });
    expect(homepage.status).toBe(400);
    expect(await homepage.json()).toMatchObject({ message: FIELD_ERRORS.notAName('Last name') });
    expect(await app.db.select().from(homepageSignups).where(eq(homepageSignups.email, email))).toEqual([]);

    const family = await createVerifiedUser(app, { fullName: 'Ava Stone' });
    const [before] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, family.userId));
    const edit = await app.fetch('/api/profile', { method: 'PATCH', cookie: family.cookie, json: { firstName: 'Ava <a href=x>', lastName: 'Stone' } });
    expect(edit.status).toBe(400);
    expect(await edit.json()).toMatchObject({ message: FIELD_ERRORS.notAName('First name') });
    const [after] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, family.userId));
    expect(after).toEqual(before);
  });

  it('names from everywhere still pass: accents, apostrophes, hyphens, initials, other scripts', async () => {
    for (const fullName of ["Zoë O'Brien-Łukasz", 'Dr. Jean-Luc St. John Jr.', 'A.J. Smith', '李小龙', 'Nguyễn Thị Minh Khai', 'Mary Ann McDonald']) {
      const res = await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName, email: uniqueEmail('name'), password: 'secret123' } });
      expect({ fullName, status: res.status }).toEqual({ fullName, status: 201 });
    }
  });
});

describe('mails to an address nobody confirmed', () => {
  it('the confirmation mail carries no typed text, not even the name', async () => {
    const email = uniqueEmail('victim');
    expect((await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName: 'Mallory Sender', email, password: 'secret123' } })).status).toBe(201);
    const mail = await app.smtp.waitFor(email, 'Confirm');
    expect(mail.text).toContain('Hi there,');
    expect(mail.text).not.toContain('Mallory');
    expect(mail.html).not.toContain('Mallory');
  });

  it('a reset mail names the person only once the address is confirmed', async () => {
    const unconfirmed = uniqueEmail('victim');
    expect((await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName: 'Mallory Twice', email: unconfirmed, password: 'secret123' } })).status).toBe(201);
    expect((await app.fetch('/api/auth/request-password-reset', { method: 'POST', json: { email: unconfirmed, redirectTo: '/reset-password' } })).status).toBe(200);
    const reset = await app.smtp.waitFor(unconfirmed, 'Reset');
    expect(reset.text).toContain('Hi there,');
    expect(reset.text).not.toContain('Mallory');

    const family = await createVerifiedUser(app, { fullName: 'Ava Stone' });
    expect((await app.fetch('/api/auth/request-password-reset', { method: 'POST', json: { email: family.email, redirectTo: '/reset-password' } })).status).toBe(200);
    expect((await app.smtp.waitFor(family.email, 'Reset')).text).toContain('Hi Ava Stone,');
    expect(mailsTo(family.email).length).toBeGreaterThan(0);
  });
});
