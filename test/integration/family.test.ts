// Family accounts (issue 34, item 1; decision 0036): a parent holds the account, with two athletes
// (15, registered with the full registration as the account's own profile, and 10, added from the
// dashboard with the parent's consent); each
// asks for reels of two events at once, is bought and delivered; every mail greets the parent; the
// switcher acts only within the family; removing one athlete erases it alone, closing the account
// erases them all; and an install's existing accounts become families of one, nothing lost.
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAMILY } from '../../src/common/family-messages';
import { CLOSE_ACCOUNT } from '../../src/common/dashboard-messages';
import { FIELD_ERRORS, AUTH_REQUIRED } from '../../src/common/messages';
import { PARENTAL_NOTICE_VERSION } from '../../src/common/constants';
import { migrationsFolder } from '../../src/server/db/client';
import { highlightRequests, parentalConsents, promoCodes, user, userProfiles } from '../../src/server/db/schema';
import { ATHLETE_COOKIE } from '../../src/server/family/members';
import { birthdayAtAge, cookiesFrom, createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { linkIn } from '../support/smtp';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf, settle } from '../support/http';
import { jobsOf } from '../support/jobs';
import { freshDatabase, migrationsUpTo } from '../support/migrations';
import { eventually } from '../support/purchase';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
interface Family {
  athletes: Array<{ id: string; firstName: string; lastName: string; own: boolean; hasHeadshot: boolean }>;
  activeId: string;
}

let app: TestApp;
let admin: User;
let parent: User;
let lilyId: string;

const AUSTIN = 'austin-fall-league-2024';
const CHICAGO = 'chicago-3v3-2024';
const GAMES = { [AUSTIN]: ['austin-sat-1', 'austin-sun-2'], [CHICAGO]: [] };
const lily = {
  firstName: 'Lily',
  lastName: 'Reyes',
  birthday: birthdayAtAge(10),
  teamName: 'U10 Comets',
  jerseyNumber: 7,
  guardianConsent: true,
  parentName: 'Maria Reyes',
  parentalConsent: true,
};

/** The parent's cookie, acting for one athlete (the switcher's cookie). */
const as = (who: User, athleteId: string) => `${who.cookie}; ${ATHLETE_COOKIE}=${athleteId}`;
const family = async (cookie: string) => jsonOf<Family>(await app.fetch('/api/family', { cookie }));
const requestRows = (userId: string) => app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, userId));
const addedTo = (accountId: string) => app.db.select().from(userProfiles).where(eq(userProfiles.familyId, accountId));

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  await makeAdmin(app, admin.userId);
  await app.db.insert(promoCodes).values({ code: 'FAMILYFREE', discountPercent: 100, active: true });
  // The parent registers their 15-year-old with the full registration, naming themself, and
  // follows the confirmation link.
  const email = uniqueEmail('reyes');
  const form = new FormData();
  for (const [k, v] of Object.entries({
    firstName: 'Jordan',
    lastName: 'Reyes',
    email,
    username: `jreyes_${Date.now().toString(36)}`,
    password: 'secret123',
    birthday: birthdayAtAge(15),
    state: 'Texas',
    city: 'Austin',
    teamName: 'U16 Rockets',
    event: AUSTIN,
    jerseyNumber: '11',
    guardianConsent: 'true',
    parentName: 'Maria Reyes',
  })) form.set(k, v);
  const registered = await app.fetch('/api/account/register', { method: 'POST', body: form });
  expect(registered.status).toBe(201);
  const { userId } = await jsonOf<{ userId: string }>(registered);
  const confirmed = await fetch(linkIn(await app.smtp.waitFor(email, 'Confirm')), { redirect: 'manual' });
  parent = { email, password: 'secret123', userId, cookie: cookiesFrom(confirmed) };
});
afterAll(async () => {
  await app?.close();
});

describe('a family with two athletes (issue 34, item 1)', () => {
  it('refuses an under-13 athlete without the parent’s consent, with the exact message, and adds nothing', async () => {
    for (const [extra, message] of [
      [{ parentalConsent: false }, FIELD_ERRORS.parentalConsent],
      [{ parentName: '' }, FIELD_ERRORS.parentName],
      [{ guardianConsent: false }, FIELD_ERRORS.guardianConsent],
      [{ firstName: '' }, FIELD_ERRORS.required('First name')],
    ] as const) {
      const res = await app.fetch('/api/family/athletes', { method: 'POST', cookie: parent.cookie, json: { ...lily, ...extra } });
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message });
    }
    expect(await addedTo(parent.userId)).toEqual([]);
  });

  it('adds a 10-year-old with the parent’s consent, recorded from the confirmed address and confirmed by mail to the parent', async () => {
    const res = await app.fetch('/api/family/athletes', { method: 'POST', cookie: parent.cookie, json: lily });
    expect(res.status).toBe(201);
    const body = await jsonOf<{ athlete: { id: string; firstName: string }; activeId: string }>(res);
    lilyId = body.athlete.id;
    expect(body).toEqual({ athlete: { id: lilyId, firstName: 'Lily' }, activeId: lilyId });
    // The switcher moves to her at once.
    expect(res.headers.getSetCookie().join(';')).toContain(`${ATHLETE_COOKIE}=${lilyId}`);

    const [profile] = await addedTo(parent.userId);
    expect(profile).toMatchObject({ id: lilyId, firstName: 'Lily', lastName: 'Reyes', teamName: 'U10 Comets', jerseyNumber: 7, email: parent.email.toLowerCase() });
    expect(profile!.parentalConsentAt).not.toBeNull();
    const [consent] = await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, lilyId));
    expect(consent).toMatchObject({ parentName: 'Maria Reyes', noticeVersion: PARENTAL_NOTICE_VERSION, method: 'email_plus', givenFromEmail: parent.email.toLowerCase() });
    const mail = await app.smtp.waitFor(parent.email, 'Your consent for Lily');
    expect(mail.text).toContain('Hi Maria Reyes,');

    // She can never sign in: no password, an address no mail goes to.
    const [account] = await app.db.select().from(user).where(eq(user.id, lilyId));
    expect(account!.email.endsWith('@family.invalid')).toBe(true);
    const signIn = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: account!.email, password: 'secret123' } });
    expect(signIn.status).toBe(401);
    const reset = await app.fetch('/api/auth/request-password-reset', { method: 'POST', json: { email: account!.email } });
    expect(reset.status).toBe(200);
    // Whatever asks, nothing is queued for that address.
    await app.server.deps.mailer.send({ to: account!.email, subject: 'Reset your password', text: 'x' });
    await settle(300);
    const queued = await jobsOf(app, 'mail.deliver');
    expect(queued.filter((j) => String(j.data.to).endsWith('.invalid'))).toEqual([]);
    expect(app.smtp.mails.filter((m) => m.to.includes('family.invalid'))).toEqual([]);
  });

  it('the switcher: each athlete’s own profile, within the family only', async () => {
    expect(await family(parent.cookie)).toEqual({
      athletes: [
        { id: parent.userId, firstName: 'Jordan', lastName: 'Reyes', dateOfBirth: birthdayAtAge(15), hasHeadshot: false, own: true },
        { id: lilyId, firstName: 'Lily', lastName: 'Reyes', dateOfBirth: lily.birthday, hasHeadshot: false, own: false },
      ],
      activeId: parent.userId,
    });
    expect((await family(as(parent, lilyId))).activeId).toBe(lilyId);
    const profileOf = async (cookie: string) => (await jsonOf<{ firstName: string }>(await app.fetch('/api/profile', { cookie }))).firstName;
    expect(await profileOf(parent.cookie)).toBe('Jordan');
    expect(await profileOf(as(parent, lilyId))).toBe('Lily');
    const switched = await app.fetch('/api/family/active', { method: 'PUT', cookie: parent.cookie, json: { athleteId: lilyId } });
    expect(switched.status).toBe(200);
    expect(switched.headers.getSetCookie().join(';')).toContain(`${ATHLETE_COOKIE}=${lilyId}`);

    // Another family: the cookie naming Lily changes nothing, and no route takes her.
    const other = await createVerifiedUser(app, { fullName: 'Olly Other' });
    expect(await profileOf(as(other, lilyId))).toBe('Olly');
    expect((await family(as(other, lilyId))).athletes.map((a) => a.id)).toEqual([other.userId]);
    const refusedSwitch = await app.fetch('/api/family/active', { method: 'PUT', cookie: other.cookie, json: { athleteId: lilyId } });
    expect(refusedSwitch.status).toBe(404);
    expect(await jsonOf(refusedSwitch)).toEqual({ code: 'NOT_FOUND', message: FAMILY.notYourAthlete });
    const refusedErase = await app.fetch(`/api/family/athletes/${lilyId}/erase`, { method: 'POST', cookie: other.cookie, json: { password: other.password, understood: true } });
    expect(refusedErase.status).toBe(404);
    expect(await requestRows(lilyId)).toEqual([]);
    // A visitor.
    const visitor = await app.fetch('/api/family');
    expect(visitor.status).toBe(401);
    expect((await jsonOf(visitor)).message).toBe(AUTH_REQUIRED.description);
  });

  it('each athlete asks for two events at once; every mail greets the parent and names the athlete', async () => {
    for (const [cookie, eventId] of [
      [as(parent, lilyId), AUSTIN],
      [as(parent, lilyId), CHICAGO],
      [parent.cookie, AUSTIN],
      [parent.cookie, CHICAGO],
    ] as const) {
      const res = await app.fetch('/api/requests', { method: 'POST', cookie, json: { eventId, games: GAMES[eventId] } });
      expect(res.status, `${eventId} ${await res.clone().text()}`).toBe(201);
    }
    expect((await requestRows(lilyId)).map((r) => r.eventId).sort()).toEqual([AUSTIN, CHICAGO]);
    expect((await requestRows(parent.userId)).map((r) => r.eventId).sort()).toEqual([AUSTIN, CHICAGO]);
    const received = await eventually(async () => {
      const mails = app.smtp.mails.filter((m) => m.to.includes(parent.email.toLowerCase()) && m.subject === 'We have your highlight reel request');
      return mails.length === 4 && mails;
    });
    expect(received.every((m) => m.text.startsWith('Hi Maria,'))).toBe(true);
    // Each opens the dashboard on the athlete it is about.
    expect(received.filter((m) => m.text.includes("Lily's highlight reel") && m.text.includes(`/dashboard?athlete=${lilyId}`))).toHaveLength(2);
    expect(received.filter((m) => m.text.includes("Jordan's highlight reel"))).toHaveLength(2);
  });

  it('Lily’s reel is bought and delivered: the receipt greets the parent; only Lily’s dashboard shows it', async () => {
    const [request] = (await requestRows(lilyId)).filter((r) => r.eventId === AUSTIN);
    expect((await app.fetch(`/api/admin/requests/${request!.id}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    const paid = await app.fetch('/api/checkout', { method: 'POST', cookie: as(parent, lilyId), json: { requestId: request!.id, promoCode: 'FAMILYFREE' } });
    expect(paid.status).toBe(200);
    const receipt = await app.smtp.waitFor(parent.email, 'order is confirmed');
    expect(receipt.text).toContain('Hi Maria,');
    expect(receipt.text).toContain("Your order of Lily's highlight reel is confirmed.");
    expect((await app.fetch(`/api/admin/requests/${request!.id}/deliver`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);

    const listed = async (cookie: string) => jsonOf<Array<{ id: string; status: string }>>(await app.fetch('/api/requests', { cookie }));
    expect((await listed(as(parent, lilyId))).find((r) => r.id === request!.id)?.status).toBe('delivered');
    expect((await listed(parent.cookie)).some((r) => r.id === request!.id)).toBe(false);
  });

  it('the admin’s users list shows each athlete with its family; View as User on the added athlete opens the family on her', async () => {
    const list = await jsonOf<{ users: Array<{ id: string; firstName: string; email: string; family: unknown }> }>(
      await app.fetch(`/api/admin/users?q=${encodeURIComponent(parent.email)}`, { cookie: admin.cookie }),
    );
    const family = { holderId: parent.userId, holderName: 'Maria Reyes', athletes: 2 };
    expect(list.users.map((u) => [u.firstName, u.email, u.family])).toEqual([
      ['Jordan', parent.email.toLowerCase(), family],
      ['Lily', parent.email.toLowerCase(), family],
    ]);
    const started = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: lilyId } });
    expect(started.status).toBe(200);
    const viewing = cookiesFrom(started);
    expect(await jsonOf(await app.fetch('/api/family', { cookie: viewing }))).toMatchObject({ activeId: lilyId, athletes: [{ id: parent.userId }, { id: lilyId }] });
    await app.fetch('/api/auth/impersonation/stop', { method: 'POST', cookie: viewing });
    // The visit was to the family: its dashboard lists it on either athlete.
    for (const cookie of [parent.cookie, as(parent, lilyId)]) {
      expect((await jsonOf<{ supportVisits: unknown[] }>(await app.fetch('/api/dashboard', { cookie }))).supportVisits).toHaveLength(1);
      expect(await jsonOf<unknown[]>(await app.fetch('/api/profile/support-visits', { cookie }))).toHaveLength(1);
    }
  });

  it('an admin viewing the site as the family sees both athletes and may switch, but not add or remove one', async () => {
    const started = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: parent.userId } });
    expect(started.status).toBe(200);
    const viewing = cookiesFrom(started);
    expect((await family(viewing)).athletes.map((a) => a.firstName)).toEqual(['Jordan', 'Lily']);
    expect((await app.fetch('/api/family/active', { method: 'PUT', cookie: viewing, json: { athleteId: lilyId } })).status).toBe(200);
    const add = await app.fetch('/api/family/athletes', { method: 'POST', cookie: viewing, json: { ...lily, firstName: 'Sneaky' } });
    expect(add.status).toBe(403);
    expect((await jsonOf(add)).message).toBe(FAMILY.familyOnly);
    const remove = await app.fetch(`/api/family/athletes/${lilyId}/erase`, { method: 'POST', cookie: viewing, json: { password: parent.password, understood: true } });
    expect(remove.status).toBe(403);
    expect(await addedTo(parent.userId)).toHaveLength(1);
  });

  it('removing Lily erases her alone, with the parent’s password; the family’s last athlete goes only with the account', async () => {
    const wrong = await app.fetch(`/api/family/athletes/${lilyId}/erase`, { method: 'POST', cookie: parent.cookie, json: { password: 'not-it-123', understood: true } });
    expect(wrong.status).toBe(400);
    expect(await jsonOf(wrong)).toEqual({ code: 'INVALID_PASSWORD', message: CLOSE_ACCOUNT.wrongPassword });
    expect(await addedTo(parent.userId)).toHaveLength(1);

    const removed = await app.fetch(`/api/family/athletes/${lilyId}/erase`, { method: 'POST', cookie: parent.cookie, json: { password: parent.password, understood: true } });
    expect(removed.status).toBe(200);
    expect(await addedTo(parent.userId)).toEqual([]);
    expect(await requestRows(lilyId)).toEqual([]);
    expect(await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, lilyId))).toEqual([]);
    expect(await requestRows(parent.userId)).toHaveLength(2);
    const mail = await app.smtp.waitFor(parent.email, "Lily's profile has been erased");
    expect(mail.text).toContain('Your account and your other athletes are not changed.');
    expect((await family(parent.cookie)).athletes.map((a) => a.firstName)).toEqual(['Jordan']);
    const only = await app.fetch(`/api/family/athletes/${parent.userId}/erase`, { method: 'POST', cookie: parent.cookie, json: { password: parent.password, understood: true } });
    expect(only.status).toBe(409);
    expect(await jsonOf(only)).toEqual({ code: 'ONLY_ATHLETE', message: FAMILY.onlyAthlete });
    expect(await requestRows(parent.userId)).toHaveLength(2);
  });

  it('the account’s own athlete can be erased on its own: the family keeps its other athlete, who then opens the dashboard', async () => {
    const holder = await createVerifiedUser(app, { fullName: 'Kai Lane' });
    await app.db.update(userProfiles).set({ holderName: 'Robin Lane', teamName: 'U16 Owls', jerseyNumber: 5 }).where(eq(userProfiles.id, holder.userId));
    expect((await app.fetch('/api/requests', { method: 'POST', cookie: holder.cookie, json: { eventId: AUSTIN, games: GAMES[AUSTIN] } })).status).toBe(201);
    const added = await app.fetch('/api/family/athletes', { method: 'POST', cookie: holder.cookie, json: { ...lily, firstName: 'Mia', lastName: 'Lane' } });
    const mia = (await jsonOf<{ activeId: string }>(added)).activeId;

    const erased = await app.fetch(`/api/family/athletes/${holder.userId}/erase`, { method: 'POST', cookie: holder.cookie, json: { password: holder.password, understood: true } });
    expect(erased.status).toBe(200);
    expect(await jsonOf(erased)).toEqual({ erased: true, activeId: mia });
    // Kai is gone: his requests, his details; the profile is the holder's alone.
    expect(await requestRows(holder.userId)).toEqual([]);
    const [profile] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, holder.userId));
    expect(profile).toMatchObject({ firstName: 'Robin', lastName: 'Lane', teamName: null, jerseyNumber: null, dateOfBirth: null, avatarUrl: null, guardianConsentAt: null });
    expect(profile!.ownAthleteErasedAt).not.toBeNull();
    expect((await app.smtp.waitFor(holder.email, "Kai's profile has been erased")).text).toContain('Your account and your other athletes are not changed.');
    // Mia opens the dashboard, with or without the switcher's cookie.
    expect(await family(holder.cookie)).toMatchObject({ athletes: [{ id: mia, firstName: 'Mia' }], activeId: mia });
    expect((await jsonOf<{ firstName: string }>(await app.fetch('/api/profile', { cookie: holder.cookie }))).firstName).toBe('Mia');
    expect((await jsonOf<{ firstName: string }>(await app.fetch('/api/profile', { cookie: as(holder, holder.userId) }))).firstName).toBe('Mia');
    // Mia is now the family's last athlete.
    const last = await app.fetch(`/api/family/athletes/${mia}/erase`, { method: 'POST', cookie: holder.cookie, json: { password: holder.password, understood: true } });
    expect(last.status).toBe(409);
    expect(await addedTo(holder.userId)).toHaveLength(1);
  });

  it('closing the account erases the whole family', async () => {
    const holder = await createVerifiedUser(app, { fullName: 'Casey Close' });
    const added = await app.fetch('/api/family/athletes', { method: 'POST', cookie: holder.cookie, json: { ...lily, firstName: 'Rio' } });
    const rio = (await jsonOf<{ activeId: string }>(added)).activeId;
    expect((await app.fetch('/api/requests', { method: 'POST', cookie: as(holder, rio), json: { eventId: AUSTIN, games: GAMES[AUSTIN] } })).status).toBe(201);
    // Closing from Rio's page closes the account, not only Rio.
    const closed = await app.fetch('/api/account/close', { method: 'POST', cookie: as(holder, rio), json: { password: holder.password, understood: true } });
    expect(closed.status).toBe(200);
    expect(await app.db.select().from(user).where(eq(user.id, rio))).toEqual([]);
    expect(await app.db.select().from(user).where(eq(user.id, holder.userId))).toEqual([]);
    expect(await requestRows(rio)).toEqual([]);
  });

  it('an account whose address is not confirmed cannot add an athlete', async () => {
    const res = await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName: 'Una Confirmed', email: 'una.confirmed@example.com', password: 'secret123' } });
    expect(res.status).toBe(201);
    // Signed in only through the confirmation link: without it there is no session, so a visitor's 401.
    const refused = await app.fetch('/api/family/athletes', { method: 'POST', json: lily });
    expect(refused.status).toBe(401);
  });
});

describe('upgrading an install (migration 0020)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  });

  it('every existing account becomes a family of one athlete, nothing lost; an under-13’s consenting parent becomes the holder', async () => {
    const { db, migrate } = await freshDatabase(cleanups, 't_family');
    const before = migrationsUpTo('0019_parental_consent');
    cleanups.push(async () => fs.rmSync(before, { recursive: true, force: true }));
    await migrate(before);
    await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('u-kid', 'Kit Small', 'small@example.com', true), ('u-teen', 'Tess Teen', 'teen@example.com', true)`);
    await db.execute(sql`insert into parental_consents (user_id, parent_name, notice_version, given_at, given_from_email) values ('u-kid', 'Pat Small', '1', now(), 'small@example.com')`);
    await db.execute(sql`insert into highlight_requests (user_id, status, event, games) values ('u-kid', 'pending', 'Spring Cup', '[]'::jsonb), ('u-teen', 'delivered', 'Fall Cup', '[]'::jsonb)`);
    const rows = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: unknown[] }).rows;
    const requestsBefore = await rows(sql`select id, user_id, status from highlight_requests order by user_id`);

    await migrate(migrationsFolder);

    expect(await rows(sql`select id, first_name, family_id, holder_name from user_profiles order by id`)).toEqual([
      { id: 'u-kid', first_name: 'Kit', family_id: null, holder_name: 'Pat Small' },
      { id: 'u-teen', first_name: 'Tess', family_id: null, holder_name: null },
    ]);
    expect(await rows(sql`select id, user_id, status from highlight_requests order by user_id`)).toEqual(requestsBefore);
    // The holder's new address reaches the family's added athletes too.
    await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('u-sib', 'Sam Small', 'athlete-u-sib@family.invalid', true)`);
    await db.execute(sql`update user_profiles set family_id = 'u-kid', email = 'small@example.com' where id = 'u-sib'`);
    await db.execute(sql`update "user" set email = 'small.new@example.com' where id = 'u-kid'`);
    expect(await rows(sql`select id, email from user_profiles where id in ('u-kid', 'u-sib') order by id`)).toEqual([
      { id: 'u-kid', email: 'small.new@example.com' },
      { id: 'u-sib', email: 'small.new@example.com' },
    ]);
  }, 60_000);
});
