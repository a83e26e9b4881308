// The caller's order for a checkout session id (GET /api/orders/by-session/:sid) and promo-code
// checks (POST /api/promo-codes/check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED } from '../../src/common/messages';
import { PROMO } from '../../src/common/dashboard-messages';
import { REEL_PRICE_CENTS } from '../../src/common/constants';
import { orders, promoCodes } from '../../src/server/db/schema';
import { RATE_RULES } from '../../src/server/http/rate-limit';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { jsonOf } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;

let app: TestApp;
let buyer: User;
let other: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  [buyer, other] = [await createVerifiedUser(app), await createVerifiedUser(app)];
  await app.db.insert(promoCodes).values([
    { code: 'SPRING20', discountPercent: 20, active: true },
    { code: 'OLD10', discountPercent: 10, active: false },
  ]);
});
afterAll(async () => {
  await app?.close();
});

describe('GET /api/orders/by-session/:sessionId', () => {
  it("returns the caller's order with the amount in cents", async () => {
    const [order] = await app.db
      .insert(orders)
      .values({ provider: 'stripe', userId: buyer.userId, amount: REEL_PRICE_CENTS, status: 'completed', stripeSessionId: 'cs_test_buyer_001', stripePaymentId: 'pi_1' })
      .returning();
    const res = await app.fetch('/api/orders/by-session/cs_test_buyer_001', { cookie: buyer.cookie });
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ id: order!.id, amount: 15000, status: 'completed', createdAt: order!.createdAt.toISOString() });
    expect(Number.isInteger(body.amount)).toBe(true);
  });

  it("answers 404 for another user's session id and for an unknown one", async () => {
    await app.db.insert(orders).values({ provider: 'stripe', userId: buyer.userId, amount: 12000, status: 'pending', stripeSessionId: 'cs_test_buyer_002' });
    for (const sid of ['cs_test_buyer_002', 'cs_test_nobody']) {
      const res = await app.fetch(`/api/orders/by-session/${sid}`, { cookie: other.cookie });
      expect(res.status, sid).toBe(404);
      expect((await jsonOf(res)).code).toBe('NOT_FOUND');
    }
    expect((await app.fetch('/api/orders/by-session/cs_test_buyer_002', { cookie: buyer.cookie })).status).toBe(200);
  });

  it('is refused to a visitor with 401', async () => {
    const res = await app.fetch('/api/orders/by-session/cs_test_buyer_001');
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toEqual({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
  });
});

describe('POST /api/promo-codes/check', () => {
  const check = (code: unknown, cookie: string | null = buyer.cookie) =>
    app.fetch('/api/promo-codes/check', { method: 'POST', json: { code }, cookie: cookie ?? undefined });

  it('matches an active code in any letter case', async () => {
    for (const code of ['SPRING20', 'spring20', 'Spring20', '  spring20 ']) {
      const res = await check(code);
      expect(res.status, code).toBe(200);
      expect(await jsonOf(res)).toEqual({ code: 'SPRING20', discountPercent: 20 });
    }
  });

  it('refuses an inactive, unknown, empty or malformed code with 404 and the Invalid Promo Code texts', async () => {
    for (const code of ['OLD10', 'old10', 'WINTER50', 'SPRING', '', '   ', 42, null, 'x'.repeat(100), "spring20' or '1'='1"]) {
      const res = await check(code);
      expect(res.status, String(code)).toBe(404);
      expect(await jsonOf(res)).toEqual({ code: 'INVALID_PROMO', message: PROMO.invalid.description, title: PROMO.invalid.title });
    }
  });

  it('is refused to a visitor with 401', async () => {
    const res = await check('SPRING20', null);
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toEqual({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
  });
});

describe('promo-code guessing (issue 6, threat 12)', () => {
  it('is limited per account, and per address across accounts', async () => {
    const strict = await startTestApp();
    try {
      const limiter = strict.server.deps.limiter;
      const perUser = limiter.limitOf(RATE_RULES.promoCheckPerUser);
      const guess = (cookie: string, code: string) => strict.fetch('/api/promo-codes/check', { method: 'POST', json: { code }, cookie });
      const first = await createVerifiedUser(strict);
      for (let i = 0; i < perUser; i++) expect((await guess(first.cookie, `GUESS${i}`)).status).toBe(404);
      const limited = await guess(first.cookie, 'SPRING20');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await jsonOf(limited)).code).toBe('RATE_LIMITED');

      // Fresh accounts from the same address meet the address limit.
      const perAddress = limiter.limitOf(RATE_RULES.promoCheckPerIp);
      let used = perUser + 1;
      let refused = false;
      while (!refused && used <= perAddress + perUser) {
        const next = await createVerifiedUser(strict);
        for (let i = 0; i < perUser && !refused; i++) {
          const res = await guess(next.cookie, `MORE${used}`);
          used += 1;
          refused = res.status === 429;
        }
      }
      expect(refused).toBe(true);
      expect(used).toBeLessThanOrEqual(perAddress + 2);
    } finally {
      await strict.close();
    }
  });
});
