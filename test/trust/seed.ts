// People and data for the scenarios, written straight to the suite's database: sign-ups through
// the API are rate-limited, and the scenarios are about faults and load, not about signing up.
// A session cookie is made the way better-auth makes it (better-call's signCookieValue): the
// session's token, a dot, and the token's HMAC-SHA256 with the auth secret in base64, URL-encoded.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { symmetricEncrypt } from 'better-auth/crypto';
import { eq, inArray } from 'drizzle-orm';
import { markSessionPassed } from '../../src/server/auth/two-factor';
import { admins, session, twoFactor, user, userProfiles } from '../../src/server/db/schema';
import type { Topology } from './topology';

export const SESSION_COOKIE = 'better-auth.session_token';

export function sessionCookie(token: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`;
}

export interface Family {
  userId: string;
  email: string;
  cookie: string;
}

/** Where families are written: the suite's topology, or any app with its database and auth secret (bench/request-memory.ts). */
export type SeedTarget = { deps: Pick<Topology['deps'], 'db'>; env: Topology['env'] };

/** `count` confirmed families, each with a live session; their dashboards open without the tutorial. */
export async function seedFamilies(t: SeedTarget, count: number, tag = randomBytes(3).toString('hex')): Promise<Family[]> {
  const db = t.deps.db;
  const families: Family[] = [];
  for (let start = 0; start < count; start += 250) {
    const batch = Array.from({ length: Math.min(250, count - start) }, (_, i) => {
      const n = start + i;
      return { userId: randomUUID(), email: `family-${tag}-${n}@example.com`, name: `Family ${tag} ${n}`, token: randomBytes(24).toString('base64url') };
    });
    await db.insert(user).values(batch.map((b) => ({ id: b.userId, name: b.name, email: b.email, emailVerified: true })));
    await db
      .update(userProfiles)
      .set({ tutorialCompletedAt: new Date(), firstName: 'Pat', lastName: 'Family' })
      .where(inArray(userProfiles.id, batch.map((b) => b.userId)));
    await db.insert(session).values(
      batch.map((b) => ({ id: randomUUID(), token: b.token, userId: b.userId, expiresAt: new Date(Date.now() + 7 * 24 * 3600_000), ipAddress: '127.0.0.1', userAgent: 'trust-suite' })),
    );
    for (const b of batch) families.push({ userId: b.userId, email: b.email, cookie: sessionCookie(b.token, t.env.AUTH_SECRET!) });
  }
  return families;
}

/** An active admin whose session passed the second factor (as two-factor.ts marks one). */
export async function seedAdmin(t: Topology): Promise<Family> {
  const [family] = await seedFamilies(t, 1, `admin-${randomBytes(3).toString('hex')}`);
  const db = t.deps.db;
  const key = t.env.AUTH_SECRET!;
  await db.insert(admins).values({ userId: family!.userId, isActive: true });
  await db.insert(twoFactor).values({
    id: randomUUID(),
    userId: family!.userId,
    secret: await symmetricEncrypt({ key, data: randomBytes(16).toString('hex') }),
    backupCodes: await symmetricEncrypt({ key, data: '[]' }),
    verified: true,
  });
  await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, family!.userId));
  const [s] = await db.select({ id: session.id }).from(session).where(eq(session.userId, family!.userId));
  await markSessionPassed(db, family!.userId, s!.id);
  return family!;
}

/** fetch with the site's Origin (as our pages send it) and a cookie. */
export function call(t: Topology, base: string, pathname: string, init: RequestInit & { cookie?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('origin', t.origin);
  if (init.cookie) headers.set('cookie', init.cookie);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return fetch(`${base}${pathname}`, { ...init, headers, body, signal: init.signal ?? AbortSignal.timeout(30_000) });
}
