// What the periodic check tells the team (issue 36 item 4): a paid request still not delivered a
// day after payment, and a background job that failed for good; then notices a crash left
// unsent, and the daily summary once its hour has come. Each notice is told once (notices.ts).
import { and, eq, lt, ne } from 'drizzle-orm';
import { ADMIN } from '../../common/admin-messages';
import { highlightRequests, orders, userProfiles } from '../db/schema';
import type { AppDeps } from '../deps';
import { resumeTeamNotices, sendTeamSummary, tellTeam } from './notices';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function runTeamChecks(deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'jobs'>, now = new Date()): Promise<void> {
  await resumeTeamNotices(deps);
  await tellOfPaidWaiting(deps, now);
  await tellOfFailedJobs(deps, now);
  await sendTeamSummary(deps, now);
}

/** Paid more than a day ago and still not delivered: the family is waiting for their reel. */
export async function tellOfPaidWaiting(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, now = new Date()): Promise<number> {
  const waiting = await deps.db
    .select({ id: highlightRequests.id, userId: highlightRequests.userId, event: highlightRequests.event, paidAt: orders.completedAt, firstName: userProfiles.firstName, lastName: userProfiles.lastName, email: userProfiles.email })
    .from(orders)
    .innerJoin(highlightRequests, eq(highlightRequests.id, orders.requestId))
    .innerJoin(userProfiles, eq(userProfiles.id, highlightRequests.userId))
    .where(and(eq(orders.status, 'completed'), lt(orders.completedAt, new Date(now.getTime() - DAY_MS)), ne(highlightRequests.status, 'delivered')));
  let told = 0;
  for (const r of waiting) {
    const athlete = [r.firstName, r.lastName].filter(Boolean).join(' ') || 'A family';
    const outcome = await tellTeam(deps, {
      key: `paid_waiting:${r.id}`,
      kind: 'paid_waiting',
      subject: `Paid and waiting over a day: ${athlete} (${r.event})`,
      lines: [`${athlete}'s family paid for the reel of ${r.event} on ${r.paidAt!.toUTCString()} and it is not delivered yet. Open the review to finish it.`],
      link: `${deps.config.baseUrl}/admin/requests/${r.id}`,
      replyTo: r.email,
      userId: r.userId,
    });
    if (outcome !== 'known') told++;
  }
  return told;
}

/** A job that failed for good in the last two days (older ones were told, or are history). */
export async function tellOfFailedJobs(deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'jobs'>, now = new Date()): Promise<number> {
  const failed = (await deps.jobs.failed(100)).filter((j) => j.failedOn && Date.parse(j.failedOn) > now.getTime() - 2 * DAY_MS);
  let told = 0;
  for (const job of failed) {
    const label = ADMIN.portal.jobLabels[job.name] ?? job.name;
    const outcome = await tellTeam(deps, {
      // A job run again that fails again is told again.
      key: `failed_job:${job.id}:${job.failedOn}`,
      kind: 'failed_job',
      subject: `A job failed: ${label}`,
      lines: [`${label} failed after ${job.retryCount + 1} ${job.retryCount === 0 ? 'try' : 'tries'}: ${job.error}`, 'The admin home lists it with a button to run it again.'],
      link: `${deps.config.baseUrl}/admin#failed-jobs`,
    });
    if (outcome !== 'known') told++;
  }
  return told;
}
