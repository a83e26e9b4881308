// Fixed-window rate limits whose counters live in the database, so every API instance shares
// them and a restart does not reset them. A rule counts per client address, per account
// (e-mail), per signed-in user or per mail recipient, as its scope says; per-address rules
// count an IPv6 caller by its /64 network.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { addressBucket } from './client-ip';

export interface RateRule {
  name: string;
  limit: number;
  windowSeconds: number;
  scope: 'address' | 'account' | 'account-address' | 'user' | 'recipient';
}

export const RATE_RULES = {
  signInPerIp: { name: 'sign-in:ip', scope: 'address', limit: 20, windowSeconds: 5 * 60 },
  /** Guessing one account's password from one address; cleared by a successful sign-in. */
  signInPerAccountAddress: { name: 'sign-in:account-ip', scope: 'account-address', limit: 10, windowSeconds: 15 * 60 },
  /**
   * Every attempt on one account from anywhere: high enough that only a distributed attack
   * reaches it, and then a browser that has signed in to the account before still gets in.
   */
  signInPerAccount: { name: 'sign-in:account', scope: 'account', limit: 100, windowSeconds: 15 * 60 },
  /** Failed sign-ins of one account; the owner is told by mail when it reaches its limit. */
  signInFailuresPerAccount: { name: 'sign-in-failures:account', scope: 'account', limit: 10, windowSeconds: 60 * 60 },
  /** Tries at closing an account (each checks the password): a stolen session cannot guess it. */
  closeAccountPerAccount: { name: 'close-account:account', scope: 'account', limit: 5, windowSeconds: 60 * 60 },
  /**
   * An admin's second-factor codes (issue 21): a password alone must not let anyone guess the
   * 6-digit code. Per address, per (account, address) cleared by a right code, and per account
   * (ten an hour; a browser that signed in to the account before passes this one, as at sign-in).
   * better-auth's plugin also allows five tries per sign-in and locks the factor for 15 minutes
   * after ten wrong codes in a row.
   */
  twoFactorPerIp: { name: 'two-factor:ip', scope: 'address', limit: 20, windowSeconds: 15 * 60 },
  twoFactorPerAccountAddress: { name: 'two-factor:account-ip', scope: 'account-address', limit: 5, windowSeconds: 15 * 60 },
  twoFactorPerAccount: { name: 'two-factor:account', scope: 'account', limit: 10, windowSeconds: 60 * 60 },
  /** Starting enrolment checks the password: limited like guessing it. */
  twoFactorEnrolPerUser: { name: 'two-factor-enrol:user', scope: 'user', limit: 10, windowSeconds: 15 * 60 },
  signUpPerIp: { name: 'sign-up:ip', scope: 'address', limit: 10, windowSeconds: 60 * 60 },
  resetRequestPerIp: { name: 'reset-request:ip', scope: 'address', limit: 5, windowSeconds: 15 * 60 },
  /**
   * Reset requests for one account from one address: someone else asking for a family's reset
   * spends their own address's allowance, never the owner's (issue 21, finding 6).
   */
  resetRequestPerAccountAddress: { name: 'reset-request:account-ip', scope: 'account-address', limit: 3, windowSeconds: 60 * 60 },
  /**
   * Reset requests for one account from anywhere: well above the per-address limit, so only a
   * spread-out attack reaches it, and then a browser that has signed in to the account passes.
   */
  resetRequestPerAccount: { name: 'reset-request:account', scope: 'account', limit: 20, windowSeconds: 60 * 60 },
  /**
   * Reset mails to one account: further requests are answered the same and send nothing, so
   * nobody can flood a family's inbox; the owner's known browser is not held by it.
   */
  resetMailPerAccount: { name: 'reset-mail:account', scope: 'recipient', limit: 5, windowSeconds: 60 * 60 },
  resetPasswordPerIp: { name: 'reset-password:ip', scope: 'address', limit: 10, windowSeconds: 15 * 60 },
  verificationPerIp: { name: 'verification:ip', scope: 'address', limit: 5, windowSeconds: 15 * 60 },
  /** Resending the confirmation: the same three rules as reset requests, counted apart from them. */
  verificationPerAccountAddress: { name: 'verification:account-ip', scope: 'account-address', limit: 3, windowSeconds: 60 * 60 },
  verificationPerAccount: { name: 'verification:account', scope: 'account', limit: 20, windowSeconds: 60 * 60 },
  verificationMailPerAccount: { name: 'verification-mail:account', scope: 'recipient', limit: 5, windowSeconds: 60 * 60 },
  /**
   * Reset and confirmation mails to one address that were not asked for from its owner's known
   * browser, together: at most 3 a day (issue 33, finding 4), so nobody can send an address our
   * mails every hour. The owner's known browser is not held by it.
   */
  unaskedMailPerRecipient: { name: 'unasked-mail:recipient', scope: 'recipient', limit: 3, windowSeconds: 24 * 60 * 60 },
  contactPerIp: { name: 'contact:ip', scope: 'address', limit: 5, windowSeconds: 10 * 60 },
  /** Auto-replies to one address: the form cannot be used to flood someone's inbox. */
  contactAutoReplyPerRecipient: { name: 'contact-reply:recipient', scope: 'recipient', limit: 2, windowSeconds: 24 * 60 * 60 },
  homepageSignupPerIp: { name: 'homepage-signup:ip', scope: 'address', limit: 10, windowSeconds: 10 * 60 },
  /** The registration's public Event list: read on every visit to /signup, so generous. */
  registrationEventsPerIp: { name: 'registration-events:ip', scope: 'address', limit: 60, windowSeconds: 10 * 60 },
  /**
   * Face work one family can ask for (issue 33, finding 3): each reference photo, each "on" and each
   * new headshot while matching is on runs face detection on the threads footage indexing needs.
   */
  faceChecksPerUser: { name: 'face-checks:user', scope: 'user', limit: 10, windowSeconds: 60 * 60 },
  promoCheckPerUser: { name: 'promo-check:user', scope: 'user', limit: 10, windowSeconds: 10 * 60 },
  promoCheckPerIp: { name: 'promo-check:ip', scope: 'address', limit: 30, windowSeconds: 10 * 60 },
  /** Starting checkouts: each may ask the provider for a session. */
  checkoutPerUser: { name: 'checkout:user', scope: 'user', limit: 20, windowSeconds: 60 * 60 },
  checkoutPerIp: { name: 'checkout:ip', scope: 'address', limit: 60, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

export interface RateResult {
  allowed: boolean;
  retryAfterSeconds: number;
  /** Hits in the current window, this one included. */
  count: number;
}

export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly scale = 1,
  ) {}

  /** The limit applied to `rule` (scaled for load tests and the test suite). */
  limitOf(rule: RateRule): number {
    return Math.max(1, Math.round(rule.limit * this.scale));
  }

  private key(rule: RateRule, subject: string): string {
    const s = subject.toLowerCase();
    if (rule.scope === 'address') return `${rule.name}:${addressBucket(s)}`;
    if (rule.scope === 'account-address') {
      const at = s.lastIndexOf('|');
      return `${rule.name}:${s.slice(0, at)}|${addressBucket(s.slice(at + 1))}`;
    }
    return `${rule.name}:${s}`;
  }

  /** Counts one hit for `subject` under `rule`; `allowed` is false once the limit is passed. */
  async hit(rule: RateRule, subject: string): Promise<RateResult> {
    const key = this.key(rule, subject);
    const window = `${rule.windowSeconds} seconds`;
    const rows = await this.db
      .insert(rateLimitHits)
      .values({ key, count: 1, resetAt: sql`now() + ${window}::interval` })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          count: sql`CASE WHEN ${rateLimitHits.resetAt} <= now() THEN 1 ELSE ${rateLimitHits.count} + 1 END`,
          resetAt: sql`CASE WHEN ${rateLimitHits.resetAt} <= now() THEN now() + ${window}::interval ELSE ${rateLimitHits.resetAt} END`,
        },
      })
      .returning({ count: rateLimitHits.count, resetAt: rateLimitHits.resetAt });
    const row = rows[0]!;
    const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.resetAt).getTime() - Date.now()) / 1000));
    return {
      allowed: row.count <= this.limitOf(rule),
      retryAfterSeconds: Math.min(retryAfterSeconds, rule.windowSeconds),
      count: row.count,
    };
  }

  /** Hits every (rule, subject) pair; the first refusal wins. */
  async check(pairs: Array<[RateRule, string | null | undefined]>): Promise<RateResult> {
    for (const [rule, subject] of pairs) {
      if (!subject) continue;
      const result = await this.hit(rule, subject);
      if (!result.allowed) return result;
    }
    return { allowed: true, retryAfterSeconds: 0, count: 0 };
  }

  /** Forgets the hits of `subject` under `rule` (a successful sign-in clears its address's count). */
  async reset(rule: RateRule, subject: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.key, this.key(rule, subject)));
  }
}

/** The subject of an account-address rule. */
export const accountAtAddress = (email: string, ip: string) => `${email}|${ip}`;
