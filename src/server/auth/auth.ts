// better-auth, configured for the spec: e-mail + password, 6-character minimum, verification
// links valid 24 hours, password reset mails, sessions revoked on reset. Its own rate limiter
// is off: ours (http/rate-limit.ts) keeps counts in the database and also limits per account.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, VERIFICATION_LINK_TTL_SECONDS } from '../../common/constants';
import type { Config } from '../config';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { resetPasswordMail, verificationMail } from '../mail/templates';
import { impersonation } from './impersonation';
import { secondFactor } from './two-factor';

/** Where a confirmation link sends the user once confirmed (the dashboard says so once). */
export const AFTER_VERIFY = '/dashboard?verified=1';

/** The header our server sets to the caller's address before handing a request to better-auth. */
export const CLIENT_IP_HEADER = 'x-verified-client-ip';

export function trustedOrigins(config: Config): string[] {
  const base = new URL(config.baseUrl);
  const origins = new Set([base.origin]);
  if (base.hostname === 'localhost' || base.hostname === '127.0.0.1') {
    const port = base.port ? `:${base.port}` : '';
    origins.add(`${base.protocol}//localhost${port}`);
    origins.add(`${base.protocol}//127.0.0.1${port}`);
  }
  for (const extra of (process.env.TRUSTED_ORIGINS ?? '').split(',')) if (extra.trim()) origins.add(extra.trim());
  return [...origins];
}

export const APP_NAME = 'Get It On Tape';

/**
 * `onEmailVerified` runs once an address is confirmed (the consent ticked at registration starts
 * then: faces/references.ts confirmPendingConsent); a failure there never fails the confirmation.
 */
export function createAuth(deps: { config: Config; db: Db; mailer: Mailer; onEmailVerified?: (userId: string) => Promise<void> }) {
  const { config, db, mailer } = deps;
  return betterAuth({
    appName: APP_NAME,
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: schema.user, session: schema.session, account: schema.account, verification: schema.verification, twoFactor: schema.twoFactor },
    }),
    trustedOrigins: trustedOrigins(config),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      requireEmailVerification: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send(resetPasswordMail(user.email, user.emailVerified ? user.name : null, url));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFICATION_LINK_TTL_SECONDS,
      afterEmailVerification: async (verified) => {
        await deps.onEmailVerified?.(verified.id).catch((error: Error) => console.error('[auth] after confirming', verified.id, error.message));
      },
      sendVerificationEmail: async ({ user, url }) => {
        // Every confirmed address lands on the dashboard, which says so once, whichever call sent the link.
        const link = new URL(url);
        link.searchParams.set('callbackURL', AFTER_VERIFY);
        await mailer.send(verificationMail(user.email, link.toString()));
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: { enabled: false },
    advanced: {
      // better-auth turns its callback-URL and origin checks off when NODE_ENV=test or TEST is
      // set; say explicitly that they are on, so no environment variable can open a redirect.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: config.baseUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // Sign-up goes through our own routes (account/routes.ts), which check the spec's rules first.
    disabledPaths: ['/sign-up/email'],
    // Admins' second factor (two-factor.ts): better-auth's plugin, and which sessions passed it.
    plugins: [impersonation(db), ...secondFactor(db, APP_NAME)],
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
