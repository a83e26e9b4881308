// GET /api/dashboard: the dashboard's arrival in one answer. Each part must be exactly what its own
// route answers (the page refreshes a part through that route later), for the signed-in family
// only: never another family's rows, nothing for a visitor, the viewed family's for an admin
// viewing the site as them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED } from '../../src/common/messages';
import { eq } from 'drizzle-orm';
import { encodeEmbeddings } from '../../src/server/faces/embeddings';
import { athleteReferences, highlightRequests, orders, userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertStill, insertVideo, makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { jar } from '../support/two-factor';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
type Dashboard = {
  profile: { id: string };
  videos: Array<{ id: string }>;
  stills: Array<{ id: string }>;
  requests: Array<{ id: string; paid: boolean }>;
  events: unknown[];
  shareLinks: unknown[];
  faceMatching: unknown;
  supportVisits: unknown[];
};
const PARTS = {
  profile: '/api/profile',
  videos: '/api/videos',
  stills: '/api/stills',
  requests: '/api/requests',
  events: '/api/events',
  shareLinks: '/api/share-links',
  faceMatching: '/api/profile/face-matching',
  supportVisits: '/api/profile/support-visits',
} as const;

let app: TestApp;
let ava: User;
let ben: User;
let admin: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  ava = await createVerifiedUser(app, { fullName: 'Ava Athlete' });
  ben = await createVerifiedUser(app, { fullName: 'Ben Brother' });
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  await makeAdmin(app, admin.userId);
  for (const user of [ava, ben]) {
    await insertVideo(app, user.userId, { videoTitle: `${user.userId} reel` });
    await insertVideo(app, user.userId, { isVisible: false });
    await insertStill(app, user.userId, 0);
    await insertStill(app, user.userId, 1);
  }
  const [paid] = await app.db
    .insert(highlightRequests)
    .values([
      { userId: ava.userId, eventId: 'austin-fall-league-2024', event: 'Austin Fall League', games: ['austin-sat-1'], status: 'ready_to_purchase' },
      { userId: ava.userId, eventId: 'chicago-3v3-2024', event: 'Chicago 3v3', games: [], status: 'pending' },
    ])
    .returning();
  // Face matching on, with one usable reference photo and one that showed no face.
  await app.db.update(userProfiles).set({ faceMatchConsentAt: new Date(), faceMatchConsentBy: ava.userId }).where(eq(userProfiles.id, ava.userId));
  await app.db.insert(athleteReferences).values([
    { userId: ava.userId, source: 'photo', photoKey: `reference-photos/${ava.userId}/a.jpg`, embedding: encodeEmbeddings([new Float32Array(128).fill(0.1)]), faceHeight: 200 },
    { userId: ava.userId, source: 'photo', photoKey: `reference-photos/${ava.userId}/b.jpg`, embedding: null, faceHeight: 0 },
  ]);
  await app.db.insert(orders).values({ userId: ava.userId, requestId: paid!.id, amount: 4900, status: 'completed', provider: 'local', completedAt: new Date() });
});
afterAll(async () => {
  await app?.close();
});

const dashboardOf = (cookie: string) => app.fetch('/api/dashboard', { cookie });

describe('GET /api/dashboard', () => {
  it('answers each part exactly as its own route does', async () => {
    const res = await dashboardOf(ava.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const whole = await jsonOf<Dashboard>(res);
    for (const [part, path] of Object.entries(PARTS)) {
      expect(whole[part as keyof typeof PARTS], part).toEqual(await jsonOf(await app.fetch(path, { cookie: ava.cookie })));
    }
    expect(whole.profile.id).toBe(ava.userId);
    expect(whole.videos).toHaveLength(1);
    expect(whole.stills).toHaveLength(2);
    expect(whole.requests.map((r) => r.paid).sort()).toEqual([false, true]);
    expect(whole.faceMatching).toMatchObject({ consent: true, consentByAccountHolder: true, usablePhotos: 1, headshot: 'missing' });
    expect((whole.faceMatching as { photos: unknown[] }).photos).toHaveLength(2);
  });

  it('gives each family only its own rows', async () => {
    const mine = await jsonOf<Dashboard>(await dashboardOf(ben.cookie));
    const avas = await jsonOf<Dashboard>(await dashboardOf(ava.cookie));
    expect(mine.profile.id).toBe(ben.userId);
    expect(mine.requests).toEqual([]);
    const ids = (d: Dashboard) => [...d.videos, ...d.stills].map((x) => x.id);
    expect(ids(mine).filter((id) => ids(avas).includes(id))).toEqual([]);
  });

  it('is refused to a visitor with 401', async () => {
    const res = await app.fetch('/api/dashboard');
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toMatchObject({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
  });

  it("shows an admin viewing the site as a family that family's dashboard", async () => {
    const started = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: ava.userId } });
    expect(started.status).toBe(200);
    const viewing = jar(admin.cookie, started);
    const seen = await jsonOf<Dashboard>(await dashboardOf(viewing));
    expect(seen.profile.id).toBe(ava.userId);
    expect(seen.requests).toHaveLength(2);
    await app.fetch('/api/auth/impersonation/stop', { method: 'POST', cookie: viewing });
    // The family then sees the visit on their dashboard, as the card's own route says it.
    const after = await jsonOf<Dashboard>(await dashboardOf(ava.cookie));
    expect(after.supportVisits).toHaveLength(1);
    expect(after.supportVisits).toEqual(await jsonOf(await app.fetch('/api/profile/support-visits', { cookie: ava.cookie })));
  });
});
