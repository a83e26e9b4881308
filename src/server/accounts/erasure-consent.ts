// The family's own word for an erasure (closing the account, removing one athlete): the "cannot be
// undone" tick and the holder's password, each try limited per account so a stolen session cannot
// guess it.
import type { Context } from 'hono';
import { CLOSE_ACCOUNT } from '../../common/dashboard-messages';
import { closeAccountSchema, firstIssue } from '../../common/schemas';
import type { AppDeps } from '../deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES } from '../http/rate-limit';
import { passwordIsRight } from './erasure';

/** Null when the body carries the tick and the account's password; otherwise the answer to send. */
export async function refuseUnconfirmedErasure(deps: Pick<AppDeps, 'auth' | 'limiter'>, c: Context, accountId: string): Promise<Response | null> {
  const parsed = closeAccountSchema.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
  const limit = await deps.limiter.check([[RATE_RULES.closeAccountPerAccount, accountId]]);
  if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
  if (!(await passwordIsRight(deps.auth, accountId, parsed.data.password))) return apiError(c, 400, 'INVALID_PASSWORD', CLOSE_ACCOUNT.wrongPassword);
  return null;
}
