// Scenario 1: a worker killed (SIGKILL) in the middle of a footage index, a reel render and a mail
// delivery. Each job finishes on the other worker; there is exactly one face index, one set of
// reel outputs and one mail; the family's dashboard never lists a video it cannot play whole.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { queryRows } from '../../src/server/db/client';
import { faceTracks, reelRenders, userStills, userVideos } from '../../src/server/db/schema';
import { leftoversOf } from '../../src/server/jobs/leftovers';
import { dashboardVideosWhole, faceGame, footageIndexed, jobHolder, queueMail, queueRender, seconds, uploadFootage, waitFor } from './fixtures';
import { outcome, type Scenario } from './scenario';
import { seedAdmin, seedFamilies } from './seed';
import { heal, sleep, type Topology } from './topology';

async function killHolder(t: Topology, jobId: string, what: string, until: () => Promise<boolean>): Promise<{ killedAt: number; victim: string; pid: number }> {
  const held = await waitFor(`a worker starting the ${what}`, async () => jobHolder(t, jobId), 120_000, 100);
  await waitFor(`the ${what} under way`, until, 120_000, 100);
  const killedAt = Date.now();
  const pid = held.worker.pid()!;
  await held.worker.kill();
  return { killedAt, victim: held.worker.name, pid };
}

/**
 * A minute after the kill, nothing of the killed worker is left: no ffmpeg it started (each media
 * child carries its worker's process id) and no work folder of it (named with that id).
 */
async function leftBehind(killed: { killedAt: number; pid: number }, what: string): Promise<string[]> {
  await sleep(Math.max(0, killed.killedAt + 60_000 - Date.now()));
  const left = await leftoversOf(killed.pid);
  return [
    ...(left.processes.length ? [`${left.processes.length} media process(es) of the worker killed in the ${what} still running a minute later`] : []),
    ...(left.folders.length ? [`work folder(s) of the worker killed in the ${what} still there: ${left.folders.join(', ')}`] : []),
  ];
}

async function jobRuns(t: Topology, jobId: string): Promise<{ state: string; retry_count: number } | undefined> {
  const [row] = await queryRows<{ state: string; retry_count: number }>(
    t.deps.db,
    sql`SELECT state, retry_count FROM pgboss.job WHERE id = ${jobId} UNION ALL SELECT state, retry_count FROM pgboss.archive WHERE id = ${jobId}`,
  );
  return row;
}

/**
 * The job's row once pg-boss has recorded how it ended, or as it stands after 30 s. What the
 * scenario waits for (the footage marked indexed, the render ready) is written before the
 * handler's last steps (the index job then searches hand-added clips, matches the game again and
 * queues the camera sync), so reading once right after it can still find the job active.
 */
async function jobEnded(t: Topology, jobId: string): Promise<{ state: string; retry_count: number } | undefined> {
  const ended = (row: { state: string } | undefined) => row && ['completed', 'failed', 'cancelled'].includes(row.state);
  const found = await waitFor(
    `the job ${jobId} recorded as ended`,
    async () => {
      const row = await jobRuns(t, jobId);
      return ended(row) ? row : null;
    },
    30_000,
    200,
  ).catch(() => undefined);
  return found ?? jobRuns(t, jobId);
}

export const workerKill: Scenario = {
  name: 'worker-kill',
  timeoutMs: { short: 8 * 60_000, full: 10 * 60_000 },
  async run(t, { log }) {
    const failures: string[] = [];
    const figures: string[] = [];
    const admin = await seedAdmin(t);
    const [family] = await seedFamilies(t, 1);

    // --- the footage index ------------------------------------------------------------------
    const file = await faceGame(16);
    const { footageId } = await uploadFootage(t, t.api(), admin, file).done;
    const index = await killHolder(t, footageId, 'face index', async () => {
      // Half-way: the index has sampled some frames (its progress is on the row).
      const rows = await queryRows<{ p: number | null }>(t.deps.db, sql`SELECT index_progress AS p FROM footage WHERE id = ${footageId}`);
      return (rows[0]?.p ?? 0) >= 10;
    });
    log(`face index: killed ${index.victim} mid-job`);
    await heal(t);
    await footageIndexed(t, footageId, 240_000);
    const indexRecovery = Date.now() - index.killedAt;
    const tracks = await t.deps.db.select().from(faceTracks).where(eq(faceTracks.footageId, footageId));
    const distinct = new Set(tracks.map((tr) => `${tr.startS}:${tr.endS}:${tr.box.x}`)).size;
    if (!tracks.length) failures.push('the index found no faces');
    if (distinct !== tracks.length) failures.push(`the index has ${tracks.length} tracks of which ${distinct} distinct (written twice)`);
    const indexJob = await jobEnded(t, footageId);
    if (indexJob?.state !== 'completed' || indexJob.retry_count < 1) failures.push(`index job ${JSON.stringify(indexJob)} (expected completed after a retry)`);
    figures.push(`index_recovery=${seconds(indexRecovery)} tracks=${tracks.length}`);

    // --- the reel render --------------------------------------------------------------------
    const { renderId } = await queueRender(t, admin, family!, footageId, 12);
    let halfSeen = 0;
    let watching = true;
    // The family's dashboard, looked at all along: every video it lists must play whole.
    const watcher = (async () => {
      while (watching) {
        const { problems } = await dashboardVideosWhole(t, family!).catch((e: Error) => ({ playable: 0, problems: [e.message] }));
        halfSeen += problems.length;
        if (problems.length) log(`dashboard: ${problems.join(', ')}`);
        await sleep(300);
      }
    })();
    const render = await killHolder(t, renderId, 'reel render', async () => {
      const [row] = await t.deps.db.select({ progress: reelRenders.progress, state: reelRenders.state }).from(reelRenders).where(eq(reelRenders.id, renderId));
      return row?.state === 'rendering' && (row.progress ?? 0) >= 5;
    });
    log(`reel render: killed ${render.victim} mid-job`);
    await heal(t);
    await waitFor(
      'the render ready',
      async () => {
        const [row] = await t.deps.db.select().from(reelRenders).where(eq(reelRenders.id, renderId));
        if (row?.state === 'failed') throw new Error(`render failed: ${row.error}`);
        return row?.state === 'ready';
      },
      300_000,
      500,
    );
    const renderRecovery = Date.now() - render.killedAt;
    watching = false;
    await watcher;
    const videos = await t.deps.db.select().from(userVideos).where(and(eq(userVideos.userId, family!.userId), isNotNull(userVideos.renderId)));
    const stills = await t.deps.db.select().from(userStills).where(eq(userStills.userId, family!.userId));
    const stored = await t.deps.storage.list(`user-videos/${family!.userId}/`);
    const storedStills = await t.deps.storage.list(`user-stills/${family!.userId}/`);
    const previews = await t.deps.storage.list(`reel-previews/${family!.userId}/`);
    if (videos.length !== 2) failures.push(`${videos.length} reel video rows (expected 2: reel and social cut)`);
    if (stored.length !== 2) failures.push(`${stored.length} stored reel videos (expected 2)`);
    if (storedStills.length !== stills.length) failures.push(`${storedStills.length} stored stills for ${stills.length} rows`);
    if (previews.length !== 1) failures.push(`${previews.length} previews stored (expected 1)`);
    const whole = await dashboardVideosWhole(t, family!);
    if (whole.playable !== 2 || whole.problems.length) failures.push(`dashboard after the render: ${whole.playable} playable, ${whole.problems.join(', ')}`);
    if (halfSeen) failures.push(`the dashboard listed ${halfSeen} video(s) that did not play whole`);
    const renderJob = await jobEnded(t, renderId);
    if (renderJob?.state !== 'completed' || renderJob.retry_count < 1) failures.push(`render job ${JSON.stringify(renderJob)} (expected completed after a retry)`);
    // The family's "reel delivered" mail: once, though the render ran twice.
    const delivered = await waitFor('the delivery mail', async () => t.smtp.mails.filter((m) => m.to.includes(family!.email)).length || null, 60_000).catch(() => 0);
    await sleep(2000);
    const deliveredNow = t.smtp.mails.filter((m) => m.to.includes(family!.email)).length;
    if (deliveredNow !== 1) failures.push(`${deliveredNow || delivered} delivery mails to the family (expected 1)`);
    figures.push(`render_recovery=${seconds(renderRecovery)} videos=${videos.length} stills=${stills.length}`);
    const leftovers = [...(await leftBehind(index, 'face index')), ...(await leftBehind(render, 'reel render'))];
    failures.push(...leftovers);
    figures.push(`leftovers=${leftovers.length}`);

    // --- the mail ---------------------------------------------------------------------------
    // A slow provider: the message is sent, the answer held back, and the worker killed meanwhile.
    t.smtp.holdMs = 4000;
    const subject = await queueMail(t, 'worker-kill');
    const [job] = await queryRows<{ id: string }>(t.deps.db, sql`SELECT id FROM pgboss.job WHERE name = 'mail.deliver' AND data->>'subject' = ${subject}`);
    const mail = await killHolder(t, job!.id, 'mail delivery', async () => {
      await sleep(1500);
      return true;
    });
    t.smtp.holdMs = 0;
    log(`mail: killed ${mail.victim} mid-delivery`);
    await heal(t);
    await waitFor('the mail delivered', async () => t.smtp.count(subject) > 0, 120_000);
    const mailRecovery = Date.now() - mail.killedAt;
    await sleep(3000);
    if (t.smtp.count(subject) !== 1) failures.push(`${t.smtp.count(subject)} copies of the mail (expected 1)`);
    figures.push(`mail_recovery=${seconds(mailRecovery)} mails=${t.smtp.count(subject)}`);
    return outcome(failures, figures.join(' '));
  },
};
