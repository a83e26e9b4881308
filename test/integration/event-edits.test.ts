// An admin's change to an event or a game must name something to change: an empty one (or one of
// fields that do not exist) is a 400 with the form's message and changes nothing, never a 500
// (found by the trust suite's fuzzing). Who may change them at all: admins only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOOTAGE } from '../../src/common/admin-messages';
import { eventGames, events, footage } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

const EVENT = 'austin-fall-league-2024';
const GAME = 'austin-sat-1';
let app: TestApp;
let admin: { cookie: string; userId: string };
let member: { cookie: string; userId: string };

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Edit Admin' });
  await makeAdmin(app, admin.userId);
  member = await createVerifiedUser(app, { fullName: 'Plain Parent' });
});
afterAll(() => app?.close());

const snapshot = async () => ({
  event: (await app.db.select().from(events).where(eq(events.id, EVENT)))[0],
  game: (await app.db.select().from(eventGames).where(eq(eventGames.id, GAME)))[0],
});

describe('changing an event or a game', () => {
  it('an empty change or one of unknown fields is refused with the form’s message, and nothing changes', async () => {
    const before = await snapshot();
    for (const json of [{}, { colour: 'red' }, { archived: undefined }]) {
      const event = await app.fetch(`/api/admin/events/${EVENT}`, { method: 'PATCH', json, cookie: admin.cookie });
      expect(event.status).toBe(400);
      expect(await jsonOf(event)).toEqual({ code: 'VALIDATION_ERROR', message: 'Name, location and dates are required.' });
      const game = await app.fetch(`/api/admin/games/${GAME}`, { method: 'PATCH', json, cookie: admin.cookie });
      expect(game.status).toBe(400);
      expect(await jsonOf(game)).toEqual({ code: 'VALIDATION_ERROR', message: 'A game needs a name.' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a real change is saved; a family and a visitor cannot change anything', async () => {
    const game = await app.fetch(`/api/admin/games/${GAME}`, { method: 'PATCH', json: { court: 'Court 9' }, cookie: admin.cookie });
    expect(game.status).toBe(200);
    expect((await snapshot()).game?.court).toBe('Court 9');
    const before = await snapshot();
    for (const cookie of [member.cookie, undefined]) {
      const res = await app.fetch(`/api/admin/games/${GAME}`, { method: 'PATCH', json: { court: 'Court 1' }, cookie });
      expect([401, 403]).toContain(res.status);
      const ev = await app.fetch(`/api/admin/events/${EVENT}`, { method: 'PATCH', json: { name: 'Taken' }, cookie });
      expect([401, 403]).toContain(ev.status);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('an event’s days as dates (issue 36 item 2)', () => {
  const create = (json: unknown) => app.fetch('/api/admin/events', { method: 'POST', json, cookie: admin.cookie });
  const patch = (id: string, json: unknown) => app.fetch(`/api/admin/events/${id}`, { method: 'PATCH', json, cookie: admin.cookie });
  const row = async (id: string) => (await app.db.select().from(events).where(eq(events.id, id)))[0]!;

  it('writes the families’ dates from the first and last day, and again when a day changes', async () => {
    const res = await create({ name: 'Spring Cup', location: 'Austin, TX', startsOn: '2027-03-30', endsOn: '2027-04-02' });
    expect(res.status).toBe(201);
    const { id } = await jsonOf<{ id: string }>(res);
    expect(await row(id)).toMatchObject({ startsOn: '2027-03-30', endsOn: '2027-04-02', dates: 'Mar 30 - Apr 2, 2027' });
    expect((await patch(id, { endsOn: '2027-03-31' })).status).toBe(200);
    expect((await row(id)).dates).toBe('Mar 30-31, 2027');
    expect((await patch(id, { startsOn: '2027-03-31', endsOn: null })).status).toBe(200);
    expect((await row(id)).dates).toBe('Mar 31, 2027');
    // A name alone leaves the days.
    expect((await patch(id, { name: 'Spring Cup 2027' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ name: 'Spring Cup 2027', dates: 'Mar 31, 2027' });
    const listed = await jsonOf<Array<{ id: string; startsOn: string; endsOn: string | null }>>(await app.fetch('/api/admin/events', { cookie: admin.cookie }));
    expect(listed.find((e) => e.id === id)).toMatchObject({ startsOn: '2027-03-31', endsOn: null });
  });

  it('refuses days out of order or not days, with their words, and changes nothing', async () => {
    const { id } = await jsonOf<{ id: string }>(await create({ name: 'Fall Jam', location: 'Waco, TX', startsOn: '2027-10-02', endsOn: '2027-10-03' }));
    const before = await row(id);
    const cases: Array<[unknown, string]> = [
      [{ endsOn: '2027-10-01' }, FOOTAGE.lastDayBeforeFirst],
      [{ startsOn: '2027-10-05' }, FOOTAGE.lastDayBeforeFirst],
      [{ startsOn: '2027-02-30' }, FOOTAGE.eventDayInvalid],
      [{ endsOn: 'next Sunday' }, FOOTAGE.eventDayInvalid],
    ];
    for (const [json, message] of cases) {
      const res = await patch(id, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await jsonOf(res)).message).toBe(message);
    }
    expect(await row(id)).toEqual(before);
    for (const [json, message] of [
      [{ name: 'X', location: 'Y', startsOn: '2027-05-02', endsOn: '2027-05-01' }, FOOTAGE.lastDayBeforeFirst],
      [{ name: 'X', location: 'Y', endsOn: '2027-05-01' }, FOOTAGE.eventNeedsFields],
      [{ name: 'X', location: 'Y' }, FOOTAGE.eventNeedsFields],
    ] as const) {
      const res = await create(json);
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(message);
    }
  });
});

describe('renaming a camera after its upload', () => {
  const rename = (id: string, json: unknown, cookie: string | undefined = admin.cookie) => app.fetch(`/api/admin/footage/${id}`, { method: 'PATCH', json, cookie });
  const cameras = async () => (await app.db.select().from(footage).where(eq(footage.gameId, GAME))).map((f) => f.camera).sort();

  it('renames within the game, never to a name another camera of the game has; admins only', async () => {
    const [a, b] = await app.db
      .insert(footage)
      .values(['Camera 1', 'Camera 2'].map((camera) => ({ eventId: EVENT, gameId: GAME, camera, sourceKey: `game-footage/${EVENT}/${camera}.source`, sizeBytes: 1, indexState: 'indexed' })))
      .returning();
    const res = await rename(a!.id, { camera: 'Baseline left' });
    expect(res.status).toBe(200);
    expect((await jsonOf<{ camera: string }>(res)).camera).toBe('Baseline left');
    const taken = await rename(b!.id, { camera: '  baseline   LEFT ' });
    expect(taken.status).toBe(409);
    expect((await jsonOf(taken)).message).toBe(FOOTAGE.cameraTaken('Baseline left', 'Camera 1'));
    for (const json of [{ camera: '' }, { camera: 'x'.repeat(61) }, {}, { camera: 'Ok', extra: 1 }]) expect((await rename(b!.id, json)).status).toBe(400);
    expect((await rename('00000000-0000-4000-8000-000000000000', { camera: 'Nope' })).status).toBe(404);
    expect([401, 403]).toContain((await rename(b!.id, { camera: 'Mine' }, member.cookie)).status);
    expect([401, 403]).toContain((await rename(b!.id, { camera: 'Mine' }, '')).status);
    expect(await cameras()).toEqual(['Baseline left', 'Camera 2']);
  });
});
