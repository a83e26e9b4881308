// The admin users list in one round trip (issue 23): the page, each user's requests and videos
// and the count come from two statements sent together, the list as it opens from prepared ones.
// These pin what the list said when it took five: every field, newest first, the total on a page
// past the end, paid, the latest render, and the team's "nothing found" mark.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appearances, footage, highlightRequests, orders, reelRenders, user, userProfiles } from '../../src/server/db/schema';
import { withVideos } from '../../src/server/admin/users';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertPerson, insertVideo, makeAdmin } from '../support/dashboard-fixtures';

let app: TestApp;
let admin: { cookie: string; userId: string };
const AUSTIN = 'austin-fall-league-2024'; // its footage is added below
const CHICAGO = 'chicago-3v3-2024'; // no footage: its reels are made by hand

interface Listed {
  total: number;
  page: number;
  pageSize: number;
  users: Array<{ id: string; requests: Array<Record<string, unknown>>; videos: Array<Record<string, unknown>> } & Record<string, unknown>>;
}
const list = async (query = '') => {
  const res = await app.fetch(`/api/admin/users?${query}`, { cookie: admin.cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Listed;
};
const userIn = async (id: string, query = '') => (await list(query)).users.find((u) => u.id === id)!;
const requestIn = async (userId: string, requestId: string) => (await userIn(userId)).requests.find((r) => r.id === requestId)!;

async function request(userId: string, values: Partial<typeof highlightRequests.$inferInsert> = {}) {
  const [row] = await app.db.insert(highlightRequests).values({ userId, event: 'Austin Fall League', eventId: AUSTIN, status: 'ready_to_purchase', ...values }).returning();
  return row!.id;
}

let indexedFootage: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Page Admin' });
  await makeAdmin(app, admin.userId);
  const [file] = await app.db
    .insert(footage)
    .values({ eventId: AUSTIN, gameId: 'austin-sat-1', camera: 'Camera 1', sourceKey: `game-footage/${AUSTIN}/a.source`, sizeBytes: 1, indexState: 'indexed' })
    .returning();
  indexedFootage = file!.id;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('the users list, issue 23', () => {
  it('has every field of a user, request and video, in order, requests and videos newest first, opened or searched', async () => {
    const createdAt = new Date('2024-10-01T12:00:00.123Z');
    const id = await insertPerson(app, { firstName: 'Nora', lastName: 'Newest', email: 'nora.newest@example.com', phone: '512-555-0101', createdAt });
    const older = await request(id, { status: 'pending', games: ['Saturday Court 1: Semifinal'], createdAt: new Date('2024-10-02T08:00:00.001Z') });
    const newer = await request(id, { eventId: CHICAGO, event: 'Chicago 3v3', games: [], createdAt: new Date('2024-10-03T08:00:00.999Z') });
    const oldVideo = (await insertVideo(app, id, { videoTitle: 'First', videoType: 'full_video', createdAt: new Date('2024-10-04T00:00:00.500Z'), requestId: older }, { bytes: null })).id;
    const newVideo = (await insertVideo(app, id, { videoTitle: 'Second', isPaid: false, processingState: 'processing', processingProgress: 40, createdAt: new Date('2024-10-05T00:00:00.000Z') }, { bytes: null })).id;

    const expected = {
      id,
      firstName: 'Nora',
      lastName: 'Newest',
      email: 'nora.newest@example.com',
      phone: '512-555-0101',
      createdAt: '2024-10-01T12:00:00.123Z',
      requests: [
        { id: newer, status: 'ready_to_purchase', event: 'Chicago 3v3', games: [], createdAt: '2024-10-03T08:00:00.999Z', paid: false, fromFootage: false, renderState: null, nothingFound: false },
        { id: older, status: 'pending', event: 'Austin Fall League', games: ['Saturday Court 1: Semifinal'], createdAt: '2024-10-02T08:00:00.001Z', paid: false, fromFootage: true, renderState: null, nothingFound: false },
      ],
      videos: [
        { id: newVideo, title: 'Second', videoType: 'highlight_reel', createdAt: '2024-10-05T00:00:00.000Z', isPaid: false, isVisible: true, requestId: null, processingState: 'processing', processingProgress: 40, processingError: null },
        { id: oldVideo, title: 'First', videoType: 'full_video', createdAt: '2024-10-04T00:00:00.500Z', isPaid: true, isVisible: true, requestId: older, processingState: 'ready', processingProgress: null, processingError: null },
      ],
    };
    // The list as it opens (prepared), and searched (built for the search).
    for (const query of ['', 'q=nora.newest', 'filters=submitted']) {
      const user = await userIn(id, query);
      expect(user, query).toEqual(expected);
      expect(Object.keys(user), query).toEqual(Object.keys(expected));
      expect(Object.keys(user.requests[0]!), query).toEqual(Object.keys(expected.requests[0]!));
      expect(Object.keys(user.videos[0]!), query).toEqual(Object.keys(expected.videos[0]!));
    }
  });

  it('a page past the end is empty and still gives the total, opened, searched and filtered', async () => {
    await insertPerson(app, { firstName: 'Pat', lastName: 'Pastend', email: 'pat.pastend@example.com' });
    for (const query of ['', 'q=example.com', 'filters=approved', 'q=pastend']) {
      const first = await list(query);
      expect(first.total, query).toBeGreaterThan(0);
      const far = await list(`${query}&page=50`);
      expect(far, query).toEqual({ total: first.total, page: 50, pageSize: 25, users: [] });
    }
    expect(await list('q=no-one-is-called-this&page=2')).toEqual({ total: 0, page: 2, pageSize: 25, users: [] });
  });

  it('paid only for a completed order; the render state is the latest render, whatever its state', async () => {
    const id = await insertPerson(app, { firstName: 'Rhea', lastName: 'Renders' });
    const pendingOrder = await request(id);
    await app.db.insert(orders).values({ userId: id, requestId: pendingOrder, amount: 4900, status: 'pending', provider: 'local' });
    await app.db.insert(reelRenders).values({ requestId: pendingOrder, state: 'ready', clips: [], previewKey: 'x/preview.mp4', createdAt: new Date(Date.now() - 60_000) });
    await app.db.insert(reelRenders).values({ requestId: pendingOrder, state: 'failed', clips: [] });
    expect(await requestIn(id, pendingOrder)).toMatchObject({ paid: false, fromFootage: true, renderState: 'failed' });

    await app.db.insert(orders).values({ userId: id, requestId: pendingOrder, amount: 4900, status: 'completed', provider: 'local', completedAt: new Date() });
    expect(await requestIn(id, pendingOrder)).toMatchObject({ paid: true, renderState: 'failed' });
  });

  it('nothing found: matching finished without a clip and no footage waits; not once delivered, with a clip, while matching, or without footage', async () => {
    const person = (lastName: string) => insertPerson(app, { firstName: 'Nat', lastName });
    const cases: Array<[string, string, boolean]> = [];
    const add = async (name: string, values: Partial<typeof highlightRequests.$inferInsert>, expected: boolean) => {
      const userId = await person(name);
      cases.push([userId, await request(userId, values), expected]);
    };
    await add('Nowhere', { matchingState: 'ready' }, true);
    await add('Noreference', { matchingState: 'no_reference' }, true);
    await add('Delivered', { matchingState: 'ready', status: 'delivered' }, false);
    await add('Stillmatching', { matchingState: 'matching' }, false);
    await add('Noconsent', { matchingState: 'no_consent' }, false);
    await add('Nevermatched', { matchingState: null }, false);
    await add('Byhand', { matchingState: 'ready', eventId: CHICAGO, event: 'Chicago 3v3' }, false);
    await add('Clipped', { matchingState: 'ready' }, false);
    const [, clipped] = cases.at(-1)!;
    await app.db.insert(appearances).values({ requestId: clipped, footageId: indexedFootage, gameId: 'austin-sat-1', camera: 'Camera 1', startS: 1, endS: 5, confidence: 0.9, distance: 0.3, faceHeight: 80, rank: 1 });

    const marks = async () => Promise.all(cases.map(async ([userId, requestId]) => (await requestIn(userId, requestId)).nothingFound));
    expect(await marks()).toEqual(cases.map(([, , expected]) => expected));

    // A file of the event still to be indexed may find the athlete yet: nothing is "not found".
    await app.db.insert(footage).values({ eventId: AUSTIN, gameId: 'austin-sat-2', camera: 'Camera 1', sourceKey: `game-footage/${AUSTIN}/b.source`, sizeBytes: 1, indexState: 'queued' });
    expect(await marks()).toEqual(cases.map(() => false));
  });

  it('the total as the list opens is the number of profiles, through sign-ups, set-based inserts, deletions and concurrent sign-ups', async () => {
    const counted = async () => (await app.db.select({ n: sql<number>`count(*)::int` }).from(userProfiles))[0]!.n;
    const total = async () => (await list()).total;
    expect(await total()).toBe(await counted());
    // One through the real sign-up, a hundred in one statement (as an import would), then a user
    // deleted (the profile goes by the foreign key's cascade) and a hundred in one statement.
    const signedUp = await createVerifiedUser(app, { fullName: 'Cora Counted' });
    const many = Array.from({ length: 100 }, (_, i) => ({ id: `counted-${Date.now().toString(36)}-${i}`, name: `Counted ${i}`, email: `counted.${i}.${Date.now()}@example.com`, emailVerified: true }));
    await app.db.insert(user).values(many);
    expect(await total()).toBe(await counted());
    await app.db.delete(user).where(eq(user.id, signedUp.userId));
    await app.db.delete(user).where(inArray(user.id, many.map((u) => u.id)));
    expect(await total()).toBe(await counted());
    // Ten at once, each in its own statement and transaction: none is lost on the one row.
    await Promise.all(Array.from({ length: 10 }, (_, i) => insertPerson(app, { firstName: 'Concurrent', lastName: `Signup ${i}` })));
    expect(await total()).toBe(await counted());
    // A search still counts what it finds.
    expect((await list('q=concurrent')).total).toBe(10);
  });

  it('a profile the videos statement missed (the page moved between the two) gets its videos read again', async () => {
    const id = await insertPerson(app, { firstName: 'Mia', lastName: 'Missed' });
    const video = (await insertVideo(app, id, { videoTitle: 'Read again', createdAt: new Date('2024-11-01T10:00:00.250Z') }, { bytes: null })).id;
    const other = await insertPerson(app, { firstName: 'Oli', lastName: 'Other' });
    const people = [
      { id, json: `{"id":"${id}"}` },
      { id: other, json: `{"id":"${other}"}` },
    ];
    const stitched = (await withVideos(app.db, people, [{ id: other, json: '[]' }])).map((text) => JSON.parse(text));
    expect(stitched[0]).toMatchObject({ id, videos: [{ id: video, title: 'Read again', createdAt: '2024-11-01T10:00:00.250Z' }] });
    expect(stitched[1]).toEqual({ id: other, videos: [] });
  });
});
