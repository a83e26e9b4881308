// Benchmark: how long the dashboard's data takes to load, relative to a trivial API request.
//
// Starts the real app in-process (test/support/app.ts: real HTTP, a fresh PGlite, or a fresh
// PostgreSQL database when TEST_DATABASE_URL is set), signs up two verified users through the
// real sign-up flow, seeds ~10,000 other users with their videos, stills and requests using
// set-based SQL, runs ANALYZE, and then measures, interleaved round by round:
//   baseline   GET /api/health
//   dashboard  GET /api/profile, /api/videos, /api/stills, /api/requests, /api/events in
//              parallel with the session cookie, as the dashboard page loads them
//   empty      the same five requests for a user with no videos, stills or requests
// It prints medians, p95s and the ratios to the baseline. See bench/README.md.
//
//   npx tsx bench/dashboard-data.ts            (PGlite)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/dashboard-data.ts
//
// Options (environment): BENCH_ROUNDS (default 200), BENCH_WARMUP (default 30),
// BENCH_EXPLAIN=1 prints the query plans of the dashboard's queries for the measured user,
// BENCH_DETAIL=1 also times each of the five requests alone (one at a time) for the measured user.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { createVerifiedUser, startTestApp, type TestApp } from '../test/support/app';
import { MINE_HIDDEN, MINE_REQUESTS, MINE_STILLS, MINE_VISIBLE, OTHER_USERS, seed } from './dashboard-seed';
import { exec, intFromEnv, ms, percentile, runBenchmark, settleConnections } from './support';

const ROUNDS = intFromEnv('BENCH_ROUNDS', 200);
const WARMUP = intFromEnv('BENCH_WARMUP', 30);
const DASHBOARD_PATHS = ['/api/profile', '/api/videos', '/api/stills', '/api/requests', '/api/events'] as const;


async function count(app: TestApp, table: string): Promise<number> {
  const [row] = await exec(app, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
  return Number(row?.n ?? 0);
}

async function getJson(app: TestApp, path: string, cookie?: string): Promise<unknown> {
  const res = await app.fetch(path, { cookie });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 200)}`);
  return JSON.parse(body);
}

/** One timed request: the whole response body is read, the status checked. */
async function timeHealth(app: TestApp): Promise<number> {
  const t0 = performance.now();
  await getJson(app, '/api/health');
  return performance.now() - t0;
}

/** The dashboard's five requests in parallel, timed until the last body is read. */
async function timeDashboard(app: TestApp, cookie: string): Promise<number> {
  const t0 = performance.now();
  await Promise.all(DASHBOARD_PATHS.map((p) => getJson(app, p, cookie)));
  return performance.now() - t0;
}

const times = (v: number) => `${v.toFixed(1)}x`;
const n = (v: number) => v.toLocaleString('en-US');

async function explainDashboardQueries(app: TestApp, me: string): Promise<void> {
  const queries: Array<[string, SQL]> = [
    ['profile', sql`SELECT * FROM user_profiles WHERE id = ${me}::text`],
    [
      'videos',
      sql`SELECT * FROM user_videos WHERE user_id = ${me}::text AND is_visible = true AND status = 'active'
          ORDER BY CASE WHEN height > width THEN 1 ELSE 0 END, created_at DESC`,
    ],
    ['stills', sql`SELECT * FROM user_stills WHERE user_id = ${me}::text ORDER BY order_position, created_at`],
    ['requests', sql`SELECT * FROM highlight_requests WHERE user_id = ${me}::text ORDER BY created_at DESC`],
    ['events', sql`SELECT * FROM events WHERE is_active = true ORDER BY starts_on, name`],
    ['event games', sql`SELECT * FROM event_games ORDER BY position`],
    ['admin check', sql`SELECT id FROM admins WHERE user_id = ${me}::text AND is_active = true LIMIT 1`],
    ['session', sql`SELECT * FROM session WHERE token = 'no-such-token'`],
  ];
  for (const [label, query] of queries) {
    const rows = await exec(app, sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${query}`);
    console.log(`\n-- ${label}`);
    for (const row of rows) console.log(`   ${String(Object.values(row)[0])}`);
  }
  console.log('');
}

async function main(): Promise<void> {
  const started = performance.now();
  const app = await startTestApp();
  try {
    const dbKind = process.env.TEST_DATABASE_URL ? 'PostgreSQL (TEST_DATABASE_URL)' : 'PGlite (in-process)';
    const measured = await createVerifiedUser(app, { fullName: 'Measured Athlete' });
    const empty = await createVerifiedUser(app, { fullName: 'Empty Athlete' });

    const seedStart = performance.now();
    await seed(app, measured.userId);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    await settleConnections(app);

    const sizes = {
      users: await count(app, 'user'),
      profiles: await count(app, 'user_profiles'),
      sessions: await count(app, 'session'),
      videos: await count(app, 'user_videos'),
      stills: await count(app, 'user_stills'),
      requests: await count(app, 'highlight_requests'),
    };

    // What the measured user's dashboard gets, checked once before timing it.
    const videos = (await getJson(app, '/api/videos', measured.cookie)) as unknown[];
    const stills = (await getJson(app, '/api/stills', measured.cookie)) as unknown[];
    const requests = (await getJson(app, '/api/requests', measured.cookie)) as unknown[];
    if (videos.length !== MINE_VISIBLE || stills.length !== MINE_STILLS || requests.length !== MINE_REQUESTS) {
      throw new Error(`measured user sees ${videos.length} videos, ${stills.length} stills, ${requests.length} requests`);
    }
    const emptyVideos = (await getJson(app, '/api/videos', empty.cookie)) as unknown[];
    if (emptyVideos.length !== 0) throw new Error(`the empty user sees ${emptyVideos.length} videos`);

    if (process.env.BENCH_EXPLAIN === '1') await explainDashboardQueries(app, measured.userId);

    // Interleaved rounds; the order within a round rotates so none always runs first.
    const baseline: number[] = [];
    const dashboard: number[] = [];
    const emptyDashboard: number[] = [];
    const measures: Array<[number[], () => Promise<number>]> = [
      [baseline, () => timeHealth(app)],
      [dashboard, () => timeDashboard(app, measured.cookie)],
      [emptyDashboard, () => timeDashboard(app, empty.cookie)],
    ];
    const measureStart = performance.now();
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (let i = 0; i < measures.length; i++) {
        const [samples, run] = measures[(round + i) % measures.length]!;
        const t = await run();
        if (round >= WARMUP) samples.push(t);
      }
    }
    const measureSeconds = (performance.now() - measureStart) / 1000;

    // Optional: each endpoint alone, sequentially, interleaved with the baseline.
    const detail: Array<[string, number[]]> = DASHBOARD_PATHS.map((p) => [p, []]);
    const detailBaseline: number[] = [];
    if (process.env.BENCH_DETAIL === '1') {
      for (let round = 0; round < WARMUP + ROUNDS; round++) {
        const t = await timeHealth(app);
        if (round >= WARMUP) detailBaseline.push(t);
        for (const [path, samples] of detail) {
          const t0 = performance.now();
          await getJson(app, path, measured.cookie);
          if (round >= WARMUP) samples.push(performance.now() - t0);
        }
      }
    }

    const b50 = percentile(baseline, 50);
    const b95 = percentile(baseline, 95);
    const d50 = percentile(dashboard, 50);
    const d95 = percentile(dashboard, 95);
    const e50 = percentile(emptyDashboard, 50);
    const e95 = percentile(emptyDashboard, 95);

    console.log(`Dashboard data benchmark: ${dbKind}; node ${process.version}, ${os.cpus().length} CPUs`);
    console.log(
      `Dataset: ${n(sizes.users)} users (${n(OTHER_USERS)} seeded) with ${n(sizes.profiles)} profiles and ${n(sizes.sessions)} sessions, ` +
        `${n(sizes.videos)} videos, ${n(sizes.stills)} stills, ${n(sizes.requests)} highlight requests; seeded in ${seedSeconds.toFixed(1)} s`,
    );
    console.log(
      `Measured user: ${MINE_VISIBLE} visible videos (+${MINE_HIDDEN} hidden), ${MINE_STILLS} stills, ${MINE_REQUESTS} requests. ` +
        `${WARMUP} warm-up + ${ROUNDS} measured rounds, interleaved (${measureSeconds.toFixed(1)} s)`,
    );
    console.log(`                                         median        p95   median ratio  p95 ratio`);
    console.log(`  baseline  GET /api/health           ${ms(b50)} ${ms(b95)}`);
    console.log(`  dashboard 5 GETs in parallel        ${ms(d50)} ${ms(d95)}   ${times(d50 / b50).padStart(10)} ${times(d95 / b95).padStart(10)}`);
    console.log(`  same, user with no videos/stills    ${ms(e50)} ${ms(e95)}   ${times(e50 / b50).padStart(10)} ${times(e95 / b95).padStart(10)}`);
    if (detailBaseline.length) {
      const base = percentile(detailBaseline, 50);
      console.log(`  each request alone, sequentially (baseline median here ${ms(base).trim()}):`);
      for (const [path, samples] of detail) {
        const m = percentile(samples, 50);
        console.log(`    ${path.padEnd(32)} ${ms(m)} ${ms(percentile(samples, 95))}   ${times(m / base).padStart(10)}`);
      }
    }
    console.log(
      `RESULT dashboard/baseline: median ${times(d50 / b50)}, p95 ${times(d95 / b95)} ` +
        `(user with no videos: median ${times(e50 / b50)}, p95 ${times(e95 / b95)}); total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await app.close();
  }
}

runBenchmark(main);
