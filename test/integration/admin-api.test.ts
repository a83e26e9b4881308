// The admin API (issue 8): who may call it (every route, read from the router), the portal's
// counts, the users list (search, filters, sort, paging), request transitions, deleting a
// video, replacing stills, orders, the waiting list and failed jobs.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, ACCESS_DENIED } from '../../src/common/messages';
import { ADMIN } from '../../src/common/admin-messages';
import { createApp } from '../../src/server/app';
import { auditLog, highlightRequests, homepageSignups, orders, userStills, userVideos } from '../../src/server/db/schema';
import { storageKeys } from '../../src/server/storage/keys';
import { cookiesFrom, createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { asJpeg, insertPerson, insertStill, insertVideo, jpeg, jpegWithGps, makeAdmin, noisyPng, readStored, storageOf } from '../support/dashboard-fixtures';
import { gpsTagsIn } from '../support/exif';
import { jsonOf } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let admin: User;
let member: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  await makeAdmin(app, admin.userId);
  member = await createVerifiedUser(app, { fullName: 'Mia Member' });
});
afterAll(async () => {
  await app?.close();
});

const asAdmin = (pathname: string, init: RequestInit & { json?: unknown } = {}) => app.fetch(pathname, { ...init, cookie: admin.cookie });

/** How much of everything there is: a route refused must leave all of it as it was. */
async function snapshot() {
  const count = async (table: string) => (await app.db.execute(sql.raw(`SELECT count(*)::int AS n FROM "${table}"`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
  const tables = ['user', 'admins', 'user_videos', 'user_stills', 'highlight_requests', 'orders', 'audit_log', 'session'];
  const counts = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)])));
  const states = await app.db.select({ id: highlightRequests.id, status: highlightRequests.status }).from(highlightRequests);
  const archived = await app.db.select({ id: homepageSignups.id, archivedAt: homepageSignups.archivedAt }).from(homepageSignups);
  return { counts, states, archived };
}

describe('who may call the admin API', () => {
  /** Every admin route of the app's router, with a made-up id where it takes one. */
  function adminRoutes() {
    const seen = new Set<string>();
    return createApp(app.server.deps)
      .routes.filter((r) => r.path.startsWith('/api/admin/') && !r.path.endsWith('/*'))
      .flatMap((r) => (r.method === 'ALL' ? ['POST', 'PATCH', 'HEAD', 'DELETE'] : [r.method]).map((method) => ({ method, path: r.path })))
      .map((r) => ({ method: r.method, path: r.path.replace(/:name/, 'mail.deliver').replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000') }))
      .filter((r) => (seen.has(`${r.method} ${r.path}`) ? false : (seen.add(`${r.method} ${r.path}`), true)));
  }

  it('every admin route refuses a visitor (401), a member (403) and an admin viewing as a user (403), and changes nothing', async () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(16);
    // An admin viewing the site as the member: the session is the member's.
    const start = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: member.userId } });
    expect(start.status).toBe(200);
    const viewing = cookiesFrom(start);
    const before = await snapshot();
    for (const route of routes) {
      const init = { method: route.method, json: ['POST', 'PATCH'].includes(route.method) ? { userId: member.userId } : undefined };
      const visitor = await app.fetch(route.path, init);
      expect(visitor.status, `visitor ${route.method} ${route.path}`).toBe(401);
      if (route.method !== 'HEAD') expect(await jsonOf(visitor)).toMatchObject({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description });
      for (const [who, cookie] of [['member', member.cookie], ['admin viewing as a user', viewing]] as const) {
        const res = await app.fetch(route.path, { ...init, cookie });
        expect(res.status, `${who} ${route.method} ${route.path}`).toBe(403);
        if (route.method !== 'HEAD') expect(await jsonOf(res)).toMatchObject({ code: 'NOT_ADMIN', message: ACCESS_DENIED.description });
      }
    }
    expect(await snapshot()).toEqual(before);
    await app.fetch('/api/auth/impersonation/stop', { method: 'POST', cookie: `${admin.cookie}; ${viewing}` });
  });
});

describe('the portal', () => {
  it('counts users, new users this week, and paid orders in all and this week', async () => {
    const before = await jsonOf<Record<string, number>>(await asAdmin('/api/admin/stats'));
    const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    await insertPerson(app, { firstName: 'Old', lastName: 'Timer', createdAt: old });
    await insertPerson(app, { firstName: 'New', lastName: 'Comer' });
    await app.db.insert(orders).values([
      { provider: 'stripe', userId: member.userId, amount: 15000, status: 'completed' },
      { provider: 'stripe', userId: member.userId, amount: 15000, status: 'completed', createdAt: old },
      { provider: 'stripe', userId: member.userId, amount: 15000, status: 'pending' },
    ]);
    // A family made an admin is the provider's now: not counted among the users.
    const staff = await insertPerson(app, { firstName: 'New', lastName: 'Staff' });
    await makeAdmin(app, staff);
    const after = await jsonOf<Record<string, number>>(await asAdmin('/api/admin/stats'));
    expect(after).toEqual({
      totalUsers: before.totalUsers! + 2,
      newThisWeek: before.newThisWeek! + 1,
      totalOrders: before.totalOrders! + 2,
      recentOrders: before.recentOrders! + 1,
      // Orders of no request: nothing waits for a reel.
      paidWaiting: { count: 0, oldest: [] },
      queue: before.queue,
    });
  });
});

describe('the users list', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {
      alvarez: await insertPerson(app, { firstName: 'José', lastName: 'Álvarez', email: 'jose.alvarez@example.com', phone: '(512) 555-0100' }),
      zed: await insertPerson(app, { firstName: 'Zoe', lastName: 'Zed', email: 'zoe.zed@example.com', phone: null }),
      blank: await insertPerson(app, { firstName: '', lastName: '', email: 'no.name.person@example.com', phone: null }),
      baker: await insertPerson(app, { firstName: 'Ben', lastName: 'baker', email: 'ben.baker@example.com', phone: '737-555-0199' }),
      percent: await insertPerson(app, { firstName: '100%', lastName: 'Effort_', email: 'effort@example.com' }),
    };
    await app.db.insert(highlightRequests).values([
      { userId: ids.zed!, status: 'pending', eventId: 'chicago-3v3-2024', event: 'Chicago 3v3' },
      { userId: ids.zed!, status: 'delivered', eventId: 'austin-fall-league-2024', event: 'Austin Fall' },
      { userId: ids.baker!, status: 'ready_to_purchase', eventId: 'chicago-3v3-2024', event: 'Chicago 3v3' },
    ]);
    await insertVideo(app, ids.alvarez!, { videoTitle: 'Older' }, { bytes: null });
    await insertVideo(app, ids.alvarez!, { videoTitle: 'Newer', createdAt: new Date(Date.now() + 1000) }, { bytes: null });
  });

  type Page = { total: number; users: Array<{ id: string; firstName: string; lastName: string; email: string; phone: string | null; requests: Array<{ status: string }>; videos: Array<{ title: string }> }> };
  const list = async (query: string) => jsonOf<Page>(await asAdmin(`/api/admin/users?${query}`));

  it('finds a case-insensitive substring of the full name, e-mail or phone (digits alone too)', async () => {
    expect((await list('q=josé álv')).users.map((u) => u.id)).toEqual([ids.alvarez]);
    expect((await list('q=ÁLVAREZ')).users.map((u) => u.id)).toEqual([ids.alvarez]);
    expect((await list('q=ZOE.ZED@EXAMPLE')).users.map((u) => u.id)).toEqual([ids.zed]);
    expect((await list('q=555-0199')).users.map((u) => u.id)).toEqual([ids.baker]);
    expect((await list('q=5125550100')).users.map((u) => u.id)).toEqual([ids.alvarez]);
    // LIKE's own characters are taken as they are.
    expect((await list('q=100%25')).users.map((u) => u.id)).toEqual([ids.percent]);
    expect((await list('q=effort_')).users.map((u) => u.id)).toEqual([ids.percent]);
    expect((await list('q=nobody-has-this')).total).toBe(0);
  });

  it('filters are OR-ed: submitted (pending), approved (ready to purchase), delivered (a delivered request or a video)', async () => {
    const only = (page: Page) => page.users.map((u) => u.id).filter((id) => Object.values(ids).includes(id)).sort();
    expect(only(await list('filters=submitted'))).toEqual([ids.zed].sort());
    expect(only(await list('filters=approved'))).toEqual([ids.baker].sort());
    // Zed's Austin request is delivered (no video yet): the card says Delivered, and so does the filter.
    expect(only(await list('filters=delivered'))).toEqual([ids.alvarez, ids.zed].sort());
    expect(only(await list('filters=submitted,approved'))).toEqual([ids.zed, ids.baker].sort());
    expect(only(await list('filters=submitted,approved,delivered&q=example.com'))).toEqual([ids.zed, ids.baker, ids.alvarez].sort());
    expect(only(await list('filters=nonsense'))).toEqual(Object.values(ids).sort());
  });

  it('sorts by last name, any letter case, and pages on the server', async () => {
    const page = await list('q=example.com');
    const names = page.users.map((u) => u.lastName.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || 0).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const all = await list('');
    expect(all.total).toBeGreaterThan(5);
    expect(all.users.length).toBeLessThanOrEqual(25);
    const far = await list('page=999');
    expect(far.users).toEqual([]);
  });

  it('each user comes with their requests and their videos, newest first', async () => {
    const [zed] = (await list('q=zoe.zed')).users;
    expect(zed!.requests.map((r) => r.status).sort()).toEqual(['delivered', 'pending']);
    const [jose] = (await list('q=jose.alvarez')).users;
    expect(jose!.videos.map((v) => v.title)).toEqual(['Newer', 'Older']);
    expect(jose!.phone).toBe('(512) 555-0100');
    const [blank] = (await list('q=no.name.person')).users;
    expect(blank).toMatchObject({ firstName: '', lastName: '', phone: null });
  });
});

describe('request transitions', () => {
  const move = (id: string, m: string) => asAdmin(`/api/admin/requests/${id}/${m}`, { method: 'POST' });
  const state = async (id: string) => (await app.db.select().from(highlightRequests).where(eq(highlightRequests.id, id)))[0]!;

  it('pending → ready to purchase → pending → ready → delivered, recording who and when; illegal jumps change nothing', async () => {
    const athlete = await insertPerson(app, { firstName: 'Rae', lastName: 'Quest' });
    const [req] = await app.db.insert(highlightRequests).values({ userId: athlete, eventId: 'chicago-3v3-2024', event: 'Chicago 3v3' }).returning();
    const id = req!.id;

    // Not from pending: undo and deliver are refused.
    for (const m of ['undo', 'deliver']) {
      const res = await move(id, m);
      expect(res.status, m).toBe(409);
      expect(await jsonOf(res)).toEqual({ code: 'STATE_CHANGED', message: ADMIN.requestToasts.changed });
    }
    expect(await state(id)).toMatchObject({ status: 'pending', adminAcknowledgedAt: null });

    const before = Date.now();
    expect((await move(id, 'acknowledge')).status).toBe(200);
    const acknowledged = await state(id);
    expect(acknowledged).toMatchObject({ status: 'ready_to_purchase', adminAcknowledgedBy: admin.userId });
    expect(acknowledged.adminAcknowledgedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // A second admin pressing the same button is told it changed.
    expect((await move(id, 'acknowledge')).status).toBe(409);

    expect((await move(id, 'undo')).status).toBe(200);
    expect(await state(id)).toMatchObject({ status: 'pending', adminAcknowledgedAt: null, adminAcknowledgedBy: null });

    expect((await move(id, 'acknowledge')).status).toBe(200);
    expect((await move(id, 'deliver')).status).toBe(200);
    expect(await state(id)).toMatchObject({ status: 'delivered' });
    for (const m of ['acknowledge', 'undo', 'deliver']) expect((await move(id, m)).status).toBe(409);

    const actions = (await app.db.select().from(auditLog).where(eq(auditLog.subjectUserId, athlete))).map((a) => a.action);
    expect(actions).toEqual(['request.acknowledge', 'request.undo', 'request.acknowledge', 'request.deliver']);
  });

  it("an admin's stream hears every user's request changes, with the user; a member's only their own", async () => {
    const open = async (cookie: string) => {
      const res = await fetch(`${app.url}/api/realtime/stream`, { headers: { cookie } });
      const reader = res.body!.getReader();
      const state = { text: '' };
      const decoder = new TextDecoder();
      while (!state.text.includes('event: ready')) state.text += decoder.decode((await reader.read()).value);
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          state.text += decoder.decode(value);
        }
      })();
      return { state, close: () => reader.cancel() };
    };
    const adminStream = await open(admin.cookie);
    const memberStream = await open(member.cookie);
    const someone = await insertPerson(app, { firstName: 'Live', lastName: 'Wire' });
    const [req] = await app.db.insert(highlightRequests).values({ userId: someone, eventId: 'chicago-3v3-2024', event: 'Chicago 3v3' }).returning();
    expect((await move(req!.id, 'acknowledge')).status).toBe(200);
    await expect.poll(() => adminStream.state.text.includes(req!.id)).toBe(true);
    expect(adminStream.state.text).toContain(`"userId":"${someone}"`);
    await new Promise((r) => setTimeout(r, 300));
    expect(memberStream.state.text).not.toContain(req!.id);
    await adminStream.close();
    await memberStream.close();
  });

  it('an unknown or malformed request id is a 404', async () => {
    expect((await move('00000000-0000-4000-8000-000000000000', 'acknowledge')).status).toBe(404);
    expect((await move('not-a-uuid', 'acknowledge')).status).toBe(404);
  });

  it("the athlete's live stream hears the change", async () => {
    const res = await fetch(`${app.url}/api/realtime/stream`, { headers: { cookie: member.cookie } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: ready')) text += decoder.decode((await reader.read()).value);
    const [req] = await app.db.insert(highlightRequests).values({ userId: member.userId, eventId: 'chicago-3v3-2024', event: 'Chicago 3v3' }).returning();
    expect((await move(req!.id, 'acknowledge')).status).toBe(200);
    while (!text.includes(req!.id)) text += decoder.decode((await reader.read()).value);
    expect(text).toContain(`{"topic":"highlight_requests","action":"update","id":"${req!.id}"}`);
    await reader.cancel();
  });
});

describe('deleting a video', () => {
  it('removes the row, the file, the thumbnail and any original; a second delete is a 404', async () => {
    const athlete = await insertPerson(app, { firstName: 'Del', lastName: 'Ete' });
    const video = await insertVideo(app, athlete);
    const thumb = storageKeys.videoThumbnail(athlete, video.id);
    const source = storageKeys.videoSource(athlete, video.id);
    await storageOf(app).put(thumb, await jpeg(), 'image/jpeg');
    await storageOf(app).put(source, Buffer.from('original'), 'application/octet-stream');
    await app.db.update(userVideos).set({ thumbnailUrl: thumb, sourceKey: source }).where(eq(userVideos.id, video.id));

    const res = await asAdmin(`/api/admin/videos/${video.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await app.db.select().from(userVideos).where(eq(userVideos.id, video.id))).toEqual([]);
    for (const key of [video.key!, thumb, source]) expect(await storageOf(app).stat(key)).toBeNull();
    expect((await asAdmin(`/api/admin/videos/${video.id}`, { method: 'DELETE' })).status).toBe(404);
    const [entry] = await app.db.select().from(auditLog).where(and(eq(auditLog.subjectUserId, athlete), eq(auditLog.action, 'video.delete')));
    expect(entry).toMatchObject({ actorId: admin.userId, details: { videoId: video.id, title: 'Game Highlights' } });
  });
});

describe('stills for a user', () => {
  const send = (userId: string, files: Array<{ bytes: Buffer; name: string; type: string }>) => {
    const form = new FormData();
    for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
    return app.fetch(`/api/admin/users/${userId}/stills`, { method: 'POST', body: form, cookie: admin.cookie });
  };
  const stillsOf = (userId: string) => app.db.select().from(userStills).where(eq(userStills.userId, userId)).orderBy(userStills.orderPosition);

  it('stores up to three, in order, re-encoded without metadata, and replaces the previous set whole', async () => {
    const athlete = await insertPerson(app, { firstName: 'Still', lastName: 'Life' });
    const old = await insertStill(app, athlete, 0, 'old.jpg');
    const res = await send(athlete, [asJpeg(await jpegWithGps(), 'first.jpg'), asJpeg(await jpeg(900, 600, '#aa3300'), 'second.jpeg')]);
    expect(res.status).toBe(201);
    expect(await jsonOf(res)).toEqual({ count: 2 });
    const rows = await stillsOf(athlete);
    expect(rows.map((r) => [r.orderPosition, r.originalFilename])).toEqual([[0, 'first.jpg'], [1, 'second.jpg']]);
    const stored = await readStored(storageOf(app), rows[0]!.storageUrl);
    expect(gpsTagsIn(stored)).toEqual([]);
    expect(await storageOf(app).stat(old.key)).toBeNull();
  });

  it('refuses the spec\'s cases with their texts and keeps the old set exactly', async () => {
    const athlete = await insertPerson(app, { firstName: 'Keep', lastName: 'Safe' });
    const kept = await insertStill(app, athlete, 0, 'kept.jpg');
    const good = asJpeg(await jpeg(), 'ok.jpg');
    const heic = { bytes: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]), name: 'IMG_0001.HEIC', type: 'image/heic' };
    const cases: Array<[string, Array<typeof good>, number, string, string]> = [
      ['no file', [], 400, ADMIN.stills.noFiles, ADMIN.stills.noFilesText],
      ['four files', [good, good, good, good], 400, ADMIN.stills.tooMany, ADMIN.stills.tooManyText],
      ['a HEIC photo among good ones', [good, heic], 400, ADMIN.stills.invalidType, ADMIN.stills.heic],
      ['a text file named .png', [good, { bytes: Buffer.from('not a picture'), name: 'x.png', type: 'image/png' }], 400, ADMIN.stills.invalidType, ADMIN.stills.heic],
      ['a photo over 5MB', [{ bytes: await noisyPng(5 * 1024 * 1024 + 1), name: 'big.png', type: 'image/png' }], 413, ADMIN.stills.invalidType, ADMIN.stills.tooLarge],
    ];
    for (const [what, files, status, title, message] of cases) {
      const res = await send(athlete, files);
      expect(res.status, what).toBe(status);
      expect(await jsonOf(res), what).toMatchObject({ title, message });
    }
    const rows = await stillsOf(athlete);
    expect(rows.map((r) => r.storageUrl)).toEqual([kept.key]);
    expect(await readStored(storageOf(app), kept.key)).toEqual(kept.bytes);
    expect((await storageOf(app).list(`user-stills/${athlete}/`)).length).toBe(1);
  });

  it('a user that does not exist gets nothing stored', async () => {
    const res = await send('no-such-user', [asJpeg(await jpeg())]);
    expect(res.status).toBe(404);
  });
});

describe('orders', () => {
  it('lists every order newest first, with the customer or Unknown User, amounts in cents', async () => {
    const buyer = await insertPerson(app, { firstName: 'Olive', lastName: 'Order', email: 'olive.order@example.com' });
    await app.db.insert(orders).values([
      { provider: 'stripe', userId: buyer, amount: 11250, status: 'completed', stripePaymentId: 'pi_1', createdAt: new Date(Date.now() + 5000) },
      { provider: 'stripe', userId: buyer, amount: 15000, status: 'pending', createdAt: new Date(Date.now() + 4000) },
    ]);
    const page = await jsonOf<{ total: number; orders: Array<Record<string, unknown>> }>(await asAdmin('/api/admin/orders'));
    expect(page.orders.slice(0, 2)).toEqual([
      expect.objectContaining({ amount: 11250, status: 'completed', paymentId: 'pi_1', customerName: 'Olive Order', email: 'olive.order@example.com' }),
      expect.objectContaining({ amount: 15000, status: 'pending', paymentId: null }),
    ]);
    expect(page.total).toBeGreaterThanOrEqual(page.orders.length);
  });
});

describe('the waiting list', () => {
  it('lists homepage sign-ups, exports them as CSV safe for spreadsheets, and archives them without losing any', async () => {
    await app.db.insert(homepageSignups).values([
      { firstName: 'Wes', lastName: 'Waiting', email: 'wes.waiting@example.com' },
      { firstName: '=HYPERLINK("http://evil")', lastName: 'X', email: 'formula@example.com' },
    ]);
    const list = await jsonOf<{ total: number; entries: Array<{ name: string; email: string; createdAt: string }> }>(await asAdmin('/api/admin/waiting-list'));
    expect(list.total).toBe(list.entries.length);
    expect(list.entries.map((e) => e.email)).toEqual(expect.arrayContaining(['wes.waiting@example.com', 'formula@example.com']));

    const csv = await asAdmin('/api/admin/waiting-list.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="waiting-list-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('Name,Email,Date,Registered');
    expect(text).toContain(`"'=HYPERLINK(""http://evil"") X"`);

    // As the page does: up to the newest entry it shows, in the server's time. The database
    // keeps microseconds, the list milliseconds: that newest entry is archived all the same.
    const seenAt = list.entries[0]!.createdAt;
    const [later] = await app.db.insert(homepageSignups).values({ firstName: 'Late', lastName: 'Arrival', email: 'late@example.com', createdAt: new Date(Date.now() + 60_000) }).returning();
    const archived = await jsonOf<{ archived: number }>(await asAdmin('/api/admin/waiting-list/archive', { method: 'POST', json: { upTo: seenAt } }));
    expect(archived.archived).toBe(list.total);
    const after = await jsonOf<{ entries: Array<{ id: string }> }>(await asAdmin('/api/admin/waiting-list'));
    expect(after.entries.map((e) => e.id)).toEqual([later!.id]);
    // Archived, never deleted.
    expect((await app.db.select().from(homepageSignups)).length).toBe(list.total + 1);
  });

  it('archives nothing when the request does not say up to when the list was seen', async () => {
    await app.db.insert(homepageSignups).values({ firstName: 'Nora', lastName: 'Notyet', email: 'nora.notyet@example.com' });
    const open = async () => (await app.db.select({ id: homepageSignups.id }).from(homepageSignups).where(sql`${homepageSignups.archivedAt} is null`)).length;
    const archives = async () => (await app.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, 'waiting-list.archive'))).length;
    const before = await open();
    const archivesBefore = await archives();
    expect(before).toBeGreaterThan(0);
    // JSON null used to answer 500; the others used to archive everything up to now.
    const bodies = ['null', '[]', '"2026-01-01"', 'not json', '{}', '{"upTo":5}', '{"upTo":"the day before"}', '{"upTo":null}'];
    for (const body of bodies) {
      const res = await asAdmin('/api/admin/waiting-list/archive', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect(await res.json()).toEqual({ code: 'VALIDATION_ERROR', message: ADMIN.waitingList.archiveNeedsMoment });
    }
    expect(await open()).toBe(before);
    expect(await archives()).toBe(archivesBefore);
  });
});

describe('failed jobs', () => {
  it('are listed for admins with their error, and can be run again', async () => {
    const athlete = await insertPerson(app, { firstName: 'Fay', lastName: 'Ling' });
    const video = await insertVideo(app, athlete, { processingState: 'queued' }, { bytes: null });
    const jobId = await app.server.deps.jobs.send(
      'media.process-video',
      { videoId: video.id, uploadKey: storageKeys.videoSource(athlete, video.id) },
      { retryLimit: 0 },
    );
    await expect.poll(async () => (await app.server.deps.jobs.state('media.process-video', jobId))?.state, { timeout: 15_000 }).toBe('failed');
    const failed = await jsonOf<Array<{ id: string; name: string; error: string }>>(await asAdmin('/api/admin/jobs/failed'));
    expect(failed.find((j) => j.id === jobId)).toMatchObject({ name: 'media.process-video', error: 'The uploaded file is missing.' });
    expect((await app.db.select().from(userVideos).where(eq(userVideos.id, video.id)))[0]).toMatchObject({
      processingState: 'failed',
      processingError: 'The uploaded file is missing.',
    });
    expect((await asAdmin(`/api/admin/jobs/media.process-video/${jobId}/retry`, { method: 'POST' })).status).toBe(200);
    await expect.poll(async () => (await app.server.deps.jobs.state('media.process-video', jobId))?.retryCount, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect((await asAdmin(`/api/admin/jobs/no.such.job/${jobId}/retry`, { method: 'POST' })).status).toBe(404);
  });
});
