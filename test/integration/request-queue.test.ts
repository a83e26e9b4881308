// The admins' work queue (issue 36 item 1): every request with where it stands and how long it has
// waited, filtered by state and event, searched; the admin home's counts; several approved at
// once; bad input refused with its message and nothing changed; only admins.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../src/common/admin-messages';
import { highlightRequests, orders, reelRenders } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertPerson, makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

type Row = { id: string; athlete: string; email: string; event: string; games: string[]; state: string; paid: boolean; waitingSince: string };
type Page = { requests: Row[]; total: number; page: number; pageSize: number };

let app: TestApp;
let admin: Awaited<ReturnType<typeof createVerifiedUser>>;
let family: Awaited<ReturnType<typeof createVerifiedUser>>;
const ids = {} as Record<'older' | 'newer' | 'matching' | 'review' | 'rendered' | 'paid' | 'delivered', string>;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  await makeAdmin(app, admin.userId);
  family = await createVerifiedUser(app, { fullName: 'Fay Family' });
  // One request in each state, at two events; two wait for approval, the older first.
  const request = async (name: string, email: string, values: Partial<typeof highlightRequests.$inferInsert>) => {
    const [first, last] = name.split(' ');
    const userId = await insertPerson(app, { firstName: first, lastName: last, email });
    const [row] = await app.db
      .insert(highlightRequests)
      .values({ userId, eventId: 'austin-fall-league-2024', event: 'Austin Fall League', games: ['Game 1'], ...values })
      .returning();
    return row!.id;
  };
  ids.older = await request('Olly Older', 'olly@example.com', { createdAt: hoursAgo(30) });
  ids.newer = await request('Nia Newer', 'nia@example.com', { createdAt: hoursAgo(2), eventId: 'chicago-3v3-2024', event: 'Chicago 3v3', games: [] });
  ids.matching = await request('Max Matching', 'max@example.com', { status: 'ready_to_purchase', matchingState: 'matching', adminAcknowledgedAt: hoursAgo(1) });
  ids.review = await request('Rae Review', 'rae_100%@example.com', { status: 'ready_to_purchase', matchingState: 'ready', matchedAt: hoursAgo(5) });
  ids.rendered = await request('Ren Rendered', 'ren@example.com', { status: 'ready_to_purchase', matchingState: 'ready', matchedAt: hoursAgo(4) });
  await app.db.insert(reelRenders).values({ requestId: ids.rendered, state: 'ready', clips: [] });
  ids.paid = await request('Pia Paid', 'pia@example.com', { status: 'ready_to_purchase', matchingState: 'ready' });
  const [paidBy] = await app.db.select({ userId: highlightRequests.userId }).from(highlightRequests).where(eq(highlightRequests.id, ids.paid));
  await app.db.insert(orders).values({ provider: 'stripe', userId: paidBy!.userId, requestId: ids.paid, amount: 15000, status: 'completed', completedAt: hoursAgo(26) });
  ids.delivered = await request('Dee Delivered', 'dee@example.com', { status: 'delivered' });
});
afterAll(async () => {
  await app?.close();
});

const asAdmin = (pathname: string, init: { method?: string; json?: unknown } = {}) => app.fetch(pathname, { ...init, cookie: admin.cookie });
const list = async (query = '') => jsonOf<Page>(await asAdmin(`/api/admin/requests${query ? `?${query}` : ''}`));

describe('the work queue', () => {
  it('lists every request with the athlete, event, games, state, payment and how long it has waited', async () => {
    const page = await list();
    expect(page.total).toBe(7);
    const byId = new Map(page.requests.map((r) => [r.id, r]));
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, byId.get(id)!.state]))).toEqual({
      older: 'approve',
      newer: 'approve',
      matching: 'matching',
      review: 'review',
      rendered: 'rendered',
      paid: 'paid',
      delivered: 'delivered',
    });
    expect(byId.get(ids.paid)).toMatchObject({ athlete: 'Pia Paid', email: 'pia@example.com', event: 'Austin Fall League', games: ['Game 1'], paid: true });
    expect(byId.get(ids.review)!.paid).toBe(false);
    // Waiting since it was asked for, matched, or paid.
    expect(ADMIN.queue.waited(byId.get(ids.older)!.waitingSince)).toBe('30 h');
    expect(ADMIN.queue.waited(byId.get(ids.review)!.waitingSince)).toBe('5 h');
    expect(ADMIN.queue.waited(byId.get(ids.paid)!.waitingSince)).toBe('26 h');
  });

  it('filters by state (the longest waiting first) and event, and searches the athlete and the e-mail', async () => {
    expect((await list('state=approve')).requests.map((r) => r.id)).toEqual([ids.older, ids.newer]);
    expect((await list('state=paid')).requests.map((r) => r.id)).toEqual([ids.paid]);
    expect((await list('event=chicago-3v3-2024')).requests.map((r) => r.id)).toEqual([ids.newer]);
    expect((await list('q=ren%20rend')).requests.map((r) => r.id)).toEqual([ids.rendered]);
    expect((await list('q=PIA%40EXAMPLE')).requests.map((r) => r.id)).toEqual([ids.paid]);
    // The event is its own filter, not a search.
    expect((await list('q=chicago')).total).toBe(0);
    // A % is a character, not a wildcard.
    expect((await list('q=100%25')).requests.map((r) => r.id)).toEqual([ids.review]);
    expect((await list('q=zzz')).total).toBe(0);
  });

  it('gives the admin home the counts of what needs someone', async () => {
    const stats = await jsonOf<{ queue: Record<string, number> }>(await asAdmin('/api/admin/stats'));
    expect(stats.queue).toEqual({ approve: 2, matching: 1, review: 1, rendered: 1, paid: 1, delivered: 0 });
    expect(ADMIN.queue.needs(stats.queue as { approve: number; review: number; paid: number })).toBe('2 to approve, 1 to review, 1 paid and waiting');
  });

  it('refuses bad input with its message and changes nothing; only admins may look or approve', async () => {
    const before = await app.db.select().from(highlightRequests);
    for (const query of ['state=bogus', 'page=0', `q=${'x'.repeat(201)}`]) {
      const res = await asAdmin(`/api/admin/requests?${query}`);
      expect(res.status, query).toBe(400);
      expect(await jsonOf(res)).toMatchObject({ message: ADMIN.queue.loadFailed });
    }
    for (const json of [{}, { ids: [] }, { ids: ['nope'] }, { ids: Array.from({ length: 51 }, () => ids.older) }, { ids: [ids.older], extra: 1 }]) {
      const res = await asAdmin('/api/admin/requests/approve', { method: 'POST', json });
      expect(res.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect(await jsonOf(res)).toMatchObject({ message: ADMIN.queue.approveInvalid });
    }
    for (const cookie of [family.cookie, undefined]) {
      expect((await app.fetch('/api/admin/requests', { cookie })).status).toBe(cookie ? 403 : 401);
      expect((await app.fetch('/api/admin/requests/approve', { method: 'POST', json: { ids: [ids.older] }, cookie })).status).toBe(cookie ? 403 : 401);
    }
    expect(await app.db.select().from(highlightRequests)).toEqual(before);
  });

  it('approves several at once, each as the one-by-one approval does, and says which could not be', async () => {
    const res = await asAdmin('/api/admin/requests/approve', { method: 'POST', json: { ids: [ids.older, ids.newer, ids.delivered] } });
    expect(res.status).toBe(200);
    const body = await jsonOf<{ approved: string[]; refused: Array<{ id: string; message: string }> }>(res);
    expect(body.approved.sort()).toEqual([ids.older, ids.newer].sort());
    expect(body.refused.map((r) => r.id)).toEqual([ids.delivered]);
    expect(body.refused[0]!.message).toBeTruthy();
    const rows = await app.db.select().from(highlightRequests).where(inArray(highlightRequests.id, [ids.older, ids.newer]));
    expect(rows.map((r) => [r.status, r.adminAcknowledgedBy])).toEqual([
      ['ready_to_purchase', admin.userId],
      ['ready_to_purchase', admin.userId],
    ]);
    expect((await list('state=approve')).total).toBe(0);
    expect((await list('state=matching')).total).toBeGreaterThanOrEqual(1);
  });
});
