// Scenario 3: PostgreSQL stopped and started again under traffic. While it is down every answer
// is a clean 503 with Retry-After (no 500, no stack); afterwards both API instances and both
// workers come back by themselves, and the mail jobs stored before the restart are each
// delivered exactly once.
import { queueMail, seconds, waitFor } from './fixtures';
import { outcome, type Scenario } from './scenario';
import { seedFamilies } from './seed';
import { sleep } from './topology';
import { startTraffic } from './traffic';

export const pgRestart: Scenario = {
  name: 'pg-restart',
  timeoutMs: { short: 4 * 60_000, full: 6 * 60_000 },
  async run(t, { log, short }) {
    if (!t.pg.ownCluster) return { result: 'skip', figures: `no cluster of the suite's own to restart (${t.pg.why})` };
    const failures: string[] = [];
    const processes = [...t.apis, ...t.workers];
    // Log lines from here on: an earlier scenario of the run may have killed a worker on purpose.
    const logsBefore = processes.map((p) => p.logs.length);
    const families = await seedFamilies(t, 20);
    const traffic = startTraffic(t, families);
    await sleep(2000);
    // Mail in flight across the restart: each must arrive once. Both workers are in the middle of
    // a delivery when the database stops, and the provider accepts it while the database is down:
    // the job is done and cannot be recorded until it is back.
    t.smtp.holdMs = short ? 2000 : 3000;
    const subjects: string[] = [];
    for (let i = 0; i < 20; i++) subjects.push(await queueMail(t, `pg-restart ${i}`));
    await waitFor('both workers delivering a mail', async () => t.smtp.inFlight >= 2, 15_000, 50).catch(() => log(`only ${t.smtp.inFlight} mail in delivery when the database stops`));
    const down = short ? 5000 : 10_000;
    const stoppedAt = Date.now();
    await t.pg.stop();
    log(`PostgreSQL stopped for ${down / 1000} s`);
    await sleep(down);
    await t.pg.start();
    const startedAt = Date.now();
    log(`PostgreSQL started again after ${seconds(startedAt - stoppedAt)}`);

    // Each API instance ready again, by itself.
    const apiBack = await Promise.all(
      t.apis.map(async (api) => {
        await waitFor(`${api.name} ready`, async () => (await fetch(`${api.url}/api/ready`).catch(() => null))?.status === 200, 60_000, 100);
        return Date.now() - startedAt;
      }),
    );
    // Each worker takes a job again: mail is sent until both have started one since the restart.
    const workerBack = await Promise.all(
      t.workers.map(async (worker) => {
        const since = worker.logs.length;
        await waitFor(
          `${worker.name} working`,
          async () => {
            if (!worker.logs.slice(since).some((l) => l.msg === 'job finished')) {
              subjects.push(await queueMail(t, `pg-restart probe`));
              return false;
            }
            return true;
          },
          90_000,
          500,
        ).catch((error: Error) => {
          const tail = worker.logs.slice(-12).map((l) => `${l.job ?? ''} ${l.msg}${l.err ? ` (${String(l.err)})` : ''}`);
          log(`${worker.name} after the restart (${worker.alive() ? 'running' : 'exited'}): ${tail.join(' / ') || 'no log lines'}`);
          throw error;
        });
        return Date.now() - startedAt;
      }),
    );
    await sleep(2000);
    await traffic.stop();
    t.smtp.holdMs = 0;
    await waitFor('every mail delivered', async () => subjects.every((s) => t.smtp.count(s) >= 1), 120_000, 500).catch((e: Error) => failures.push(e.message));
    await sleep(3000);
    // No worker stopped, so no job may have been taken back from one: a running job whose lease
    // could not be renewed while the database was down is not an orphan.
    const takenBack = processes
      .flatMap((p, i) => p.logs.slice(logsBefore[i]))
      .filter((l) => l.msg === 'the worker running this job stopped; running it again').length;
    if (takenBack) failures.push(`${takenBack} jobs taken back from workers that were running`);
    const twice = subjects.filter((s) => t.smtp.count(s) > 1).length;
    const lost = subjects.filter((s) => t.smtp.count(s) === 0).length;
    if (twice) failures.push(`${twice} mails delivered more than once`);
    if (lost) failures.push(`${lost} mails lost`);
    if (traffic.bad.length) failures.push(`${traffic.bad.length} bad answers, e.g. ${[...new Set(traffic.bad)].slice(0, 3).join(' | ')}`);
    for (const p of [...t.apis, ...t.workers]) if (!p.alive()) failures.push(`${p.name} died`);
    return outcome(
      failures,
      `down=${seconds(startedAt - stoppedAt)} api_recovery=${apiBack.map(seconds).join(',')} worker_recovery=${workerBack.map(seconds).join(',')} requests=${traffic.requests} ok=${traffic.ok} clean_503=${traffic.unavailable} bad=${traffic.bad.length} mails=${subjects.length} lost=${lost} twice=${twice} taken_back=${takenBack}`,
    );
  },
};
