// Benchmark: what a signed-in request costs on its way in, as ratios to GET /api/health timed in
// the same run (issue 23's goals: the session check ≤ 1.5×, the dashboard's five requests ≤ 5× on
// PostgreSQL, the admin users list's median ≤ 5×).
//
// Starts the real app in-process (test/support/app.ts) on PostgreSQL (TEST_DATABASE_URL, by
// default the local server's `test` database; BENCH_PGLITE=1 for the embedded one), seeds the
// dashboard's data set (bench/dashboard-seed.ts: 10,000 other users with sessions, 50,000 videos,
// 5,000 stills, 3,000 requests), signs up a family and an admin through the real flows and times,
// interleaved in a rotating order:
//   health        GET /api/health (no session, no database): the baseline
//   session       GET /api/admin/whoami: the session check and the admin check, nothing else
//   session_cold  the same with the admin's cache entry dropped first (what every request paid
//                 before); the family's stays, so the measure after it is not made cold too
//   dashboard     GET /api/dashboard: the dashboard's data in one request, as the page loads it
//   dashboard_five  the five requests it replaces (/api/profile, /videos, /stills, /requests,
//                 /events) in parallel, as the page refreshes a part or as it loaded before
//   admin_users   GET /api/admin/users (the first page of 10,000 users)
// Prints median and p95 of each and ends with
//   RESULT request-path session=… dashboard_pg=… admin_users=…   (median ratios to health)
//
//   npx tsx bench/request-path.ts
// Options: BENCH_ROUNDS (default 200), BENCH_WARMUP (default 30), BENCH_PGLITE=1, BENCH_NO_VACUUM=1.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { viewerCacheOf } from '../src/server/auth/viewer-cache';
import { createVerifiedUser, startTestApp, type TestApp } from '../test/support/app';
import { makeAdmin } from '../test/support/dashboard-fixtures';
import { seed } from './dashboard-seed';
import { exec, intFromEnv, ms, percentile, runBenchmark, settleConnections } from './support';

if (process.env.BENCH_PGLITE === '1') delete process.env.TEST_DATABASE_URL;
else process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const ROUNDS = intFromEnv('BENCH_ROUNDS', 200);
const WARMUP = intFromEnv('BENCH_WARMUP', 30);
const DASHBOARD_PATHS = ['/api/profile', '/api/videos', '/api/stills', '/api/requests', '/api/events'];

async function get(app: TestApp, path: string, cookie?: string): Promise<void> {
  const res = await app.fetch(path, { cookie });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 200)}`);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const app = await startTestApp();
  try {
    const family = await createVerifiedUser(app, { fullName: 'Measured Athlete' });
    const admin = await createVerifiedUser(app, { fullName: 'Measuring Admin' });
    await makeAdmin(app, admin.userId);
    await seed(app, family.userId);
    // What autovacuum does to a live database within a minute of such a seed: the planner's
    // statistics and the visibility map (a count can read an index alone), as in steady state
    // (as bench/admin-users.ts does). BENCH_NO_VACUUM=1: statistics only, fresh rows.
    await exec(app, process.env.BENCH_NO_VACUUM === '1' ? sql`ANALYZE` : sql`VACUUM ANALYZE`);
    await settleConnections(app);
    const cache = viewerCacheOf(app.server.deps.auth)!;

    const measures: Array<[string, () => Promise<void>]> = [
      ['health', () => get(app, '/api/health')],
      ['session', () => get(app, '/api/admin/whoami', admin.cookie)],
      [
        'session_cold',
        () => {
          cache.forgetUser(admin.userId);
          return get(app, '/api/admin/whoami', admin.cookie);
        },
      ],
      ['dashboard', () => get(app, '/api/dashboard', family.cookie)],
      ['dashboard_five', () => Promise.all(DASHBOARD_PATHS.map((p) => get(app, p, family.cookie))).then(() => {})],
      ['admin_users', () => get(app, '/api/admin/users', admin.cookie)],
    ];
    const samples = new Map<string, number[]>(measures.map(([name]) => [name, []]));
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (let i = 0; i < measures.length; i++) {
        const [name, run] = measures[(round + i) % measures.length]!;
        const t = await timed(run);
        if (round >= WARMUP) samples.get(name)!.push(t);
      }
    }

    const db = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    const base = percentile(samples.get('health')!, 50);
    const ratio = (name: string) => percentile(samples.get(name)!, 50) / base;
    console.log(`${db}, ${ROUNDS} rounds after ${WARMUP} warm-up, session cache ${app.server.deps.config.sessionCacheSeconds} s`);
    for (const [name] of measures) {
      const s = samples.get(name)!;
      console.log(`${name.padEnd(15)} median ${ms(percentile(s, 50))}  p95 ${ms(percentile(s, 95))}  ${ratio(name).toFixed(2)}x`);
    }
    const key = db === 'PostgreSQL' ? 'dashboard_pg' : 'dashboard_pglite';
    console.log(
      `RESULT request-path session=${ratio('session').toFixed(2)} ${key}=${ratio('dashboard').toFixed(2)} admin_users=${ratio('admin_users').toFixed(2)} session_cold=${ratio('session_cold').toFixed(2)} dashboard_five=${ratio('dashboard_five').toFixed(2)}`,
    );
  } finally {
    await app.close();
  }
}

runBenchmark(main);
