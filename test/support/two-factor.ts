// Admins' second factor in tests: enrolment through the product's API (as the enrolment screen
// does it), a direct enrolment for fixtures that are not about the factor, and a cookie jar.
import { randomBytes, randomUUID } from 'node:crypto';
import { symmetricEncrypt } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { session, twoFactor, user } from '../../src/server/db/schema';
import { markSessionPassed } from '../../src/server/auth/two-factor';
import type { TestApp } from './app';
import { secretOfUri, totp } from './totp';

/** A browser's cookie jar: later Set-Cookie headers replace earlier cookies, empty ones remove them. */
export function jar(...sources: Array<string | Response | string[] | undefined>): string {
  const cookies = new Map<string, string>();
  for (const source of sources) {
    if (!source) continue;
    const pairs =
      typeof source === 'string'
        ? source.split(';').map((p) => p.trim()).filter(Boolean)
        : (Array.isArray(source) ? source : source.headers.getSetCookie()).map((c) => c.split(';')[0]!.trim());
    for (const pair of pairs) {
      const [name, ...value] = pair.split('=');
      if (value.join('=') === '') cookies.delete(name!);
      else cookies.set(name!, value.join('='));
    }
  }
  return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

export interface Enrolled {
  /** The authenticator's secret (base32), to compute codes with totp(). */
  secret: string;
  backupCodes: string[];
  /** The session that confirmed enrolment: it passed the factor. */
  cookie: string;
}

/** Enrols an admin's factor through the API: password, then a code from the app. */
export async function enrolByApi(app: TestApp, cookie: string, password: string): Promise<Enrolled> {
  const enable = await app.fetch('/api/auth/two-factor/enable', { method: 'POST', cookie, json: { password } });
  if (enable.status !== 200) throw new Error(`enable: ${enable.status} ${await enable.text()}`);
  const { totpURI, backupCodes } = (await enable.json()) as { totpURI: string; backupCodes: string[] };
  const secret = secretOfUri(totpURI);
  const verify = await app.fetch('/api/auth/two-factor/verify-totp', { method: 'POST', cookie, json: { code: totp(secret) } });
  if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${await verify.text()}`);
  return { secret, backupCodes, cookie: jar(cookie, verify) };
}

/**
 * For fixtures that are not about the factor: stores an enrolled factor as the plugin would
 * (secret and codes encrypted with the auth secret) and marks the user's current sessions as
 * having passed it, so the cookie a test already holds is an admin's.
 */
export async function enrolDirectly(app: TestApp, userId: string): Promise<Omit<Enrolled, 'cookie'>> {
  const key = app.server.deps.config.authSecret;
  const raw = randomBytes(20).toString('hex').slice(0, 32);
  const backupCodes = Array.from({ length: 10 }, () => randomBytes(5).toString('hex')).map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
  await app.db.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await app.db.insert(twoFactor).values({
    id: randomUUID(),
    userId,
    secret: await symmetricEncrypt({ key, data: raw }),
    backupCodes: await symmetricEncrypt({ key, data: JSON.stringify(backupCodes) }),
    verified: true,
  });
  await app.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, userId));
  for (const s of await app.db.select({ id: session.id }).from(session).where(eq(session.userId, userId))) {
    await markSessionPassed(app.db, userId, s.id);
  }
  return { secret: base32Encode(Buffer.from(raw, 'utf8')), backupCodes };
}

function base32Encode(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
