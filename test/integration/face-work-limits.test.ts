// Face work one family can ask for (issue 33, finding 3): each reference photo, each "on" and each
// new headshot while matching is on runs face detection on the threads footage indexing needs, so
// one account may ask for 10 an hour (429 with Retry-After after that), and the 5-photo cap holds
// in the transaction that stores a photo, so photos sent at once cannot pass it together.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_MATCHING } from '../../src/common/dashboard-messages';
import { athleteReferences, footage, highlightRequests } from '../../src/server/db/schema';
import { matchAgainWithNewFaces } from '../../src/server/requests/reel-progress';
import { RATE_RULES } from '../../src/server/http/rate-limit';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { referencePhoto } from '../support/face-footage';
import { insertPerson } from '../support/dashboard-fixtures';
import { jobsOf } from '../support/jobs';

let app: TestApp;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-face-limits-'));
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 1 });
  await referencePhoto('ava', path.join(work, 'ava.jpg'));
}, 60_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const consent = (cookie: string, on: boolean) => app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: on }, cookie });
const addPhoto = (cookie: string) => {
  const form = new FormData();
  form.append('photo', new Blob([fs.readFileSync(path.join(work, 'ava.jpg'))], { type: 'image/jpeg' }), 'ava.jpg');
  return app.fetch('/api/profile/reference-photos', { method: 'POST', body: form, cookie });
};
const photosOf = (userId: string) => app.db.select().from(athleteReferences).where(and(eq(athleteReferences.userId, userId), eq(athleteReferences.source, 'photo')));

describe('face work per family', () => {
  it('after 10 checks in an hour the next is refused with 429 and Retry-After, stores nothing, and another family is not held', async () => {
    const family = await createVerifiedUser(app, { fullName: 'Busy Family' });
    expect(RATE_RULES.faceChecksPerUser.limit).toBe(10);
    for (let i = 0; i < 10; i++) expect((await consent(family.cookie, true)).status).toBe(200);
    const refused = await addPhoto(family.cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await photosOf(family.userId)).toEqual([]);
    expect((await consent(family.cookie, true)).status).toBe(429);
    // Turning it off is never held back.
    expect((await consent(family.cookie, false)).status).toBe(200);
    const other = await createVerifiedUser(app, { fullName: 'Other Family' });
    expect((await consent(other.cookie, true)).status).toBe(200);
  }, 60_000);

  it('photos sent at once cannot pass the 5-photo cap together', async () => {
    const family = await createVerifiedUser(app, { fullName: 'Eager Family' });
    expect((await consent(family.cookie, true)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, () => addPhoto(family.cookie)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    const refusals = answers.filter((r) => r.status === 409);
    expect(refusals).toHaveLength(3);
    for (const r of refusals) expect(await r.json()).toMatchObject({ code: 'TOO_MANY', message: FACE_MATCHING.tooMany });
    expect(await photosOf(family.userId)).toHaveLength(5);
    // Nothing of the refused photos is left in storage either.
    const stored = await app.server.deps.storage.list(`profile-photos/${family.userId}/`);
    expect(stored.filter((k) => k.includes('reference-'))).toHaveLength(5);
  }, 120_000);
});

describe('matching again for new faces', () => {
  // No worker here: a match job run at once would put the request back as it was, and a late call
  // of the twelve would then rightly move it again. What is tested is the twelve calls at once.
  let quiet: TestApp;
  beforeAll(async () => {
    quiet = await startTestApp({ runWorker: false });
  }, 60_000);
  afterAll(() => quiet?.close());

  it('many "on"s at once queue one match of the request, not one each', async () => {
    const app = quiet;
    // Put in place directly: without a worker no confirmation mail goes out.
    const family = { userId: await insertPerson(app, { firstName: 'Twelve', lastName: 'Times' }) };
    const eventId = 'austin-fall-league-2024';
    await app.db.insert(footage).values({ eventId, gameId: 'austin-sat-1', camera: `Camera ${Date.now()}`, sourceKey: `game-footage/${eventId}/${Date.now()}.source`, sizeBytes: 1, durationSeconds: 60, indexState: 'indexed' });
    const [request] = await app.db.insert(highlightRequests).values({ userId: family.userId, event: 'Austin Fall League', eventId, status: 'ready_to_purchase', matchingState: 'no_consent' }).returning();
    const sent = await Promise.all(Array.from({ length: 12 }, () => matchAgainWithNewFaces(app.server.deps, family.userId)));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    const jobs = (await jobsOf(app, 'faces.match-request')).filter((j) => (j.data as { requestId: string }).requestId === request!.id);
    expect(jobs).toHaveLength(1);
  });
});

