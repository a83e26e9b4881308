// Issue 22: the family is told when the reel can be bought, sees a watermarked preview of their
// own reel before paying, and is told plainly when the athlete was not found. On a short
// generated game: Ava is in the footage, Cleo is not; a Chicago request (no footage) keeps the
// original flow of videos made by hand after payment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../src/common/company';
import { CHECKOUT } from '../../src/common/dashboard-messages';
import { PROCESSING_TIME } from '../../src/common/constants';
import { PRICES } from '../../src/common/prices';
import { footage, highlightRequests, orders, promoCodes, reelRenders, userStills } from '../../src/server/db/schema';
import { probeVideo } from '../../src/server/media/ffmpeg';
import { PREVIEW_FORMAT } from '../../src/server/reels/preview';
import { renderVideoId } from '../../src/server/reels/render-job';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { composeFootage, referencePhoto } from '../support/face-footage';
import { uploadFootage } from '../support/footage-upload';
import { jsonOf } from '../support/http';
import { eventually } from '../support/purchase';
import { linkIn } from '../support/smtp';

type Family = { cookie: string; userId: string; email: string };
interface RequestDto {
  id: string;
  status: string;
  paid: boolean;
  reel: { fromFootage: boolean; state: string | null; previewUrl: string | null };
}

let app: TestApp;
let admin: { cookie: string; userId: string };
let ava: Family;
let cleo: Family;
let chicago: Family;
let stranger: Family;
let avaRequest: string;
let cleoRequest: string;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-preview-'));
const EVENT = 'austin-fall-league-2024';
const READY_MAIL = 'Ready to purchase';

const requestsOf = async (family: Family) => jsonOf<RequestDto[]>(await app.fetch('/api/requests', { cookie: family.cookie }));
const mailsTo = (family: Family, subject: string) => app.smtp.mails.filter((m) => m.to.includes(family.email) && m.subject.includes(subject));
const teamMails = (subject: string) => app.smtp.mails.filter((m) => m.subject.includes(subject) && m.to.includes(COMPANY.teamInbox.toLowerCase()));
const matched = async (requestId: string) => {
  const [row] = await app.db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
  return row!.matchingState === 'ready';
};

async function addReference(family: Family, person: 'ava' | 'cleo', name: string) {
  const file = path.join(work, name);
  await referencePhoto(person, file);
  const form = new FormData();
  form.append('photo', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), name);
  const res = await app.fetch('/api/profile/reference-photos', { method: 'POST', body: form, cookie: family.cookie });
  expect(res.status).toBe(201);
}

async function renderAll(requestId: string): Promise<string> {
  const review = await jsonOf<{ clips: Array<{ id: string; decision: string | null }> }>(await app.fetch(`/api/admin/requests/${requestId}/review`, { cookie: admin.cookie }));
  for (const clip of review.clips.filter((c) => c.decision !== 'accepted')) {
    expect((await app.fetch(`/api/admin/requests/${requestId}/clips/${clip.id}/decision`, { method: 'PUT', json: { decision: 'accepted' }, cookie: admin.cookie })).status).toBe(200);
  }
  const res = await app.fetch(`/api/admin/requests/${requestId}/render`, { method: 'POST', json: { spotlight: false }, cookie: admin.cookie });
  expect(res.status).toBe(202);
  const { id } = await jsonOf<{ id: string }>(res);
  const render = await eventually(async () => {
    const [row] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, id));
    return row?.state === 'ready' || row?.state === 'failed' ? row : null;
  }, 240_000);
  expect(render.error).toBeNull();
  return id;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Preview Admin' });
  await makeAdmin(app, admin.userId);
  ava = await createVerifiedUser(app, { fullName: 'Ava Stone' });
  cleo = await createVerifiedUser(app, { fullName: 'Cleo Park' });
  chicago = await createVerifiedUser(app, { fullName: 'Chi Family' });
  stranger = await createVerifiedUser(app, { fullName: 'Other Parent' });
  for (const family of [ava, cleo]) expect((await app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: true }, cookie: family.cookie })).status).toBe(200);
  await addReference(ava, 'ava', 'ava.jpg');
  await addReference(cleo, 'cleo', 'cleo.jpg');

  // One camera: Ava from 0.5 s to 5 s, a stranger's face later; Cleo never.
  await composeFootage(path.join(work, 'camera.mp4'), {
    width: 1280,
    height: 720,
    seconds: 8,
    audio: true,
    appearances: [
      { person: 'ava', from: 0.5, to: 5, faceHeight: 140, x: 0.3, y: 0.2 },
      { person: 'eve', from: 5.5, to: 8, faceHeight: 120, x: 0.6, y: 0.3 },
    ],
  });
  const game = await jsonOf<{ id: string }>(await app.fetch(`/api/admin/events/${EVENT}/games`, { method: 'POST', json: { label: 'Preview Final' }, cookie: admin.cookie }));
  await uploadFootage(app, admin.cookie, path.join(work, 'camera.mp4'), { gameId: game.id, camera: 'Camera 1', filename: 'camera.mp4' });
  await eventually(async () => (await app.db.select().from(footage)).every((f) => f.indexState === 'indexed'), 180_000);

  for (const family of [ava, cleo]) expect((await app.fetch('/api/requests', { method: 'POST', json: { eventId: EVENT, games: [game.id] }, cookie: family.cookie })).status).toBe(201);
  const requestOf = async (f: Family) => (await app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, f.userId)))[0]!.id;
  avaRequest = await requestOf(ava);
  cleoRequest = await requestOf(cleo);
  for (const id of [avaRequest, cleoRequest]) expect((await app.fetch(`/api/admin/requests/${id}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
  await eventually(async () => (await matched(avaRequest)) && (await matched(cleoRequest)), 60_000);
}, 400_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('an event without footage: videos made by hand after payment', () => {
  it('approval mails the family once that the reel can be bought; the 7-10 days stay', async () => {
    expect((await app.fetch('/api/requests', { method: 'POST', json: { eventId: 'chicago-3v3-2024', games: [] }, cookie: chicago.cookie })).status).toBe(201);
    const [request] = await requestsOf(chicago);
    expect(request!.reel).toEqual({ fromFootage: false, state: null, previewUrl: null });
    expect(mailsTo(chicago, READY_MAIL)).toHaveLength(0);

    expect((await app.fetch(`/api/admin/requests/${request!.id}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    const mail = await app.smtp.waitFor(chicago.email, READY_MAIL);
    expect(linkIn(mail)).toBe(`${app.origin}/dashboard`);
    expect(mail.text).toContain(PROCESSING_TIME);
    expect(mail.text).toContain(PRICES.mail);
    // Undo and approve again: still the one mail.
    expect((await app.fetch(`/api/admin/requests/${request!.id}/undo`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    expect((await app.fetch(`/api/admin/requests/${request!.id}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo(chicago, READY_MAIL)).toHaveLength(1);
    // Nothing to preview here: checkout opens at once.
    const checkout = await app.fetch('/api/checkout', { method: 'POST', json: { requestId: request!.id }, cookie: chicago.cookie });
    expect(checkout.status).toBe(200);
  });
});

describe('an event whose reels come from footage, before its footage is in (issue 34, item 3)', () => {
  it('says so before the family asks, refuses a checkout until a preview exists, and the admin can switch the event to hand-made', async () => {
    // A new event is built from footage unless the admin says otherwise; the demo event is hand-made
    // and labelled demo, but the footage uploaded to it decides for it.
    const created = await app.fetch('/api/admin/events', { method: 'POST', json: { name: 'Spring Showcase', location: 'Dallas, TX', dates: 'Apr 4' }, cookie: admin.cookie });
    expect(created.status).toBe(201);
    const { id: spring } = await jsonOf<{ id: string }>(created);
    const adminEvents = await jsonOf<Array<{ id: string; reelSource: string; demo: boolean }>>(await app.fetch('/api/admin/events', { cookie: admin.cookie }));
    expect(adminEvents.find((e) => e.id === spring)).toMatchObject({ reelSource: 'footage', demo: false });
    expect(adminEvents.find((e) => e.id === EVENT)).toMatchObject({ reelSource: 'hand', demo: true });
    const reelsFrom = async () => new Map((await jsonOf<Array<{ id: string; reelsFrom: string }>>(await app.fetch('/api/events', { cookie: stranger.cookie }))).map((e) => [e.id, e.reelsFrom]));
    expect(await reelsFrom()).toEqual(new Map([[EVENT, 'footage'], ['chicago-3v3-2024', 'hand'], [spring, 'footage']]));
    // The sample events say they are demo data to families too.
    const demo = new Map((await jsonOf<Array<{ id: string; demo: boolean }>>(await app.fetch('/api/events', { cookie: stranger.cookie }))).map((e) => [e.id, e.demo]));
    expect(demo).toEqual(new Map([[EVENT, true], ['chicago-3v3-2024', true], [spring, false]]));

    expect((await app.fetch('/api/requests', { method: 'POST', json: { eventId: spring, games: [] }, cookie: stranger.cookie })).status).toBe(201);
    const [request] = await requestsOf(stranger);
    expect((await app.fetch(`/api/admin/requests/${request!.id}/acknowledge`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    const [approved] = await requestsOf(stranger);
    expect(approved).toMatchObject({ status: 'ready_to_purchase', paid: false, reel: { fromFootage: true, state: 'awaiting_footage', previewUrl: null } });

    const refused = await app.fetch('/api/checkout', { method: 'POST', json: { requestId: request!.id }, cookie: stranger.cookie });
    expect(refused.status).toBe(409);
    expect(await jsonOf(refused)).toMatchObject({ code: 'PREVIEW_NOT_READY', message: CHECKOUT.previewNotReady });
    expect(await app.db.select().from(orders).where(eq(orders.requestId, request!.id))).toEqual([]);

    // Only an admin changes how an event's reels are made, and only to a kind that exists.
    const byFamily = await app.fetch(`/api/admin/events/${spring}`, { method: 'PATCH', json: { reelSource: 'hand' }, cookie: stranger.cookie });
    expect(byFamily.status).toBe(403);
    const bad = await app.fetch(`/api/admin/events/${spring}`, { method: 'PATCH', json: { reelSource: 'magic' }, cookie: admin.cookie });
    expect(bad.status).toBe(400);
    expect((await reelsFrom()).get(spring)).toBe('footage');
    expect((await app.fetch(`/api/admin/events/${spring}`, { method: 'PATCH', json: { reelSource: 'hand' }, cookie: admin.cookie })).status).toBe(200);
    expect((await reelsFrom()).get(spring)).toBe('hand');
    expect((await requestsOf(stranger))[0]!.reel).toEqual({ fromFootage: false, state: null, previewUrl: null });

    // Hand-made: paid at once, and the admin's portal lists it as paid and waiting, with since when.
    await app.db.insert(promoCodes).values({ code: 'HANDMADEFREE', discountPercent: 100, active: true });
    expect((await app.fetch('/api/checkout', { method: 'POST', json: { requestId: request!.id, promoCode: 'HANDMADEFREE' }, cookie: stranger.cookie })).status).toBe(200);
    const stats = await jsonOf<{ paidWaiting: { count: number; oldest: Array<{ requestId: string; email: string; event: string; fromFootage: boolean; paidAt: string }> } }>(
      await app.fetch('/api/admin/stats', { cookie: admin.cookie }),
    );
    expect(stats.paidWaiting.count).toBe(1);
    expect(stats.paidWaiting.oldest[0]).toMatchObject({ requestId: request!.id, email: stranger.email, event: 'Spring Showcase (Dallas, TX, Apr 4)', fromFootage: false });
    expect(Date.now() - Date.parse(stats.paidWaiting.oldest[0]!.paidAt)).toBeLessThan(60_000);
    expect((await app.fetch('/api/admin/stats', { cookie: stranger.cookie })).status).toBe(403);
  }, 60_000);
});

describe('a reel from the footage, before its render', () => {
  it('tells the family the athlete is being looked for, sends no mail and refuses a checkout with the exact message', async () => {
    const [request] = await requestsOf(ava);
    expect(request).toMatchObject({ status: 'ready_to_purchase', paid: false, reel: { fromFootage: true, state: 'finding', previewUrl: null } });
    expect(mailsTo(ava, READY_MAIL)).toHaveLength(0);

    const res = await app.fetch('/api/checkout', { method: 'POST', json: { requestId: avaRequest }, cookie: ava.cookie });
    expect(res.status).toBe(409);
    expect(await jsonOf(res)).toMatchObject({ code: 'PREVIEW_NOT_READY', message: CHECKOUT.previewNotReady });
    // Without a request id (the oldest ready request) the same.
    const implicit = await app.fetch('/api/checkout', { method: 'POST', json: {}, cookie: ava.cookie });
    expect((await jsonOf(implicit)).message).toBe(CHECKOUT.previewNotReady);
    expect(await app.db.select().from(orders).where(eq(orders.userId, ava.userId))).toHaveLength(0);
  });
});

describe('nothing found', () => {
  it('tells the team once, shows it on the review and the request list, and the family gets no purchase', async () => {
    const [request] = await requestsOf(cleo);
    expect(request!.reel).toEqual({ fromFootage: true, state: 'not_found', previewUrl: null });
    const mail = await eventually(async () => teamMails('Nothing found')[0], 10_000);
    expect(mail.text).toContain('Cleo Park');
    expect(linkIn(mail)).toBe(`${app.origin}/admin/requests/${cleoRequest}`);
    // The team can answer the family straight from it.
    expect(mail.replyTo).toContain(cleo.email);
    // Ava was found: no such mail about her.
    expect(teamMails('Nothing found').filter((m) => m.subject.includes('Ava'))).toHaveLength(0);

    const review = await jsonOf<{ request: { nothingFound: boolean } }>(await app.fetch(`/api/admin/requests/${cleoRequest}/review`, { cookie: admin.cookie }));
    expect(review.request.nothingFound).toBe(true);
    const avaReview = await jsonOf<{ request: { nothingFound: boolean } }>(await app.fetch(`/api/admin/requests/${avaRequest}/review`, { cookie: admin.cookie }));
    expect(avaReview.request.nothingFound).toBe(false);
    const users = await jsonOf<{ users: Array<{ id: string; requests: Array<{ id: string; nothingFound: boolean }> }> }>(await app.fetch('/api/admin/users', { cookie: admin.cookie }));
    expect(users.users.find((u) => u.id === cleo.userId)!.requests[0]!.nothingFound).toBe(true);
    expect(users.users.find((u) => u.id === ava.userId)!.requests[0]!.nothingFound).toBe(false);

    const res = await app.fetch('/api/checkout', { method: 'POST', json: { requestId: cleoRequest }, cookie: cleo.cookie });
    expect(res.status).toBe(409);
    expect((await jsonOf(res)).message).toBe(CHECKOUT.previewNotReady);
    expect(await app.db.select().from(orders).where(eq(orders.userId, cleo.userId))).toHaveLength(0);
  });

  const matchedAt = async () => (await app.db.select({ at: highlightRequests.matchedAt }).from(highlightRequests).where(eq(highlightRequests.id, cleoRequest)))[0]!.at!.getTime();

  it('a new reference photo matches again (the card says "finding" meanwhile), and the team is not mailed twice', async () => {
    const before = await matchedAt();
    await addReference(cleo, 'cleo', 'cleo-2.jpg');
    // The match job is quick here: either it still runs (finding) or it has run again.
    const state = (await requestsOf(cleo))[0]!.reel.state;
    if (state !== 'finding') expect(await matchedAt()).toBeGreaterThan(before);
    await eventually(async () => (await matched(cleoRequest)) && (await matchedAt()) > before, 30_000);
    expect((await requestsOf(cleo))[0]!.reel.state).toBe('not_found');
    await new Promise((r) => setTimeout(r, 1000));
    expect(teamMails('Nothing found')).toHaveLength(1);
  });

  it('the admin matching again takes it out of that state too', async () => {
    const before = await matchedAt();
    expect((await app.fetch(`/api/admin/requests/${cleoRequest}/match`, { method: 'POST', cookie: admin.cookie })).status).toBe(202);
    const state = (await requestsOf(cleo))[0]!.reel.state;
    if (state !== 'finding') expect(await matchedAt()).toBeGreaterThan(before);
    await eventually(async () => (await matched(cleoRequest)) && (await matchedAt()) > before, 30_000);
    expect((await requestsOf(cleo))[0]!.reel.state).toBe('not_found');
    // While a match runs (matching_state "matching") the family reads "finding", not "not found".
    await app.db.update(highlightRequests).set({ matchingState: 'matching' }).where(eq(highlightRequests.id, cleoRequest));
    expect((await requestsOf(cleo))[0]!.reel.state).toBe('finding');
    await app.db.update(highlightRequests).set({ matchingState: 'ready' }).where(eq(highlightRequests.id, cleoRequest));
  });

  it('a camera of the event that failed to index is not searched: the family reads "finding" and how many cameras wait, not "not found" (issue 32)', async () => {
    const [file] = await app.db.select().from(footage).limit(1);
    await app.db.update(footage).set({ indexState: 'failed' }).where(eq(footage.id, file!.id));
    try {
      const [request] = await requestsOf(cleo);
      expect(request!.reel).toEqual({ fromFootage: true, state: 'finding', previewUrl: null, camerasNotSearched: 1 });
      const review = await jsonOf<{ request: { nothingFound: boolean; unsearched: Array<{ camera: string; indexState: string }> } }>(await app.fetch(`/api/admin/requests/${cleoRequest}/review`, { cookie: admin.cookie }));
      expect(review.request.nothingFound).toBe(false);
      expect(review.request.unsearched).toMatchObject([{ camera: file!.camera, indexState: 'failed' }]);
    } finally {
      await app.db.update(footage).set({ indexState: 'indexed' }).where(eq(footage.id, file!.id));
    }
    expect((await requestsOf(cleo))[0]!.reel.state).toBe('not_found');
  });
});

describe('the render and its preview', () => {
  let firstRender: string;
  let previewUrl: string;

  it('makes a short, small preview and mails the family once, with a link to it on the dashboard', async () => {
    firstRender = await renderAll(avaRequest);
    const [render] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, firstRender));
    expect(render!.previewKey).toBe(`reel-previews/${ava.userId}/preview-${firstRender}.mp4`);
    const probe = await probeVideo(app.server.deps.storage.localPath(render!.previewKey!)!);
    expect(probe).toMatchObject({ width: PREVIEW_FORMAT.width, height: PREVIEW_FORMAT.height, videoCodec: 'h264' });
    expect(probe.durationSeconds).toBeGreaterThan(1);
    expect(probe.durationSeconds).toBeLessThanOrEqual(PREVIEW_FORMAT.seconds + 0.2);

    const [request] = await requestsOf(ava);
    expect(request!.reel).toEqual({ fromFootage: true, state: 'preview', previewUrl: `/api/media/${render!.previewKey}` });
    previewUrl = request!.reel.previewUrl!;
    const mail = await app.smtp.waitFor(ava.email, READY_MAIL);
    expect(linkIn(mail)).toBe(`${app.origin}/dashboard#reel-preview`);
    expect(mail.text).not.toContain(PROCESSING_TIME);
    expect(mail.text).toContain(PRICES.mail);
    expect(mail.replyTo).toContain(COMPANY.email);
    expect(mailsTo(ava, 'highlight reel is ready')).toHaveLength(0);
  }, 300_000);

  it('serves the preview to its family (with ranges) and admins only; the full files stay hidden', async () => {
    const whole = await app.fetch(previewUrl, { cookie: ava.cookie });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const size = (await whole.arrayBuffer()).byteLength;
    const part = await app.fetch(previewUrl, { cookie: ava.cookie, headers: { range: 'bytes=0-1023' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-1023/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(1024);
    expect((await app.fetch(previewUrl, { cookie: admin.cookie, headers: { range: 'bytes=0-99' } })).status).toBe(206);
    expect((await app.fetch(previewUrl, { cookie: stranger.cookie })).status).toBe(404);
    expect((await app.fetch(previewUrl, { cookie: cleo.cookie })).status).toBe(404);
    expect((await app.fetch(previewUrl)).status).toBe(401);
    // The same name under another family's folder is not theirs either.
    expect((await app.fetch(previewUrl.replace(ava.userId, stranger.userId), { cookie: stranger.cookie })).status).toBe(404);

    // The reel, the social cut and the stills: 404 to the unpaid family, exactly as before.
    for (const kind of ['reel', 'social'] as const) {
      for (const mode of ['stream', 'download']) {
        const res = await app.fetch(`/api/videos/${renderVideoId(firstRender, kind)}/${mode}`, { cookie: ava.cookie, headers: { range: 'bytes=0-99' } });
        expect(res.status).toBe(404);
      }
    }
    expect(await jsonOf<unknown[]>(await app.fetch('/api/videos', { cookie: ava.cookie }))).toEqual([]);
    const stills = await app.db.select().from(userStills).where(eq(userStills.requestId, avaRequest));
    expect(stills.length).toBeGreaterThan(0);
    expect((await app.fetch(`/api/media/${stills[0]!.storageUrl}`, { cookie: ava.cookie })).status).toBe(404);
  });

  it('a second render replaces the preview and sends no second mail', async () => {
    const second = await renderAll(avaRequest);
    const [render] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, second));
    const [old] = await app.db.select().from(reelRenders).where(eq(reelRenders.id, firstRender));
    expect(old!.previewKey).toBeNull();
    // The old file goes right after the swap's transaction.
    await eventually(async () => app.server.deps.storage.localPath(`reel-previews/${ava.userId}/preview-${firstRender}.mp4`) === null, 10_000);
    expect((await app.fetch(previewUrl, { cookie: ava.cookie })).status).toBe(404);
    previewUrl = `/api/media/${render!.previewKey}`;
    expect((await requestsOf(ava))[0]!.reel.previewUrl).toBe(previewUrl);
    expect((await app.fetch(previewUrl, { cookie: ava.cookie })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo(ava, READY_MAIL)).toHaveLength(1);
  }, 300_000);

  it('paying unlocks the full files at once; the receipt promises no 7-10 days', async () => {
    await app.db.insert(promoCodes).values({ code: 'PREVIEWFREE', discountPercent: 100, active: true });
    const paid = await app.fetch('/api/checkout', { method: 'POST', json: { requestId: avaRequest, promoCode: 'PREVIEWFREE' }, cookie: ava.cookie });
    expect(paid.status).toBe(200);
    const list = await jsonOf<Array<{ streamUrl: string }>>(await app.fetch('/api/videos', { cookie: ava.cookie }));
    expect(list).toHaveLength(2);
    for (const v of list) expect((await app.fetch(v.streamUrl, { cookie: ava.cookie, headers: { range: 'bytes=0-99' } })).status).toBe(206);
    const stills = await app.db.select().from(userStills).where(and(eq(userStills.requestId, avaRequest), eq(userStills.isVisible, true)));
    expect((await app.fetch(`/api/media/${stills[0]!.storageUrl}`, { cookie: ava.cookie })).status).toBe(200);
    const receipt = await app.smtp.waitFor(ava.email, 'order is confirmed');
    expect(receipt.text).not.toContain(PROCESSING_TIME);
    // The family can answer the receipt: the reply goes to the address on the Contact page.
    expect(receipt.replyTo).toContain(COMPANY.email);
    await app.smtp.waitFor(ava.email, 'highlight reel is ready');
    expect(mailsTo(ava, READY_MAIL)).toHaveLength(1);
  }, 60_000);
});
