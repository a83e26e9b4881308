// The athlete's photo stills: GET /api/stills (in order_position order) and their downloads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED } from '../../src/common/messages';
import { MEDIA } from '../../src/common/dashboard-messages';
import { MEDIA_CACHE_CONTROL } from '../../src/common/constants';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertStill, makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
interface StillBody {
  id: string;
  url: string;
  downloadUrl: string;
  originalFilename: string | null;
  orderPosition: number;
}

let app: TestApp;
let athlete: User;
let other: User;
let stills: Array<Awaited<ReturnType<typeof insertStill>>>;
let othersStill: Awaited<ReturnType<typeof insertStill>>;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  [athlete, other] = [await createVerifiedUser(app), await createVerifiedUser(app)];
  // Inserted out of order: positions 2, 0, 1.
  const third = await insertStill(app, athlete.userId, 2, 'third.jpg');
  const first = await insertStill(app, athlete.userId, 0, 'IMG_0001.jpg');
  const second = await insertStill(app, athlete.userId, 1, null);
  stills = [first, second, third];
  othersStill = await insertStill(app, other.userId, 0, 'theirs.jpg');
});
afterAll(async () => {
  await app?.close();
});

describe('GET /api/stills', () => {
  it("returns the caller's stills by order_position, and none of anyone else's", async () => {
    const res = await app.fetch('/api/stills', { cookie: athlete.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const list = await jsonOf<StillBody[]>(res);
    expect(list.map((s) => s.id)).toEqual(stills.map((s) => s.id));
    expect(list.map((s) => s.orderPosition)).toEqual([0, 1, 2]);
    expect(list.map((s) => s.originalFilename)).toEqual(['IMG_0001.jpg', null, 'third.jpg']);
    list.forEach((s, i) => {
      expect(s.url).toBe(`/api/media/${stills[i]!.key}`);
      expect(s.downloadUrl).toBe(`/api/stills/${s.id}/download`);
    });
    expect(list.some((s) => s.id === othersStill.id)).toBe(false);

    const theirs = await jsonOf<StillBody[]>(await app.fetch('/api/stills', { cookie: other.cookie }));
    expect(theirs.map((s) => s.id)).toEqual([othersStill.id]);
  });

  it('gives an empty list to a user without stills and 401 to a visitor', async () => {
    const fresh = await createVerifiedUser(app);
    expect(await jsonOf(await app.fetch('/api/stills', { cookie: fresh.cookie }))).toEqual([]);
    const res = await app.fetch('/api/stills');
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
  });

  it('serves each still image to its owner only', async () => {
    const res = await app.fetch(`/api/media/${stills[0]!.key}`, { cookie: athlete.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(stills[0]!.bytes)).toBe(true);
    expect((await app.fetch(`/api/media/${stills[0]!.key}`, { cookie: other.cookie })).status).toBe(404);
  });
});

describe('GET /api/stills/:id/download', () => {
  it("downloads a still as an attachment named for the athlete and its number (issue 22), not the upload's file name", async () => {
    const res = await app.fetch(`/api/stills/${stills[0]!.id}/download`, { cookie: athlete.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('content-disposition')).toContain('filename="Test Athlete - Photo 1.jpg"');
    expect(res.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(stills[0]!.bytes)).toBe(true);
  });

  it('names a still after its position in the list', async () => {
    const res = await app.fetch(`/api/stills/${stills[1]!.id}/download`, { cookie: athlete.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('content-disposition')).toContain('filename="Test Athlete - Photo 2.jpg"');
  });

  it("answers 404 for another user's still, an unknown id and a malformed id; 401 for a visitor", async () => {
    for (const path of [
      `/api/stills/${othersStill.id}/download`,
      '/api/stills/00000000-0000-4000-8000-000000000000/download',
      '/api/stills/not-an-id/download',
    ]) {
      const res = await app.fetch(path, { cookie: athlete.cookie });
      expect(res.status, path).toBe(404);
      expect(await jsonOf(res)).toEqual({ code: 'NOT_FOUND', message: MEDIA.notFound });
    }
    expect((await app.fetch(`/api/stills/${stills[0]!.id}/download`)).status).toBe(401);
  });

  it("lets an admin download anyone's still", async () => {
    const admin = await createVerifiedUser(app);
    await makeAdmin(app, admin.userId);
    const res = await app.fetch(`/api/stills/${othersStill.id}/download`, { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(othersStill.bytes)).toBe(true);
  });
});
