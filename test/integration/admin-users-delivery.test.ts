// The admin users list after approval (issue 22): each request says whether its reel is made
// from the event's footage and where its latest render stands, so the card's main action is
// Review clips rather than Reels Delivered; a delivered request is listed as delivered, paid or
// not, and the Delivered filter finds its user even before any video is uploaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footage, highlightRequests, orders, reelRenders } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertPerson, insertVideo, makeAdmin } from '../support/dashboard-fixtures';

let app: TestApp;
let admin: { cookie: string; userId: string };
let parent: { cookie: string; userId: string };
const EVENT = 'austin-fall-league-2024';
const ids: Record<string, string> = {};

interface ListedRequest { id: string; status: string; paid: boolean; fromFootage: boolean; renderState: string | null }
interface Listed { users: Array<{ id: string; lastName: string; requests: ListedRequest[] }> }
const list = async (query: string, cookie = admin.cookie) => (await (await app.fetch(`/api/admin/users?${query}`, { cookie })).json()) as Listed;

async function request(userId: string, values: Partial<typeof highlightRequests.$inferInsert>) {
  const [row] = await app.db.insert(highlightRequests).values({ userId, event: 'Austin Fall League', eventId: EVENT, ...values }).returning();
  return row!.id;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'List Admin' });
  await makeAdmin(app, admin.userId);
  parent = await createVerifiedUser(app, { fullName: 'Some Parent' });
  // The Austin event has game footage: its reels come from the reel builder.
  await app.db.insert(footage).values({ eventId: EVENT, gameId: 'austin-sat-1', camera: 'Camera 1', sourceKey: `game-footage/${EVENT}/x.source`, sizeBytes: 1, indexState: 'indexed' });

  ids.delivered = await insertPerson(app, { firstName: 'Dana', lastName: 'Delivered' });
  ids.deliveredRequest = await request(ids.delivered, { status: 'delivered' });
  await app.db.insert(orders).values({ userId: ids.delivered, requestId: ids.deliveredRequest, amount: 4900, status: 'completed', provider: 'local', completedAt: new Date() });

  ids.filmed = await insertPerson(app, { firstName: 'Fay', lastName: 'Filmed' });
  ids.filmedRequest = await request(ids.filmed, { status: 'ready_to_purchase' });
  await app.db.insert(reelRenders).values({ requestId: ids.filmedRequest, state: 'failed', clips: [], createdAt: new Date(Date.now() - 60_000) });
  await app.db.insert(reelRenders).values({ requestId: ids.filmedRequest, state: 'ready', clips: [] });

  ids.byHand = await insertPerson(app, { firstName: 'Hal', lastName: 'Byhand' });
  ids.byHandRequest = await request(ids.byHand, { status: 'ready_to_purchase', eventId: 'chicago-3v3-2024', event: 'Chicago 3v3' });

  ids.withVideo = await insertPerson(app, { firstName: 'Vic', lastName: 'Videoonly' });
  await insertVideo(app, ids.withVideo, { videoTitle: 'Uploaded by hand' });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('the users list after approval', () => {
  it('a delivered, paid request is listed as delivered and paid (the card says Delivered, not No Request)', async () => {
    const { users } = await list('q=Delivered');
    expect(users.map((u) => u.id)).toEqual([ids.delivered]);
    expect(users[0]!.requests).toEqual([expect.objectContaining({ id: ids.deliveredRequest, status: 'delivered', paid: true, fromFootage: true, renderState: null })]);
  });

  it('the Delivered filter finds a delivered request without videos, and a user with videos, and no one else', async () => {
    const { users } = await list('filters=delivered');
    expect(users.map((u) => u.id).sort()).toEqual([ids.delivered, ids.withVideo].sort());
  });

  it("an approved request of an event with footage says so, with its latest render's state; one of an event without footage does not", async () => {
    const filmed = (await list('q=Filmed')).users[0]!.requests[0]!;
    expect(filmed).toMatchObject({ id: ids.filmedRequest, status: 'ready_to_purchase', paid: false, fromFootage: true, renderState: 'ready' });
    const byHand = (await list('q=Byhand')).users[0]!.requests[0]!;
    expect(byHand).toMatchObject({ id: ids.byHandRequest, status: 'ready_to_purchase', fromFootage: false, renderState: null });
  });

  it('only an admin may read the list', async () => {
    expect((await app.fetch('/api/admin/users?filters=delivered', { cookie: parent.cookie })).status).toBe(403);
    expect((await app.fetch('/api/admin/users?filters=delivered')).status).toBe(401);
  });
});
