// The admin users list in one round trip (issue 23): the page, each user's requests and videos
// and the count come from two statements sent together, the list as it opens from prepared ones.
// These pin what the list said when it took five: every field, newest first, the total on a page
// past the end, paid, the latest render, and the team's "nothing found" mark.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appearances, events, footage, highlightRequests, orders, reelRenders, user, userProfiles, userVideos } from '../../src/server/db/schema';
import { withVideos } from '../../src/server/admin/users';
import { queryRows } from '../../src/server/db/client';
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
      // An account of one athlete (decision 0036).
      family: null,
      requests: [
        { id: newer, status: 'ready_to_purchase', event: 'Chicago 3v3', games: [], createdAt: '2024-10-03T08:00:00.999Z', paid: false, fromFootage: false, renderState: null, nothingFound: false, handPick: false },
        { id: older, status: 'pending', event: 'Austin Fall League', games: ['Saturday Court 1: Semifinal'], createdAt: '2024-10-02T08:00:00.001Z', paid: false, fromFootage: true, renderState: null, nothingFound: false, handPick: false },
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

  it('the filters read tallies the database keeps: equal to a recount through inserts, status changes, moves, deletions and concurrent changes', async () => {
    const tallied = () => queryRows(app.db, sql`SELECT user_id, pending, ready_to_purchase, delivered, videos FROM user_list_tallies ORDER BY user_id`);
    // What the tallies must say, counted afresh: a row only for a user with a request or a video.
    const recounted = () =>
      queryRows(app.db, sql`SELECT user_id, sum(pending)::int AS pending, sum(ready)::int AS ready_to_purchase, sum(delivered)::int AS delivered, sum(videos)::int AS videos
        FROM (SELECT user_id, (status = 'pending')::int AS pending, (status = 'ready_to_purchase')::int AS ready, (status = 'delivered')::int AS delivered, 0 AS videos FROM highlight_requests
              UNION ALL SELECT user_id, 0, 0, 0, 1 FROM user_videos) AS held
        GROUP BY user_id ORDER BY user_id`);
    const same = async (step: string) => expect(await tallied(), step).toEqual(await recounted());
    const found = async (id: string, filter: string) => (await list(`filters=${filter}&q=${encodeURIComponent(id)}`)).users.some((u) => u.id === id);
    await same('as the tests before left it');
    // Events of their own: a user may have one open request per event.
    const eventIds = Array.from({ length: 13 }, (_, i) => `tally-event-${i}`);
    await app.db.insert(events).values(eventIds.map((id) => ({ id, name: id, location: 'Austin, TX', dates: 'Oct 18-19' })));

    const ann = await insertPerson(app, { firstName: 'Ann', lastName: 'Tally' });
    const ben = await insertPerson(app, { firstName: 'Ben', lastName: 'Tally' });
    expect(await found(ann, 'submitted')).toBe(false);
    // Three requests in one statement, then one at a time.
    const [first, second] = await app.db
      .insert(highlightRequests)
      .values([0, 1, 2].map((i) => ({ userId: ann, event: `Tally Cup ${i}`, eventId: eventIds[i]!, status: 'pending' as const })))
      .returning({ id: highlightRequests.id });
    await request(ben, { status: 'pending' });
    await same('requests inserted');
    expect(await found(ann, 'submitted')).toBe(true);
    expect(await found(ann, 'approved')).toBe(false);
    // An update that changes neither status nor owner, one that changes the status of two rows
    // at once, and one that gives a request to another user.
    await app.db.update(highlightRequests).set({ games: ['Saturday Court 2: Final'] }).where(eq(highlightRequests.userId, ann));
    await app.db.update(highlightRequests).set({ status: 'ready_to_purchase' }).where(inArray(highlightRequests.id, [first!.id, second!.id]));
    await same('statuses changed');
    expect(await found(ann, 'approved')).toBe(true);
    await app.db.update(highlightRequests).set({ userId: ben }).where(eq(highlightRequests.id, second!.id));
    await same('a request moved to another user');
    // Videos: two in one statement, one moved, one deleted.
    const annVideo = (await insertVideo(app, ann, { videoTitle: 'Tally one' }, { bytes: null })).id;
    await insertVideo(app, ann, { videoTitle: 'Tally two' }, { bytes: null });
    await app.db.update(userVideos).set({ processingProgress: 50 }).where(eq(userVideos.userId, ann));
    await same('videos inserted and updated');
    expect(await found(ann, 'delivered')).toBe(true);
    await app.db.update(userVideos).set({ userId: ben }).where(eq(userVideos.id, annVideo));
    await app.db.delete(userVideos).where(eq(userVideos.userId, ann));
    await same('a video moved, another deleted');
    // Ten concurrent status changes of one user's requests, each in its own transaction: none is lost.
    const many = await app.db
      .insert(highlightRequests)
      .values(Array.from({ length: 10 }, (_, i) => ({ userId: ben, event: `Tally Open ${i}`, eventId: eventIds[i + 3]!, status: 'pending' as const })))
      .returning({ id: highlightRequests.id });
    await Promise.all(many.map(({ id }, i) => app.db.update(highlightRequests).set({ status: i % 2 ? 'delivered' : 'ready_to_purchase' }).where(eq(highlightRequests.id, id))));
    await same('concurrent status changes');
    // The filters' totals against the profiles counted from the requests and videos themselves.
    const statuses = { submitted: ['pending'], approved: ['ready_to_purchase'], delivered: ['delivered'] } as const;
    for (const filters of ['submitted', 'approved', 'delivered', 'submitted,approved', 'approved,delivered']) {
      const chosen = filters.split(',') as Array<keyof typeof statuses>;
      const wanted = chosen.flatMap((f) => statuses[f]);
      const [counted] = await queryRows<{ n: number }>(
        app.db,
        sql`SELECT count(*)::int AS n FROM user_profiles p
          WHERE EXISTS (SELECT 1 FROM highlight_requests r WHERE r.user_id = p.id AND r.status::text IN (${sql.join(wanted.map((w) => sql`${w}`), sql`, `)}))
             OR (${chosen.includes('delivered')} AND EXISTS (SELECT 1 FROM user_videos v WHERE v.user_id = p.id))`,
      );
      expect((await list(`filters=${filters}`)).total, filters).toBe(counted!.n);
      expect((await list(`filters=${filters}&page=2`)).total, filters).toBe(counted!.n);
    }
    // Ann's last requests deleted: her row goes, as she has nothing left. Ben's account deleted:
    // its cascade takes his requests and videos, and his row with them.
    await app.db.delete(highlightRequests).where(eq(highlightRequests.userId, ann));
    await app.db.delete(user).where(eq(user.id, ben));
    await same('requests deleted, a user deleted');
    expect(await queryRows(app.db, sql`SELECT user_id FROM user_list_tallies WHERE user_id IN (${ann}, ${ben})`)).toEqual([]);
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
