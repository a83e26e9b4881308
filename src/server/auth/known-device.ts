// A "known device" cookie (OWASP's device cookies): a browser that has signed in to an account
// carries a keyed hash of that account's address. Such a browser is not held back by the
// account-wide sign-in ceiling, so an attack spread over many addresses cannot lock the owner
// out of their own account, while it still gets no more guesses than anyone else.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const KNOWN_DEVICE_COOKIE = 'giot_known';
/** A shared family computer may sign in to a few accounts; the oldest falls out. */
const MAX_ACCOUNTS = 5;
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function accountTag(secret: string, email: string): string {
  return createHmac('sha256', secret).update(`known-device:${email.trim().toLowerCase()}`).digest('base64url').slice(0, 22);
}

function tagsIn(cookieHeader: string | undefined): string[] {
  const raw = cookieHeader
    ?.split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${KNOWN_DEVICE_COOKIE}=`))
    ?.slice(KNOWN_DEVICE_COOKIE.length + 1);
  return raw ? raw.split('.').filter((t) => /^[\w-]{22}$/.test(t)).slice(0, MAX_ACCOUNTS) : [];
}

/** True when the request comes from a browser that has signed in to `email` before. */
export function isKnownDevice(secret: string, cookieHeader: string | undefined, email: string): boolean {
  const expected = Buffer.from(accountTag(secret, email));
  return tagsIn(cookieHeader).some((t) => {
    const given = Buffer.from(t);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The Set-Cookie value that remembers `email` on this browser. */
export function knownDeviceCookie(secret: string, cookieHeader: string | undefined, email: string, secure: boolean): string {
  const tag = accountTag(secret, email);
  const tags = [tag, ...tagsIn(cookieHeader).filter((t) => t !== tag)].slice(0, MAX_ACCOUNTS);
  return [
    `${KNOWN_DEVICE_COOKIE}=${tags.join('.')}`,
    'Path=/api/auth',
    `Max-Age=${MAX_AGE_SECONDS}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
