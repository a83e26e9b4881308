// Issue 34, item 2: a family shares a delivered reel with relatives through a private link:
// unguessable, 30 days unless chosen, watch-only (the reel and the vertical cut stream with no
// account; photos only when ticked), noindex, counted when opened, and turned off at will; a
// revoked or expired link says so plainly. Nobody else can make, see or turn off a family's links.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE, SHARED_PAGE } from '../../src/common/dashboard-messages';
import { orders, shareLinks, userProfiles, userStills } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertStill, insertVideo, makeAdmin } from '../support/dashboard-fixtures';
import { jar, jsonOf } from '../support/http';
import { insertRequest } from '../support/purchase';

type Family = { cookie: string; userId: string; email: string };
interface LinkDto {
  id: string;
  url: string;
  state: string;
  openCount: number;
  includePhotos: boolean;
  createdAt: string;
  expiresAt: string;
}

let app: TestApp;
let family: Family;
let other: Family;
let admin: Family;
let delivered: string;
let open: string;
let reel: { id: string; bytes: Buffer | null };
let social: { id: string };
let still: { id: string; bytes: Buffer };

const make = (cookie: string, json: unknown) => app.fetch('/api/share-links', { method: 'POST', cookie, json });
/** A relative's phone: no cookie at all. */
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const visit = (pathname: string, headers: Record<string, string> = {}) => fetch(`${app.url}${pathname}`, { headers: { 'user-agent': PHONE, ...headers }, redirect: 'manual' });
const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  app = await startTestApp();
  family = await createVerifiedUser(app, { fullName: 'Maya Brooks' });
  other = await createVerifiedUser(app, { fullName: 'Other Parent' });
  admin = await createVerifiedUser(app, { fullName: 'Share Admin' });
  await makeAdmin(app, admin.userId);
  await app.db.update(userProfiles).set({ firstName: 'Maya', lastName: 'Brooks' }).where(eq(userProfiles.id, family.userId));
  delivered = await insertRequest(app, family.userId, 'delivered');
  open = await insertRequest(app, family.userId, 'ready_to_purchase');
  await app.db.insert(orders).values({ userId: family.userId, requestId: delivered, amount: 15000, status: 'completed', provider: 'local', completedAt: new Date() });
  reel = await insertVideo(app, family.userId, { requestId: delivered, videoType: 'highlight_reel', width: 1920, height: 1080 });
  social = await insertVideo(app, family.userId, { requestId: delivered, videoType: 'social_cut', width: 1080, height: 1920 });
  // Not part of what a link shows: the full game video, and a video still hidden.
  await insertVideo(app, family.userId, { requestId: delivered, videoType: 'full_video' });
  await insertVideo(app, family.userId, { requestId: delivered, videoType: 'highlight_reel', isVisible: false });
  still = await insertStill(app, family.userId, 0);
  await app.db.update(userStills).set({ requestId: delivered }).where(eq(userStills.id, still.id));
});
afterAll(async () => {
  await app?.close();
});

describe('share links (issue 34, item 2)', () => {
  it('a family makes a link to a delivered reel: 30 days by default, shown once, unguessable', async () => {
    const res = await make(family.cookie, { requestId: delivered });
    expect(res.status).toBe(201);
    const link = await jsonOf<LinkDto>(res);
    expect(link).toMatchObject({ state: 'active', openCount: 0, includePhotos: false });
    const days = (Date.parse(link.expiresAt) - Date.parse(link.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);
    expect(link.url).toMatch(new RegExp(`^${app.origin}/share/[0-9a-f]{64}$`));
    // The database keeps a hash, never the secret; the list never shows the address again.
    const token = pathOf(link.url).split('/').pop()!;
    const [row] = await app.db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(JSON.stringify(row)).not.toContain(token);
    const list = await jsonOf<LinkDto[]>(await app.fetch('/api/share-links', { cookie: family.cookie }));
    expect(list.map((l) => l.id)).toEqual([link.id]);
    expect(JSON.stringify(list)).not.toContain(token);
  });

  it('opened signed out: the reel and the vertical cut stream, first name only, noindex, counted; no photos unless ticked', async () => {
    const link = await jsonOf<LinkDto>(await make(family.cookie, { requestId: delivered, days: 7 }));
    const page = await visit(pathOf(link.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    // Other sites never see the path that holds the token.
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain(SHARED_PAGE.title('Maya').replace("'", '&#39;'));
    expect(html).not.toContain('Brooks');
    expect(html).not.toContain(family.email);
    const sources = [...html.matchAll(/<video[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources).toEqual([`${pathOf(link.url)}/video/${reel.id}`, `${pathOf(link.url)}/video/${social.id}`]);
    expect(html).not.toContain('<img');
    // The video streams with ranges, to anyone holding the link.
    const part = await visit(sources[0]!, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(reel.bytes!.subarray(0, 100));
    expect(part.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    // Only this reel's media: the photo (not ticked), another video id, and a guessed id are not there.
    expect((await visit(`${pathOf(link.url)}/photo/${still.id}`)).status).toBe(404);
    expect((await visit(`${pathOf(link.url)}/video/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    await visit(pathOf(link.url));
    // A messaging app drawing the link's preview is not someone opening it.
    for (const agent of ['WhatsApp/2.23.20.0', 'facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'TelegramBot (like TwitterBot)']) {
      expect((await visit(pathOf(link.url), { 'user-agent': agent })).status).toBe(200);
    }
    const [counted] = (await jsonOf<LinkDto[]>(await app.fetch('/api/share-links', { cookie: family.cookie }))).filter((l) => l.id === link.id);
    expect(counted!.openCount).toBe(2);
  });

  it('photos show only when the family ticks them', async () => {
    const link = await jsonOf<LinkDto>(await make(family.cookie, { requestId: delivered, days: 30, includePhotos: true }));
    const html = await (await visit(pathOf(link.url))).text();
    expect(html).toContain(`${pathOf(link.url)}/photo/${still.id}`);
    const photo = await visit(`${pathOf(link.url)}/photo/${still.id}`);
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(still.bytes);
  });

  it('turned off: the page and its media stop at once and say so; an unknown link says it does not work', async () => {
    const link = await jsonOf<LinkDto>(await make(family.cookie, { requestId: delivered }));
    const video = `${pathOf(link.url)}/video/${reel.id}`;
    expect((await visit(video)).status).toBe(200);
    // Not by another family, nor for a link id that is not theirs.
    expect((await app.fetch(`/api/share-links/${link.id}`, { method: 'DELETE', cookie: other.cookie })).status).toBe(404);
    expect((await app.fetch(`/api/share-links/${link.id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await app.fetch(`/api/share-links/not-a-uuid`, { method: 'DELETE', cookie: family.cookie })).status).toBe(404);
    expect((await visit(pathOf(link.url))).status).toBe(200);

    const off = await app.fetch(`/api/share-links/${link.id}`, { method: 'DELETE', cookie: family.cookie });
    expect(off.status).toBe(200);
    expect(await jsonOf(off)).toMatchObject({ id: link.id, state: 'revoked' });
    const gone = await visit(pathOf(link.url));
    expect(gone.status).toBe(410);
    const text = await gone.text();
    expect(text).toContain(SHARED_PAGE.revokedTitle);
    expect(text).toContain(SHARED_PAGE.revoked);
    expect(gone.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect((await visit(video)).status).toBe(404);

    const unknown = await visit(`/share/${'a'.repeat(64)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(SHARED_PAGE.unknownTitle);
    expect((await visit('/share/short')).status).toBe(404);
  });

  it('expired: says so plainly and streams nothing', async () => {
    const link = await jsonOf<LinkDto>(await make(family.cookie, { requestId: delivered, days: 1 }));
    await app.db.update(shareLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(shareLinks.id, link.id));
    const page = await visit(pathOf(link.url));
    expect(page.status).toBe(410);
    const text = await page.text();
    expect(text).toContain(SHARED_PAGE.expiredTitle);
    expect(text).toContain(SHARED_PAGE.expired);
    expect((await visit(`${pathOf(link.url)}/video/${reel.id}`)).status).toBe(404);
    const listed = (await jsonOf<LinkDto[]>(await app.fetch('/api/share-links', { cookie: family.cookie }))).find((l) => l.id === link.id);
    expect(listed!.state).toBe('expired');
  });

  it('refuses what cannot be shared, with the exact message, and makes nothing', async () => {
    const count = async () => (await app.db.select().from(shareLinks)).length;
    const before = await count();
    const cases: Array<[string | undefined, unknown, number, string]> = [
      [family.cookie, { requestId: open }, 409, SHARE.notDelivered],
      [other.cookie, { requestId: delivered }, 404, SHARE.notDelivered],
      [admin.cookie, { requestId: delivered }, 404, SHARE.notDelivered],
      [family.cookie, { requestId: delivered, days: 0 }, 400, SHARE.invalidDays],
      [family.cookie, { requestId: delivered, days: 91 }, 400, SHARE.invalidDays],
      [family.cookie, { requestId: delivered, days: 2.5 }, 400, SHARE.invalidDays],
      [family.cookie, { requestId: 'nope' }, 404, SHARE.notDelivered],
    ];
    for (const [cookie, json, status, message] of cases) {
      const res = await make(cookie!, json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(await jsonOf(res)).toMatchObject({ message });
    }
    expect((await make('', { requestId: delivered })).status).toBe(401);
    // Another family's list is their own.
    expect(await jsonOf(await app.fetch('/api/share-links', { cookie: other.cookie }))).toEqual([]);
    expect(await count()).toBe(before);
  });

  it('an admin viewing the site as the family cannot make or turn off a link', async () => {
    const started = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: family.userId } });
    expect(started.status).toBe(200);
    const viewing = jar(admin.cookie, started);
    const res = await make(viewing, { requestId: delivered });
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toMatchObject({ message: SHARE.familyOnly });
    const [anyLink] = await jsonOf<LinkDto[]>(await app.fetch('/api/share-links', { cookie: viewing }));
    expect((await app.fetch(`/api/share-links/${anyLink!.id}`, { method: 'DELETE', cookie: viewing })).status).toBe(403);
    await app.fetch('/api/auth/impersonation/stop', { method: 'POST', cookie: viewing });
  });

  it('at most 20 working links per reel', async () => {
    const working = async () => (await jsonOf<LinkDto[]>(await app.fetch('/api/share-links', { cookie: family.cookie }))).filter((l) => l.state === 'active').length;
    while ((await working()) < 20) expect((await make(family.cookie, { requestId: delivered })).status).toBe(201);
    const refused = await make(family.cookie, { requestId: delivered });
    expect(refused.status).toBe(409);
    expect(await jsonOf(refused)).toMatchObject({ message: SHARE.tooMany });
  });
});
