// The orders screen's search, filters, totals and CSV file (issue 36 item 3): a family's orders
// found by the athlete, the family's account holder, an e-mail, a promo code or the order id;
// filtered by status, event and days in the admin's time zone; totalled per day and per event;
// refused with the exact words for bad input; only for admins.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_FILTERS } from '../../src/common/admin-messages';
import { events, highlightRequests, orders, refunds, userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertPerson, makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

let app: TestApp;
let admin: Awaited<ReturnType<typeof createVerifiedUser>>;
let member: Awaited<ReturnType<typeof createVerifiedUser>>;
const ids: Record<string, string> = {};

type Totals = { orders: number; grossCents: number; refundedCents: number; netCents: number };
type Page = {
  total: number;
  orders: Array<{ id: string; customerName: string | null; athleteName: string | null; email: string | null; event: string | null; status: string }>;
  totals: Totals & { byDay: Array<Totals & { day: string }>; byEvent: Array<Totals & { eventId: string | null; event: string | null }> };
};

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Olga Orders' });
  await makeAdmin(app, admin.userId);
  member = await createVerifiedUser(app);
  await app.db.insert(events).values([
    { id: 'ev-spring', name: 'Spring Cup', location: 'Field 1', dates: 'March 2026' },
    { id: 'ev-fall', name: 'Fall Classic', location: 'Field 2', dates: 'October 2026' },
  ]);
  // A family account (Maria Quinones) with an added athlete (Leo), and a family of one (Sam Ortiz).
  const parent = await insertPerson(app, { firstName: 'Maria', lastName: 'Quinones', email: 'maria.q@example.com' });
  // An added athlete's profile carries the family's address (family/athletes.ts).
  const leo = await insertPerson(app, { firstName: 'Leo', lastName: 'Quinones', email: 'leo@athletes.invalid' });
  await app.db.update(userProfiles).set({ familyId: parent, email: 'maria.q@example.com' }).where(eq(userProfiles.id, leo));
  const sam = await insertPerson(app, { firstName: 'Sam', lastName: 'Ortiz', email: 'sam.ortiz@example.com' });
  const request = async (userId: string, eventId: string, event: string) =>
    (await app.db.insert(highlightRequests).values({ userId, eventId, event, status: 'ready_to_purchase' }).returning())[0]!.id;
  const order = async (key: string, values: Partial<typeof orders.$inferInsert> & { userId: string; amount: number }) => {
    const [row] = await app.db.insert(orders).values({ provider: 'stripe', status: 'completed', ...values }).returning();
    ids[key] = row!.id;
  };
  // Paid at 01:30 UTC on 2 March: still 1 March in New York.
  await order('leoSpring', { userId: leo, requestId: await request(leo, 'ev-spring', 'Spring Cup'), amount: 15000, createdAt: new Date('2026-03-02T01:20:00Z'), completedAt: new Date('2026-03-02T01:30:00Z'), stripePaymentId: 'pi_leo_1' });
  await order('samSpring', { userId: sam, requestId: await request(sam, 'ev-spring', 'Spring Cup'), amount: 12000, discountCents: 3000, promoCode: 'SPRING20', createdAt: new Date('2026-03-02T15:00:00Z'), completedAt: new Date('2026-03-02T15:05:00Z'), refundedCents: 2000 });
  await order('samFall', { userId: sam, requestId: await request(sam, 'ev-fall', 'Fall Classic'), amount: 15000, status: 'refunded', refundedCents: 15000, createdAt: new Date('2026-10-10T12:00:00Z'), completedAt: new Date('2026-10-10T12:01:00Z') });
  await order('samPending', { userId: sam, amount: 15000, status: 'pending', createdAt: new Date('2026-10-11T12:00:00Z') });
  await app.db.insert(refunds).values([
    { orderId: ids.samSpring!, provider: 'stripe', amount: 2000, currency: 'usd', status: 'succeeded' },
    { orderId: ids.samFall!, provider: 'stripe', amount: 15000, currency: 'usd', status: 'succeeded' },
  ]);
}, 60_000);
afterAll(() => app?.close());

const list = async (query: string) => {
  const res = await app.fetch(`/api/admin/orders?${query}`, { cookie: admin.cookie });
  expect(res.status).toBe(200);
  return jsonOf<Page>(res);
};
const found = async (query: string) => (await list(query)).orders.map((o) => o.id).sort();
const sorted = (...keys: string[]) => keys.map((k) => ids[k]!).sort();

describe('the orders search', () => {
  it('finds an order by the athlete, the family’s account holder, an e-mail, a code, the order or the payment', async () => {
    expect(await found('q=leo')).toEqual(sorted('leoSpring'));
    expect(await found('q=MARIA')).toEqual(sorted('leoSpring'));
    expect(await found('q=sam.ortiz@')).toEqual(sorted('samSpring', 'samFall', 'samPending'));
    expect(await found('q=spring2')).toEqual(sorted('samSpring'));
    expect(await found(`q=${ids.samFall}`)).toEqual(sorted('samFall'));
    expect(await found('q=pi_leo_1')).toEqual(sorted('leoSpring'));
    expect(await found('q=nobody-here')).toEqual([]);
    // % and _ are themselves, not wildcards.
    expect(await found('q=%25')).toEqual([]);
  });

  it('shows the family’s account holder as the customer and the athlete beside', async () => {
    const [leo] = (await list('q=leo')).orders;
    expect(leo).toMatchObject({ customerName: 'Maria Quinones', athleteName: 'Leo Quinones', email: 'maria.q@example.com', event: 'Spring Cup' });
    const [sam] = (await list('q=spring20')).orders;
    expect(sam).toMatchObject({ customerName: 'Sam Ortiz', athleteName: null });
  });

  it('filters by status, event and days in the admin’s time zone', async () => {
    expect(await found('status=refunded')).toEqual(sorted('samFall'));
    expect(await found('status=pending')).toEqual(sorted('samPending'));
    expect(await found('event=ev-spring')).toEqual(sorted('leoSpring', 'samSpring'));
    expect(await found('from=2026-03-02&to=2026-03-02')).toEqual(sorted('leoSpring', 'samSpring'));
    expect(await found('from=2026-03-02&to=2026-03-02&tz=America/New_York')).toEqual(sorted('samSpring'));
    expect(await found('from=2026-03-01&to=2026-03-01&tz=America/New_York')).toEqual(sorted('leoSpring'));
    expect(await found('from=2026-10-01&event=ev-fall&q=sam')).toEqual(sorted('samFall'));
  });

  it('totals what the filtered orders took, gave back and kept, per day and per event', async () => {
    const all = await list('tz=America/New_York');
    expect(all.total).toBe(4);
    // Paid orders only: the pending one takes nothing.
    expect(all.totals).toMatchObject({ orders: 3, grossCents: 42000, refundedCents: 17000, netCents: 25000 });
    expect(all.totals.byDay).toEqual([
      { day: '2026-10-10', orders: 1, grossCents: 15000, refundedCents: 15000, netCents: 0 },
      { day: '2026-03-02', orders: 1, grossCents: 12000, refundedCents: 2000, netCents: 10000 },
      { day: '2026-03-01', orders: 1, grossCents: 15000, refundedCents: 0, netCents: 15000 },
    ]);
    expect(all.totals.byEvent).toEqual([
      { eventId: 'ev-spring', event: 'Spring Cup', orders: 2, grossCents: 27000, refundedCents: 2000, netCents: 25000 },
      { eventId: 'ev-fall', event: 'Fall Classic', orders: 1, grossCents: 15000, refundedCents: 15000, netCents: 0 },
    ]);
    expect((await list('event=ev-fall')).totals).toMatchObject({ orders: 1, netCents: 0 });
  });

  it('gives the same orders as a CSV file, safe to open in a spreadsheet', async () => {
    await app.db.update(userProfiles).set({ firstName: '=HYPERLINK("x")' }).where(eq(userProfiles.email, 'sam.ortiz@example.com'));
    const res = await app.fetch('/api/admin/orders.csv?event=ev-spring', { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Order,Date,Paid,Status,Family,Email,Athlete,Event,Amount,Discount,Promo code,Refunded,Provider,Payment');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${ids.samSpring},2026-03-02T15:00:00.000Z,2026-03-02T15:05:00.000Z,completed,"'=HYPERLINK(""x"") Ortiz"`);
    expect(lines[1]).toContain('Spring Cup,120.00,30.00,SPRING20,20.00,stripe,');
    expect(lines[2]).toContain(`${ids.leoSpring},`);
    expect(lines[2]).toContain(',Maria Quinones,maria.q@example.com,Leo Quinones,Spring Cup,150.00,0.00,,0.00,stripe,pi_leo_1');
    await app.db.update(userProfiles).set({ firstName: 'Sam' }).where(eq(userProfiles.email, 'sam.ortiz@example.com'));
  });

  it('refuses bad filters with their words', async () => {
    const cases: Array<[string, string]> = [
      ['status=lost', ORDER_FILTERS.badStatus],
      ['from=2026-13-01', ORDER_FILTERS.badDate],
      ['to=yesterday', ORDER_FILTERS.badDate],
      ['from=2026-02-30', ORDER_FILTERS.badDate],
      ['from=2026-03-05&to=2026-03-01', ORDER_FILTERS.fromAfterTo],
      ['tz=Mars/Olympus', ORDER_FILTERS.badTimeZone],
      ["tz=UTC';--", ORDER_FILTERS.badTimeZone],
      [`q=${'x'.repeat(201)}`, ORDER_FILTERS.tooLong],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/admin/orders', '/api/admin/orders.csv']) {
        const res = await app.fetch(`${path}?${query}`, { cookie: admin.cookie });
        expect(res.status, `${path}?${query}`).toBe(400);
        expect((await jsonOf(res)).message).toBe(message);
      }
    }
  });

  it('is for admins only', async () => {
    for (const path of ['/api/admin/orders', '/api/admin/orders.csv']) {
      expect((await app.fetch(path)).status).toBe(401);
      expect((await app.fetch(path, { cookie: member.cookie })).status).toBe(403);
    }
  });
});
