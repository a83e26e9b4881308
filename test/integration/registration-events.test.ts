// The registration's Event list (issue 22, item 6): GET /api/account/events shows visitors the
// events the provider runs (names only, rate-limited), and POST /api/account/register takes
// exactly those and "Other", refusing anything else with the field's text before any account.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_EVENT } from '../../src/common/constants';
import { FIELD_ERRORS, rateLimitedText } from '../../src/common/messages';
import { eventGames, events, user, userProfiles } from '../../src/server/db/schema';
import { RATE_RULES } from '../../src/server/http/rate-limit';
import { createVerifiedUser, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { encodeForm, requestFrom, settle } from '../support/http';

const SCALE = 0.1;
const eventsLimit = Math.max(1, Math.round(RATE_RULES.registrationEventsPerIp.limit * SCALE));

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: SCALE });
  // One event the provider runs now, and one it has archived.
  await app.db.insert(events).values([
    { id: 'dallas-spring-2025', name: 'Dallas Spring Shootout', location: 'Dallas, TX', dates: 'Apr 5-6', startsOn: '2025-04-05' },
    { id: 'houston-old-2023', name: 'Houston Classic', location: 'Houston, TX', dates: 'Mar 1', startsOn: '2023-03-01', isActive: false },
  ]);
  await app.db.insert(eventGames).values({ id: 'dallas-sat-1', eventId: 'dallas-spring-2025', label: 'Saturday Court 2: Dallas Heat vs Plano Storm', position: 1 });
});
afterAll(async () => {
  await app?.close();
});

/** Each caller gets its own loopback address, so the limits of one never touch another. */
let nextAddress = 10;
const newAddress = () => `127.0.0.${nextAddress++}`;

const listFrom = (ip: string, cookie?: string) =>
  requestFrom(ip, `${app.url}/api/account/events`, { headers: cookie ? { cookie } : {} });

async function registerFrom(ip: string, event: string | undefined) {
  const n = `${Date.now().toString(36)}${nextAddress}`;
  const email = uniqueEmail('event');
  const form = new FormData();
  const fields: Record<string, string> = {
    firstName: 'Riley', lastName: 'Parent', email, username: `riley_${n}`, password: 'secret12', birthday: '1985-03-02',
    state: 'Texas', city: 'Dallas', teamName: 'Dallas Heat',
  };
  if (event !== undefined) fields.event = event;
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const { body, contentType } = await encodeForm(form);
  const res = await requestFrom(ip, `${app.url}/api/account/register`, { method: 'POST', body, headers: { origin: app.origin, 'content-type': contentType } });
  return { res, email, username: fields.username! };
}

const accountsWith = (email: string) => app.db.select().from(user).where(eq(user.email, email));

describe('GET /api/account/events', () => {
  it('lists the events the provider runs, by id and name only, to a visitor', async () => {
    const res = await listFrom(newAddress());
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // Oldest first, as the dashboard lists them; the archived event is not offered.
    expect(res.json()).toEqual([
      { id: 'austin-fall-league-2024', name: 'Austin Fall League' },
      { id: 'chicago-3v3-2024', name: 'Chicago 3v3' },
      { id: 'dallas-spring-2025', name: 'Dallas Spring Shootout' },
    ]);
    // Nothing about games, teams, places or dates reaches a visitor.
    expect(res.body).not.toMatch(/Court|Dallas Heat|Austin, TX|Oct 18/);
  });

  it('answers a signed-in user the same list', async () => {
    const member = await createVerifiedUser(app);
    const res = await listFrom(newAddress(), member.cookie);
    expect(res.status).toBe(200);
    expect(res.json<Array<{ id: string }>>().map((e) => e.id)).toEqual(['austin-fall-league-2024', 'chicago-3v3-2024', 'dallas-spring-2025']);
  });

  it('is rate-limited per address, with the real wait', async () => {
    const ip = newAddress();
    for (let i = 0; i < eventsLimit; i++) expect((await listFrom(ip)).status).toBe(200);
    const refused = await listFrom(ip);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(refused.json()).toEqual({ code: 'RATE_LIMITED', message: rateLimitedText(wait), retryAfterSeconds: wait });
    // Another address is not held by it.
    expect((await listFrom(newAddress())).status).toBe(200);
  });

  it('answers only GET', async () => {
    const res = await requestFrom(newAddress(), `${app.url}/api/account/events`, { method: 'POST', json: { id: 'x', name: 'Mine' }, headers: { origin: app.origin } });
    expect(res.status).toBe(404);
    expect(await app.db.select().from(events).where(eq(events.id, 'x'))).toHaveLength(0);
  });
});

describe('the registration\'s Event field', () => {
  it('takes every event the list offers, and "Other", storing the choice on the profile', async () => {
    const listed = (await listFrom(newAddress())).json<Array<{ id: string }>>().map((e) => e.id);
    for (const event of [...listed, OTHER_EVENT.value]) {
      const { res, email } = await registerFrom(newAddress(), event);
      expect(res.status, event).toBe(201);
      const { userId } = res.json<{ userId: string }>();
      const [profile] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, userId));
      expect(profile!.eventName).toBe(event);
      expect(await accountsWith(email)).toHaveLength(1);
    }
  });

  it.each([
    ['an archived event', 'houston-old-2023'],
    ['an event that does not exist', 'stria-sport-3x3'],
    ['an event name instead of its id', 'Austin Fall League'],
    ['no event', undefined],
  ])('refuses %s with the field\'s text and makes no account', async (_what, event) => {
    const { res, email, username } = await registerFrom(newAddress(), event);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', message: FIELD_ERRORS.event });
    expect(await accountsWith(email)).toHaveLength(0);
    expect(await app.db.select().from(userProfiles).where(eq(userProfiles.username, username))).toHaveLength(0);
    await settle(100);
    expect(app.smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
  });
});
