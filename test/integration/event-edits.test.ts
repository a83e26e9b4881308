// An admin's change to an event or a game must name something to change: an empty one (or one of
// fields that do not exist) is a 400 with the form's message and changes nothing, never a 500
// (found by the trust suite's fuzzing). Who may change them at all: admins only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventGames, events } from '../../src/server/db/schema';
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
