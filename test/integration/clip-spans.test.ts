// Issue 21, finding 7: a clip's start and end are checked against its footage's length, and
// footage whose length is not known (indexing failed, or not indexed yet) takes no clip at all.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW } from '../../src/common/admin-messages';
import { appearances, eventGames, events, footage, highlightRequests } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { insertRequest } from '../support/purchase';

let app: TestApp;
let admin: { cookie: string; userId: string };
let requestId: string;
const eventId = `spans-${randomUUID().slice(0, 8)}`;
const gameId = `${eventId}-g1`;

/** A footage row of the request's event, as indexing left it. */
async function insertFootage(durationSeconds: number | null, indexState: string): Promise<string> {
  const [row] = await app.db
    .insert(footage)
    .values({ eventId, gameId, camera: `Camera ${randomUUID().slice(0, 4)}`, sourceKey: `footage/${eventId}/${randomUUID()}.source`, sizeBytes: 1000, durationSeconds, indexState })
    .returning({ id: footage.id });
  return row!.id;
}

async function insertClip(footageId: string): Promise<string> {
  const [row] = await app.db
    .insert(appearances)
    .values({ requestId, footageId, gameId, camera: 'Camera 1', startS: 1, endS: 4, confidence: 0.9, distance: 0.4, faceHeight: 80, rank: 1 })
    .returning({ id: appearances.id });
  return row!.id;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Rita Reviewer' });
  await makeAdmin(app, admin.userId);
  const family = await createVerifiedUser(app, { fullName: 'Fay Family' });
  await app.db.insert(events).values({ id: eventId, name: 'Spans Cup', location: 'Austin', dates: 'May 1' });
  await app.db.insert(eventGames).values({ id: gameId, eventId, label: 'Game 1', position: 1 });
  requestId = await insertRequest(app, family.userId, 'pending');
  await app.db.update(highlightRequests).set({ eventId, games: [gameId] }).where(eq(highlightRequests.id, requestId));
});
afterAll(async () => {
  await app?.close();
});

const addClip = (footageId: string, startS: number, endS: number) =>
  app.fetch(`/api/admin/requests/${requestId}/clips`, { method: 'POST', json: { footageId, startS, endS }, cookie: admin.cookie });
const trimClip = (clipId: string, startS: number, endS: number) =>
  app.fetch(`/api/admin/requests/${requestId}/clips/${clipId}/span`, { method: 'PUT', json: { startS, endS }, cookie: admin.cookie });

describe('clip spans on footage of unknown length (issue 21, finding 7)', () => {
  it('a clip at 5000–5100 s of footage whose indexing failed is refused, and nothing is stored', async () => {
    const failed = await insertFootage(null, 'failed');
    const res = await addClip(failed, 5000, 5100);
    expect(res.status).toBe(409);
    expect((await jsonOf<{ message: string }>(res)).message).toBe(REVIEW.durationUnknown);
    expect(await app.db.select().from(appearances).where(eq(appearances.footageId, failed))).toEqual([]);
  });

  it('trimming a clip of footage of unknown length is refused too, and the clip keeps its span', async () => {
    const queued = await insertFootage(null, 'queued');
    const clipId = await insertClip(queued);
    const res = await trimClip(clipId, 5000, 5100);
    expect(res.status).toBe(409);
    expect((await jsonOf<{ message: string }>(res)).message).toBe(REVIEW.durationUnknown);
    expect((await app.db.select().from(appearances).where(eq(appearances.id, clipId)))[0]).toMatchObject({ startS: 1, endS: 4 });
  });

  it('once the length is known, a clip inside it is added and one past its end is refused', async () => {
    const indexed = await insertFootage(60, 'indexed');
    const past = await addClip(indexed, 5000, 5100);
    expect(past.status).toBe(400);
    expect((await jsonOf<{ message: string }>(past)).message).toBe(REVIEW.outsideFootage);
    const inside = await addClip(indexed, 10, 14);
    expect(inside.status).toBe(201);
  });
});

describe('clips per reel (issue 33)', () => {
  it('a reel holds at most 100 clips: the 101st is refused with a clear message, by adding or by accepting, and nothing changes', async () => {
    const indexed = await insertFootage(600, 'indexed');
    // 100 accepted clips already, and one proposed clip not yet decided.
    const accepted = Array.from({ length: 100 }, (_, i) => ({ requestId, footageId: indexed, gameId, camera: 'Camera 1', startS: i, endS: i + 2, confidence: 0.9, distance: 0.4, faceHeight: 80, rank: i + 1, decision: 'accepted', position: i + 1 }));
    await app.db.delete(appearances).where(eq(appearances.requestId, requestId));
    await app.db.insert(appearances).values(accepted);
    const proposed = await insertClip(indexed);
    const before = await app.db.select().from(appearances).where(eq(appearances.requestId, requestId));

    const added = await addClip(indexed, 200, 204);
    expect(added.status).toBe(409);
    expect((await jsonOf<{ message: string }>(added)).message).toBe(REVIEW.tooManyClips);
    const accept = await app.fetch(`/api/admin/requests/${requestId}/clips/${proposed}/decision`, { method: 'PUT', json: { decision: 'accepted' }, cookie: admin.cookie });
    expect(accept.status).toBe(409);
    expect((await jsonOf<{ message: string }>(accept)).message).toBe(REVIEW.tooManyClips);
    expect(await app.db.select().from(appearances).where(eq(appearances.requestId, requestId))).toEqual(before);

    // One taken out, one can go in.
    const [first] = before.filter((a) => a.position === 1);
    expect((await app.fetch(`/api/admin/requests/${requestId}/clips/${first!.id}/decision`, { method: 'PUT', json: { decision: 'rejected' }, cookie: admin.cookie })).status).toBe(200);
    expect((await addClip(indexed, 200, 204)).status).toBe(201);
  });
});

