// Game footage is deleted when the policy says (issue 33, finding 2): FOOTAGE_RETENTION_DAYS (90)
// after its event, unless a request made for the event still needs it (then once it is
// delivered); with it go its face index, clips and the stored file. Footage whose index was
// deleted under the policy cannot be indexed again, and the footage screen says when each file goes.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOOTAGE } from '../../src/common/admin-messages';
import { appearances, eventGames, events, faceTracks, footage, highlightRequests } from '../../src/server/db/schema';
import { deleteExpiredFootage } from '../../src/server/footage/retention';
import { clipThumbnailKey } from '../../src/server/reels/clip-thumbnail';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

let app: TestApp;
let admin: { cookie: string; userId: string };
let family: { userId: string };
beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Rita Retention' });
  await makeAdmin(app, admin.userId);
  family = await createVerifiedUser(app, { fullName: 'Fay Family' });
});
afterAll(async () => {
  await app?.close();
});

const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600 * 1000).toISOString().slice(0, 10);
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 24 * 3600 * 1000).toISOString().slice(0, 10);

/** An event that began `startedDaysAgo` ago with one game and one stored footage file. */
async function eventWithFootage(startedDaysAgo: number, indexState = 'indexed') {
  const eventId = `ret-${randomUUID().slice(0, 8)}`;
  await app.db.insert(events).values({ id: eventId, name: 'Retention Cup', location: 'Austin', dates: 'Aug 1', startsOn: daysAgo(startedDaysAgo) });
  await app.db.insert(eventGames).values({ id: `${eventId}-g1`, eventId, label: 'Game 1', position: 1 });
  const sourceKey = `game-footage/${eventId}/${randomUUID()}.source`;
  await app.server.deps.storage.put(sourceKey, Buffer.from('camera file'), 'video/mp4');
  // Uploaded the day the event began.
  const [file] = await app.db.insert(footage).values({ eventId, gameId: `${eventId}-g1`, camera: 'Camera 1', sourceKey, sizeBytes: 11, durationSeconds: 60, indexState, createdAt: new Date(`${daysAgo(startedDaysAgo)}T15:00:00Z`) }).returning();
  return { eventId, file: file! };
}
const list = async (eventId: string) => jsonOf<Array<{ id: string; deletesOn: string | null; keptForRequest: boolean }>>(await app.fetch(`/api/admin/events/${eventId}/footage`, { cookie: admin.cookie }));

describe('footage retention', () => {
  it('deletes footage 90 days after its event with its index, clips and stored files; keeps what an open request needs and what is newer', async () => {
    const old = await eventWithFootage(100);
    const [track] = await app.db.insert(faceTracks).values({ footageId: old.file.id, startS: 1, endS: 3, bestS: 2, box: { x: 1, y: 1, w: 50, h: 50 }, faceHeight: 50, score: 0.9, quality: 0.5, embeddings: Buffer.alloc(512) }).returning();
    const [delivered] = await app.db.insert(highlightRequests).values({ userId: family.userId, event: 'Retention Cup', eventId: old.eventId, status: 'delivered' }).returning();
    const [clip] = await app.db.insert(appearances).values({ requestId: delivered!.id, footageId: old.file.id, gameId: old.file.gameId, camera: 'Camera 1', startS: 1, endS: 3, confidence: 0.9, distance: 0.3, faceHeight: 50, trackId: track!.id, trackIds: [track!.id], rank: 1 }).returning();
    await app.server.deps.storage.put(clipThumbnailKey(old.eventId, clip!.id), Buffer.from('jpeg'), 'image/jpeg');
    const held = await eventWithFootage(100);
    const [open] = await app.db.insert(highlightRequests).values({ userId: family.userId, event: 'Retention Cup', eventId: held.eventId, status: 'pending' }).returning();
    const recent = await eventWithFootage(10);

    // The footage screen says when each file goes, or that a request keeps it.
    expect(await list(recent.eventId)).toMatchObject([{ id: recent.file.id, deletesOn: plusDays(daysAgo(10), 90), keptForRequest: false }]);
    expect(await list(held.eventId)).toMatchObject([{ id: held.file.id, deletesOn: null, keptForRequest: true }]);
    expect((await list(old.eventId))[0]!.deletesOn! < daysAgo(0)).toBe(true);

    expect(await deleteExpiredFootage(app.server.deps)).toBe(1);
    expect(await app.db.select().from(footage).where(eq(footage.id, old.file.id))).toEqual([]);
    expect(await app.db.select().from(faceTracks).where(eq(faceTracks.footageId, old.file.id))).toEqual([]);
    expect(await app.db.select().from(appearances).where(eq(appearances.id, clip!.id))).toEqual([]);
    expect(await app.server.deps.storage.stat(old.file.sourceKey)).toBeNull();
    expect(await app.server.deps.storage.stat(clipThumbnailKey(old.eventId, clip!.id))).toBeNull();
    // The family's delivered request stays (its reel is a file of its own).
    expect(await app.db.select().from(highlightRequests).where(eq(highlightRequests.id, delivered!.id))).toHaveLength(1);
    for (const kept of [held, recent]) {
      expect(await app.db.select().from(footage).where(eq(footage.id, kept.file.id))).toHaveLength(1);
      expect(await app.server.deps.storage.stat(kept.file.sourceKey)).not.toBeNull();
    }

    // Once the request that held it is delivered, its footage goes at the next check.
    await app.db.update(highlightRequests).set({ status: 'delivered' }).where(eq(highlightRequests.id, open!.id));
    expect(await deleteExpiredFootage(app.server.deps)).toBe(1);
    expect(await app.db.select().from(footage).where(eq(footage.id, held.file.id))).toEqual([]);
  });

  it('footage of a past event uploaded today is kept the full time from its upload', async () => {
    const late = await eventWithFootage(200);
    await app.db.update(footage).set({ createdAt: new Date() }).where(eq(footage.id, late.file.id));
    expect(await list(late.eventId)).toMatchObject([{ deletesOn: plusDays(daysAgo(0), 90) }]);
    await deleteExpiredFootage(app.server.deps);
    expect(await app.db.select().from(footage).where(eq(footage.id, late.file.id))).toHaveLength(1);
  });

  it('footage whose index was deleted under the policy cannot be indexed again; nothing changes', async () => {
    const purged = await eventWithFootage(20, 'purged');
    const res = await app.fetch(`/api/admin/footage/${purged.file.id}/reindex`, { method: 'POST', cookie: admin.cookie });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'INDEX_PURGED', message: FOOTAGE.purgedNoReindex });
    const [row] = await app.db.select().from(footage).where(eq(footage.id, purged.file.id));
    expect(row).toMatchObject({ indexState: 'purged', indexProgress: 0 });
    expect((await app.fetch(`/api/admin/footage/${randomUUID()}/reindex`, { method: 'POST', cookie: admin.cookie })).status).toBe(404);
  });
});
