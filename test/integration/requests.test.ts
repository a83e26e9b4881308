// Highlight-reel requests: the events on offer (GET /api/events), submitting a request
// (POST /api/requests) with its rules, the team's notification and the family's confirmation with
// the price, and listing one's own.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED } from '../../src/common/messages';
import { REQUEST } from '../../src/common/dashboard-messages';
import { COMPANY } from '../../src/common/company';
import { REEL_PRICE_CENTS } from '../../src/common/constants';
import { PRICES } from '../../src/common/prices';
import { highlightRequests } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { jsonOf, settle } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
interface EventBody {
  id: string;
  name: string;
  location: string;
  dates: string;
  games: Array<{ id: string; label: string }>;
}
interface RequestBody {
  id: string;
  status: string;
  eventId: string;
  event: string;
  games: string[];
}

const AUSTIN = 'austin-fall-league-2024';
const CHICAGO = 'chicago-3v3-2024';

let app: TestApp;
let events: EventBody[];
let austin: EventBody;
let chicago: EventBody;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  const family = await createVerifiedUser(app);
  events = await jsonOf<EventBody[]>(await app.fetch('/api/events', { cookie: family.cookie }));
  austin = events.find((e) => e.id === AUSTIN)!;
  chicago = events.find((e) => e.id === CHICAGO)!;
});
afterAll(async () => {
  await app?.close();
});

const submit = (user: User | undefined, json: unknown) => app.fetch('/api/requests', { method: 'POST', json, cookie: user?.cookie });
const rowsOf = (userId: string) => app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, userId));
const teamMails = (name: string) => app.smtp.mails.filter((m) => m.to.includes(COMPANY.teamInbox) && m.subject.includes(`Highlight reel request: ${name}`));

async function expectRefused(user: User, json: unknown, status: number, code: string, message: string, title?: string) {
  const res = await submit(user, json);
  expect(res.status).toBe(status);
  const body = await jsonOf(res);
  expect(body).toMatchObject({ code, message });
  if (title) expect(body.title).toBe(title);
}

describe('GET /api/events', () => {
  it('is refused to a visitor with 401: the games and their matchups are for signed-in families', async () => {
    const res = await app.fetch('/api/events');
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description });
  });

  it('lists the two seeded events: Austin with its ten games in order, Chicago with none', async () => {
    expect(events.map((e) => e.id)).toEqual([AUSTIN, CHICAGO]);
    expect(austin).toMatchObject({ name: 'Austin Fall League', location: 'Austin, TX', dates: 'Oct 18-19' });
    expect(austin.games).toHaveLength(10);
    expect(austin.games.map((g) => g.id)).toEqual([
      'austin-sat-1', 'austin-sat-2', 'austin-sat-3', 'austin-sat-4', 'austin-sat-5',
      'austin-sun-1', 'austin-sun-2', 'austin-sun-3', 'austin-sun-4', 'austin-sun-5',
    ]);
    expect(austin.games.slice(0, 5).every((g) => g.label.startsWith('Saturday Court 1: '))).toBe(true);
    expect(austin.games.slice(5).every((g) => g.label.startsWith('Sunday Court 1: '))).toBe(true);
    expect(chicago).toMatchObject({ location: 'Chicago, IL' });
    expect(chicago.games).toEqual([]);
  });
});

describe('POST /api/requests', () => {
  it('is refused to a visitor with 401', async () => {
    const res = await submit(undefined, { eventId: CHICAGO, games: [] });
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
  });

  it('refuses a request without an event (Event Required) and stores nothing', async () => {
    const user = await createVerifiedUser(app);
    for (const body of [{}, { eventId: '' }, { eventId: 42 }, { games: ['austin-sat-1'] }, null, []]) {
      await expectRefused(user, body, 400, 'EVENT_REQUIRED', REQUEST.eventRequired.description, REQUEST.eventRequired.title);
    }
    const notJson = await app.fetch('/api/requests', {
      method: 'POST',
      cookie: user.cookie,
      headers: { 'content-type': 'application/json' },
      body: 'eventId=austin',
    });
    expect(notJson.status).toBe(400);
    expect(await jsonOf(notJson)).toMatchObject({ code: 'EVENT_REQUIRED', message: REQUEST.eventRequired.description });
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('refuses games that are not a list of ids, storing nothing', async () => {
    const user = await createVerifiedUser(app);
    for (const games of ['austin-sat-1', [1, 2], ['']]) {
      const res = await submit(user, { eventId: AUSTIN, games });
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).code).toBe('VALIDATION_ERROR');
    }
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('refuses Austin without games (Games Required) and stores nothing', async () => {
    const user = await createVerifiedUser(app);
    await expectRefused(user, { eventId: AUSTIN, games: [] }, 400, 'GAMES_REQUIRED', REQUEST.gamesRequired.description, REQUEST.gamesRequired.title);
    await expectRefused(user, { eventId: AUSTIN }, 400, 'GAMES_REQUIRED', REQUEST.gamesRequired.description, REQUEST.gamesRequired.title);
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('accepts Chicago without games', async () => {
    const user = await createVerifiedUser(app, { fullName: 'Morgan Chi' });
    const res = await submit(user, { eventId: CHICAGO });
    expect(res.status).toBe(201);
    const body = await jsonOf<RequestBody>(res);
    expect(body).toMatchObject({ status: 'pending', eventId: CHICAGO, games: [] });
    expect(body.event).toContain(chicago.name);
    const [row] = await rowsOf(user.userId);
    expect(row).toMatchObject({ id: body.id, status: 'pending', eventId: CHICAGO, games: [] });
  });

  it('refuses an unknown event and a game that is not part of the event, storing nothing', async () => {
    const user = await createVerifiedUser(app);
    await expectRefused(user, { eventId: 'boston-2024', games: [] }, 400, 'UNKNOWN_EVENT', REQUEST.unknownEvent);
    await expectRefused(user, { eventId: CHICAGO, games: ['austin-sat-1'] }, 400, 'UNKNOWN_GAME', REQUEST.unknownGame);
    await expectRefused(user, { eventId: AUSTIN, games: ['austin-sat-1', 'chicago-final'] }, 400, 'UNKNOWN_GAME', REQUEST.unknownGame);
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('stores the game labels and mails the team the athlete, the event and each game', async () => {
    const user = await createVerifiedUser(app, { fullName: 'Riley Parker' });
    const chosen = [austin.games[3]!, austin.games[0]!, austin.games[9]!];
    const res = await submit(user, { eventId: AUSTIN, games: [...chosen.map((g) => g.id), chosen[0]!.id] });
    expect(res.status).toBe(201);
    const body = await jsonOf<RequestBody>(res);
    const labels = chosen.map((g) => g.label);
    expect(body).toMatchObject({ status: 'pending', eventId: AUSTIN, games: labels });

    const [row] = await rowsOf(user.userId);
    expect(row).toMatchObject({ id: body.id, status: 'pending', eventId: AUSTIN, games: labels, adminAcknowledgedAt: null });
    expect(row!.event).toContain('Austin Fall League');

    const mail = await app.smtp.waitFor(COMPANY.teamInbox, 'Highlight reel request: Riley Parker');
    expect(mail.text).toContain('Riley Parker');
    expect(mail.text).toContain(user.email);
    expect(mail.text).toContain('Austin Fall League');
    for (const label of labels) expect(mail.text).toContain(label);
    for (const g of austin.games.filter((x) => !chosen.includes(x))) expect(mail.text).not.toContain(g.label);
    expect(mail.replyTo).toContain(user.email);
  });

  it('mails the family that their request arrived: what they asked for, what happens next and the price, before any payment', async () => {
    const user = await createVerifiedUser(app, { fullName: 'Morgan Price' });
    const res = await submit(user, { eventId: AUSTIN, games: [austin.games[1]!.id] });
    expect(res.status).toBe(201);
    const mail = await app.smtp.waitFor(user.email, 'We have your highlight reel request');
    expect(mail.text).toContain('Hi Morgan,');
    expect(mail.text).toContain(`from Austin Fall League`);
    expect(mail.text).toContain(austin.games[1]!.label);
    expect(mail.text).toContain('You pay nothing before then.');
    expect(mail.text).toContain(PRICES.mail);
    expect(mail.text).toContain(`$${REEL_PRICE_CENTS / 100}`);
    expect(mail.text).toContain('/dashboard');
    expect(mail.replyTo).toContain(COMPANY.email);

    // A refused request (the same event again) mails neither the family nor the team again.
    await expectRefused(user, { eventId: AUSTIN, games: [austin.games[2]!.id] }, 409, 'ALREADY_OPEN', REQUEST.alreadyOpen);
    await settle(300);
    expect(app.smtp.mails.filter((m) => m.to.includes(user.email) && m.subject === 'We have your highlight reel request')).toHaveLength(1);
    expect(teamMails('Morgan Price')).toHaveLength(1);
  });

  it('refuses a second open request for the same event (409) until the first is delivered', async () => {
    const user = await createVerifiedUser(app, { fullName: 'Sam Twice' });
    const first = await submit(user, { eventId: AUSTIN, games: ['austin-sat-2'] });
    expect(first.status).toBe(201);
    const { id } = await jsonOf<RequestBody>(first);

    await expectRefused(user, { eventId: AUSTIN, games: ['austin-sun-2'] }, 409, 'ALREADY_OPEN', REQUEST.alreadyOpen);
    // ready_to_purchase is still open.
    await app.db.update(highlightRequests).set({ status: 'ready_to_purchase' }).where(eq(highlightRequests.id, id));
    await expectRefused(user, { eventId: AUSTIN, games: ['austin-sun-2'] }, 409, 'ALREADY_OPEN', REQUEST.alreadyOpen);
    expect(await rowsOf(user.userId)).toHaveLength(1);

    // Another event is a separate request.
    expect((await submit(user, { eventId: CHICAGO })).status).toBe(201);

    await app.db.update(highlightRequests).set({ status: 'delivered' }).where(eq(highlightRequests.id, id));
    const again = await submit(user, { eventId: AUSTIN, games: ['austin-sun-2'] });
    expect(again.status).toBe(201);
    const austinRows = await app.db
      .select()
      .from(highlightRequests)
      .where(and(eq(highlightRequests.userId, user.userId), eq(highlightRequests.eventId, AUSTIN)));
    expect(austinRows.map((r) => r.status).sort()).toEqual(['delivered', 'pending']);
  });

  it('lets only one of two concurrent submits for the same event through', async () => {
    const user = await createVerifiedUser(app, { fullName: 'Quinn Racer' });
    const results = await Promise.all([
      submit(user, { eventId: AUSTIN, games: ['austin-sat-1'] }),
      submit(user, { eventId: AUSTIN, games: ['austin-sat-3'] }),
      submit(user, { eventId: AUSTIN, games: ['austin-sat-4'] }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(await jsonOf(r)).toMatchObject({ code: 'ALREADY_OPEN', message: REQUEST.alreadyOpen });
    }
    expect(await rowsOf(user.userId)).toHaveLength(1);
    await settle(300);
    expect(teamMails('Quinn Racer')).toHaveLength(1);
  });
});

describe('GET /api/requests', () => {
  it("returns only the caller's requests, newest first", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const a1 = await jsonOf<RequestBody>(await submit(a, { eventId: CHICAGO }));
    await settle(20);
    const a2 = await jsonOf<RequestBody>(await submit(a, { eventId: AUSTIN, games: ['austin-sun-5'] }));
    const b1 = await jsonOf<RequestBody>(await submit(b, { eventId: CHICAGO }));

    const res = await app.fetch('/api/requests', { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const list = await jsonOf<RequestBody[]>(res);
    expect(list.map((r) => r.id)).toEqual([a2.id, a1.id]);
    expect(list[0]).toMatchObject({ eventId: AUSTIN, status: 'pending', games: [austin.games[9]!.label] });

    const theirs = await jsonOf<RequestBody[]>(await app.fetch('/api/requests', { cookie: b.cookie }));
    expect(theirs.map((r) => r.id)).toEqual([b1.id]);

    expect((await app.fetch('/api/requests')).status).toBe(401);
  });
});
