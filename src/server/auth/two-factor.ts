// A second factor for admins (issue 21), on better-auth's own twoFactor plugin: an authenticator
// app's codes (TOTP, RFC 6238) and ten recovery codes, both stored encrypted by the plugin.
//
// How a session "passed" the factor: the plugin signs in an account that has the factor only
// after its code (the password alone answers `twoFactorRedirect` and a short-lived challenge
// cookie; verify-totp or verify-backup-code then issues the session). Every session that a code
// verification issued or confirmed is marked here, in better-auth's verification table
// (`two-factor-passed:<session id>`); admin rights need that mark. A session made any other way
// (before enrolment, by the e-mail confirmation link, on another device before the factor was
// set up) is an ordinary user's session until a code is given in it.
//
// The plugin accepts a code of the previous, current and next 30-second step and keeps no record
// of used codes, so a code seen over a shoulder or in a proxy log would work again for up to
// 90 seconds: each accepted code is claimed per account (`totp-used:<user>:<code>`, for 120 s)
// before the plugin checks it, and a second use is refused.
import { and, eq, like, lt, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthEndpoint, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { Db } from '../db/client';
import { session as sessionTable, verification } from '../db/schema';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** How long a used code stays refused: longer than the plugin accepts it (three 30-second steps). */
const USED_CODE_SECONDS = 120;
const PASSED = 'two-factor-passed:';
/** A mark lives as long as its session; rows of sessions that are gone are removed at the next mark. */
const FAR_FUTURE = new Date('2999-01-01T00:00:00Z');

/** What an active admin still has to do before admin rights: enrol a factor, or give a code in this session. */
export type SecondFactorStep = 'enrol' | 'verify';

/** Whether this session passed the second factor (a code verification issued or confirmed it). */
export async function sessionPassedSecondFactor(db: Db, sessionId: string): Promise<boolean> {
  const rows = await db.select({ id: verification.id }).from(verification).where(eq(verification.identifier, `${PASSED}${sessionId}`)).limit(1);
  return rows.length > 0;
}

/** The step an active admin's session still needs, or null when it passed the factor. */
export async function secondFactorStep(db: Db, user: { twoFactorEnabled?: boolean | null }, sessionId: string): Promise<SecondFactorStep | null> {
  if (!user.twoFactorEnabled) return 'enrol';
  return (await sessionPassedSecondFactor(db, sessionId)) ? null : 'verify';
}

export async function markSessionPassed(db: Db, userId: string, sessionId: string): Promise<void> {
  await db.insert(verification).values({ id: randomUUID(), identifier: `${PASSED}${sessionId}`, value: userId, expiresAt: FAR_FUTURE });
  await db
    .delete(verification)
    .where(
      and(
        eq(verification.value, userId),
        like(verification.identifier, `${PASSED}%`),
        sql`NOT EXISTS (SELECT 1 FROM ${sessionTable} WHERE ${sql.raw(`'${PASSED}'`)} || ${sessionTable.id} = ${verification.identifier})`,
      ),
    );
}

const usedCodeId = (userId: string, code: string) => `totp-used:${userId}:${code}`;

/** Claims a TOTP code for one use; false when it was used (or is being checked) within its window. */
export async function claimTotpCode(db: Db, userId: string, code: string): Promise<boolean> {
  const id = usedCodeId(userId, code);
  await db.delete(verification).where(and(eq(verification.id, id), lt(verification.expiresAt, new Date())));
  const rows = await db
    .insert(verification)
    .values({ id, identifier: `totp-used:${userId}`, value: 'used', expiresAt: new Date(Date.now() + USED_CODE_SECONDS * 1000) })
    .onConflictDoNothing()
    .returning({ id: verification.id });
  return rows.length > 0;
}

/** Gives back a claimed code that the plugin refused (a wrong code is no used code). */
export async function releaseTotpCode(db: Db, userId: string, code: string): Promise<void> {
  await db.delete(verification).where(eq(verification.id, usedCodeId(userId, code)));
}

/**
 * Whose code a verify request is: the signed-in session's user, or during sign-in the account
 * behind the plugin's signed challenge cookie. Server-only (no path): routes.ts asks it to apply
 * the per-account limits and the used-code check before the plugin sees the code.
 */
const secondFactorSubject = createAuthEndpoint.serverOnly({ method: 'POST' }, async (ctx) => {
  const current = await getSessionFromCtx(ctx).catch(() => null);
  if (current) return { userId: current.user.id, email: current.user.email };
  const cookie = ctx.context.createAuthCookie('two_factor');
  const challenge = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!challenge) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(challenge);
  if (!pending || new Date(pending.expiresAt) < new Date()) return null;
  const user = await ctx.context.internalAdapter.findUserById(pending.value);
  return user ? { userId: user.id, email: user.email } : null;
});

const VERIFY_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/** Marks the session that a successful code verification issued (sign-in, enrolment) or confirmed. */
function passedSessions(db: Db) {
  return {
    id: 'second-factor-sessions',
    endpoints: { secondFactorSubject },
    hooks: {
      after: [
        {
          matcher: (ctx) => VERIFY_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            if (isAPIError(ctx.context.returned) || ctx.context.returned instanceof Response) return;
            const passed = ctx.context.newSession ?? (await getSessionFromCtx(ctx).catch(() => null));
            if (passed?.session) await markSessionPassed(db, passed.user.id, passed.session.id);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** better-auth's plugin as the product uses it, and our marking of the sessions that passed it. */
export function secondFactor(db: Db, appName: string) {
  return [
    twoFactor({
      issuer: appName,
      totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
      backupCodeOptions: { amount: 10, length: 10 },
    }),
    passedSessions(db),
  ] as const;
}
