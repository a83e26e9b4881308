import { Hono } from 'hono';
import { contactSchema, firstIssue } from '../../common/schemas';
import { clientIp } from '../http/client-ip';
import type { AppDeps } from '../deps';
import { apiError, tooManyRequests } from '../http/errors';
import { RATE_RULES } from '../http/rate-limit';
import { submitContactMessage } from './service';

export function contactRoutes(deps: AppDeps) {
  return new Hono().post('/', async (c) => {
    // Checked before it counts: a message that cannot be stored does not use up the allowance.
    const parsed = contactSchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
    const limit = await deps.limiter.check([[RATE_RULES.contactPerIp, clientIp(c, deps.config.trustProxy)]]);
    if (!limit.allowed) return tooManyRequests(c, limit.retryAfterSeconds);
    const result = await submitContactMessage(deps, parsed.data);
    return c.json({ id: result.id }, 201);
  });
}
