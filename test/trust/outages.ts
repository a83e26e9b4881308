// Scenario 4: the mail provider down (2 minutes; 20 s short), then the file store down (1 minute;
// 10 s short). Mail stored meanwhile is delivered afterwards, each once; a footage upload and a
// reel render started during the storage outage fail cleanly, are retried, and finish; nothing
// half-stored is shown (every footage row and every listed video has its whole file).
import { eq } from 'drizzle-orm';
import { footage, reelRenders } from '../../src/server/db/schema';
import { dashboardVideosWhole, faceGame, footageIndexed, plainGame, queueMail, queueRender, seconds, sha256, storedSha256, uploadFootage, waitFor } from './fixtures';
import { outcome, type Scenario } from './scenario';
import { call, seedAdmin, seedFamilies } from './seed';
import { sleep } from './topology';

export const outages: Scenario = {
  name: 'outages',
  timeoutMs: { short: 6 * 60_000, full: 12 * 60_000 },
  async run(t, { log, short }) {
    const failures: string[] = [];
    const figures: string[] = [];

    // --- SMTP down ---------------------------------------------------------------------------
    const smtpDown = short ? 20_000 : 120_000;
    await t.smtp.stop();
    const smtpStopped = Date.now();
    const workerLogsBefore = t.workers.map((w) => w.logs.length);
    const subjects: string[] = [];
    for (let i = 0; i < 10; i++) subjects.push(await queueMail(t, `smtp-down ${i}`));
    await sleep(smtpDown - (Date.now() - smtpStopped));
    await t.smtp.start();
    const smtpBack = Date.now();
    log(`SMTP back after ${seconds(smtpBack - smtpStopped)}`);
    await waitFor('the held mail delivered', async () => subjects.every((s) => t.smtp.count(s) >= 1), smtpDown * 2 + 60_000, 500).catch((e: Error) => failures.push(e.message));
    const mailDelay = Date.now() - smtpBack;
    const twice = subjects.filter((s) => t.smtp.count(s) > 1).length;
    const lost = subjects.filter((s) => t.smtp.count(s) === 0).length;
    if (twice) failures.push(`${twice} mails delivered twice`);
    if (lost) failures.push(`${lost} mails lost`);
    // Held mail brought forward by the first retry that went through (decision 0027), from the workers' logs.
    const released = t.workers
      .flatMap((w, i) => w.logs.slice(workerLogsBefore[i]))
      .filter((l) => l.msg === 'held jobs brought forward' && l.job === 'mail.deliver')
      .reduce((sum, l) => sum + Number(l.released ?? 0), 0);
    figures.push(`smtp_down=${seconds(smtpBack - smtpStopped)} mails=${subjects.length} delivered_after=${seconds(mailDelay)} released=${released} lost=${lost} twice=${twice}`);

    // --- S3 down ---------------------------------------------------------------------------
    const admin = await seedAdmin(t);
    const [family] = await seedFamilies(t, 1);
    // Footage to render from, stored before the outage.
    const { footageId: source } = await uploadFootage(t, t.api(), admin, await faceGame(8)).done;
    await footageIndexed(t, source, 240_000);
    const file = await plainGame(6, '640x360');
    const s3Down = short ? 10_000 : 60_000;
    await t.s3.stop();
    const s3Stopped = Date.now();
    log('S3 stopped');
    const ready = await fetch(`${t.api()}/api/ready`);
    const readyBody = (await ready.json()) as { storage?: string };
    if (ready.status !== 503 || readyBody.storage !== 'unavailable' || !ready.headers.get('retry-after')) failures.push(`/api/ready during the S3 outage: ${ready.status} ${JSON.stringify(readyBody)}`);
    // An upload finishing while the store is down, and a render needing it: both retried.
    const upload = uploadFootage(t, t.api(), admin, file, { retryDelays: [1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000, 15_000] });
    const { renderId } = await queueRender(t, admin, family!, source, 5);
    const dashboard = await call(t, t.api(), '/api/videos', { cookie: family!.cookie });
    if (dashboard.status !== 200) failures.push(`the dashboard during the S3 outage answered ${dashboard.status}`);
    await sleep(s3Down - (Date.now() - s3Stopped));
    await t.s3.start();
    const s3Back = Date.now();
    log(`S3 back after ${seconds(s3Back - s3Stopped)}`);
    const uploaded = await upload.done.catch((e: Error) => {
      failures.push(`the upload did not finish after the outage: ${e.message.slice(0, 200)}`);
      return null;
    });
    const uploadDone = Date.now() - s3Back;
    if (uploaded) {
      const [row] = await t.deps.db.select().from(footage).where(eq(footage.id, uploaded.footageId));
      const stored = row ? await storedSha256(t, row.sourceKey) : null;
      if (stored !== sha256(file)) failures.push('the uploaded footage is not stored whole');
    }
    const render = await waitFor(
      'the render after the outage',
      async () => {
        const [row] = await t.deps.db.select().from(reelRenders).where(eq(reelRenders.id, renderId));
        return row?.state === 'ready' || row?.state === 'failed' ? row : null;
      },
      300_000,
      500,
    ).catch((e: Error) => {
      failures.push(e.message);
      return null;
    });
    if (render?.state === 'failed') failures.push(`the render failed for good: ${render.error}`);
    const renderDone = Date.now() - s3Back;
    // Nothing half-stored: every footage row has its file, every listed video plays whole.
    const rows = await t.deps.db.select().from(footage);
    const missing = [];
    for (const row of rows) if (!(await t.deps.storage.stat(row.sourceKey))) missing.push(row.id);
    if (missing.length) failures.push(`${missing.length} footage rows without their file`);
    const whole = await dashboardVideosWhole(t, family!);
    if (whole.problems.length) failures.push(`dashboard: ${whole.problems.join(', ')}`);
    if (render?.state === 'ready' && whole.playable !== 2) failures.push(`${whole.playable} playable reel videos after the render (expected 2)`);
    figures.push(`s3_down=${seconds(s3Back - s3Stopped)} upload_done_after=${seconds(uploadDone)} render_done_after=${seconds(renderDone)} footage_without_file=${missing.length}`);
    return outcome(failures, figures.join(' '));
  },
};
