// The team told what needs them (issue 36 item 4): a new request, a payment, a paid request
// waiting more than a day, a failed job, a reel to pick by hand, nothing found. Each is told once
// (its key is unique), by mail to the team's address (TEAM_EMAIL) with a direct link; once the
// team has had TEAM_MAILS_PER_DAY mails in a day, the rest wait for one daily summary at
// TEAM_SUMMARY_HOUR, so a busy tournament weekend is one mail, not two hundred.
//
// Durable like the rest of the background work: a notice is stored before its mail is handed to
// the mail queue under a job id of its own, and the periodic check hands over again any notice a
// crash left in between (the id makes it one mail).
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { teamNotices } from '../db/schema';
import type { AppDeps } from '../deps';
import { jobIdFor } from '../jobs/queue';
import { teamNoticeMail, teamSummaryMail } from '../mail/templates';
import { queueCounts } from '../requests/queue';

export const NOTICE_KINDS = ['request', 'payment', 'paid_waiting', 'failed_job', 'hand_pick', 'nothing_found'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export interface TeamNotice {
  /** What it is about, e.g. `request:<id>`: a notice with a key already told is not told again. */
  key: string;
  kind: NoticeKind;
  subject: string;
  lines: string[];
  /** Where the team acts on it: a page of the admin area. */
  link: string;
  /** The family's address, so the team can answer from the mail. */
  replyTo?: string | null;
  /** The family it names (erased with them). */
  userId?: string | null;
}

/** Only what a notice needs of the configuration, so a caller with a narrow one can tell too. */
type Deps = Pick<AppDeps, 'db' | 'mailer'> & { config: Pick<AppDeps['config'], 'baseUrl' | 'team'> };
type NoticeRow = typeof teamNotices.$inferSelect;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Tells the team, once: 'mailed' now, 'held' for the day's summary, or 'known' (told before). */
export async function tellTeam(deps: Deps, notice: TeamNotice): Promise<'mailed' | 'held' | 'known'> {
  const [row] = await deps.db.transaction(async (tx) => {
    // One decision at a time: two notices at once cannot both take the day's last mail.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('team_notices'))`);
    const mailedToday = await countSince(tx, new Date(Date.now() - DAY_MS));
    const status = mailedToday < deps.config.team.mailsPerDay ? 'sending' : 'held';
    return tx
      .insert(teamNotices)
      .values({ key: notice.key, kind: notice.kind, subject: notice.subject, lines: notice.lines, link: notice.link, replyTo: notice.replyTo ?? null, userId: notice.userId ?? null, status })
      .onConflictDoNothing({ target: teamNotices.key })
      .returning();
  });
  if (!row) return 'known';
  if (row.status === 'held') return 'held';
  await handOver(deps, row);
  return 'mailed';
}

/** Notices mailed one by one since `since` (those still being handed over count too). */
async function countSince(db: Db, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(teamNotices)
    .where(and(inArray(teamNotices.status, ['sending', 'mailed']), gte(teamNotices.createdAt, since)));
  return row?.n ?? 0;
}

async function handOver(deps: Deps, row: NoticeRow): Promise<void> {
  await deps.mailer.send(teamNoticeMail({ to: deps.config.team.email, subject: row.subject, lines: row.lines, link: row.link, replyTo: row.replyTo }), {
    id: jobIdFor(`team-notice:${row.key}`),
  });
  await deps.db.update(teamNotices).set({ status: 'mailed' }).where(eq(teamNotices.id, row.id));
}

/** Notices a crash left between stored and handed over (older than a minute), handed over again. */
export async function resumeTeamNotices(deps: Deps): Promise<number> {
  const stuck = await deps.db
    .select()
    .from(teamNotices)
    .where(and(eq(teamNotices.status, 'sending'), lt(teamNotices.createdAt, new Date(Date.now() - 60_000))));
  for (const row of stuck) await handOver(deps, row);
  return stuck.length;
}

/**
 * The daily summary: once the day's hour has come, every held notice in one mail, with what
 * waits in the queue. Once a day; a summary already sent today waits for tomorrow's.
 */
export async function sendTeamSummary(deps: Deps, now = new Date()): Promise<number> {
  if (now.getUTCHours() < deps.config.team.summaryHourUtc) return 0;
  const day = now.toISOString().slice(0, 10);
  const [sentToday] = await deps.db.select({ id: teamNotices.id }).from(teamNotices).where(eq(teamNotices.summaryDay, day)).limit(1);
  if (sentToday) return 0;
  const held = await deps.db.select().from(teamNotices).where(eq(teamNotices.status, 'held')).orderBy(asc(teamNotices.createdAt));
  if (!held.length) return 0;
  // Handed over before the rows are marked: a crash in between sends it again under the same job
  // id (the day and the same notices), so it is one mail, and no notice is ever marked unsent.
  await deps.mailer.send(
    teamSummaryMail({
      to: deps.config.team.email,
      day,
      notices: held.map((n) => ({ kind: n.kind as NoticeKind, subject: n.subject, link: n.link })),
      queue: await queueCounts(deps.db),
      queueUrl: `${deps.config.baseUrl}/admin/requests`,
    }),
    { id: jobIdFor(`team-summary:${day}:${held.map((n) => n.id).join(',')}`) },
  );
  await deps.db
    .update(teamNotices)
    .set({ status: 'summarised', summaryDay: day })
    .where(inArray(teamNotices.id, held.map((n) => n.id)));
  return held.length;
}
