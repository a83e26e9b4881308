// Fixed-window rate limits whose counters live in the database, so every API instance shares
// them and a restart does not reset them. A rule is checked per client address and, where it
// names one, per account (e-mail), so spreading attempts over many addresses does not help.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitHits } from '../db/schema';

export interface RateRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

export const RATE_RULES = {
  signInPerIp: { name: 'sign-in:ip', limit: 20, windowSeconds: 5 * 60 },
  signInPerAccount: { name: 'sign-in:account', limit: 10, windowSeconds: 15 * 60 },
  signUpPerIp: { name: 'sign-up:ip', limit: 10, windowSeconds: 60 * 60 },
  resetRequestPerIp: { name: 'reset-request:ip', limit: 5, windowSeconds: 15 * 60 },
  resetRequestPerAccount: { name: 'reset-request:account', limit: 3, windowSeconds: 60 * 60 },
  resetPasswordPerIp: { name: 'reset-password:ip', limit: 10, windowSeconds: 15 * 60 },
  verificationPerIp: { name: 'verification:ip', limit: 5, windowSeconds: 15 * 60 },
  contactPerIp: { name: 'contact:ip', limit: 5, windowSeconds: 10 * 60 },
  homepageSignupPerIp: { name: 'homepage-signup:ip', limit: 10, windowSeconds: 10 * 60 },
} satisfies Record<string, RateRule>;

export interface RateResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly scale = 1,
  ) {}

  /** Counts one hit for `subject` under `rule`; `allowed` is false once the limit is passed. */
  async hit(rule: RateRule, subject: string): Promise<RateResult> {
    const key = `${rule.name}:${subject.toLowerCase()}`;
    const windowMs = rule.windowSeconds * 1000;
    const rows = await this.db
      .insert(rateLimitHits)
      .values({ key, count: 1, resetAt: sql`now() + ${`${rule.windowSeconds} seconds`}::interval` })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          count: sql`CASE WHEN ${rateLimitHits.resetAt} <= now() THEN 1 ELSE ${rateLimitHits.count} + 1 END`,
          resetAt: sql`CASE WHEN ${rateLimitHits.resetAt} <= now() THEN now() + ${`${rule.windowSeconds} seconds`}::interval ELSE ${rateLimitHits.resetAt} END`,
        },
      })
      .returning({ count: rateLimitHits.count, resetAt: rateLimitHits.resetAt });
    const row = rows[0]!;
    const limit = Math.max(1, Math.round(rule.limit * this.scale));
    const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.resetAt).getTime() - Date.now()) / 1000));
    return { allowed: row.count <= limit, retryAfterSeconds: Math.min(retryAfterSeconds, windowMs / 1000) };
  }

  /** Hits every (rule, subject) pair; the first refusal wins. */
  async check(pairs: Array<[RateRule, string | null | undefined]>): Promise<RateResult> {
    for (const [rule, subject] of pairs) {
      if (!subject) continue;
      const result = await this.hit(rule, subject);
      if (!result.allowed) return result;
    }
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
