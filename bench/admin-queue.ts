// Benchmark: the admins' work queue (GET /api/admin/requests, issue 36 item 1) with 10,000
// families and 30,000 requests, relative to GET /api/health in the same run. Goal: the first
// page and a search each at most 5 times the health request's median, like the users list.
//
// Starts the real app in-process (test/support/app.ts: real HTTP; PostgreSQL when
// TEST_DATABASE_URL is set, else PGlite), signs up one admin, seeds with set-based SQL 10,000
// families and 30,000 requests in every state (waiting, matching, to review, rendered with a
// ready render, paid with a completed order, delivered) at the two demo events, runs VACUUM
// ANALYZE, then times the queries interleaved, round by round.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/admin-queue.ts
//
// Options (environment): BENCH_ROUNDS (default 100), BENCH_WARMUP (default 20).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createVerifiedUser, startTestApp, type TestApp } from '../test/support/app';
import { makeAdmin } from '../test/support/dashboard-fixtures';
import { exec, intFromEnv, ms, percentile, interleavedRounds, runBenchmark, settleConnections, timedGet } from './support';

const FAMILIES = 10_000;
const REQUESTS = 30_000;
const GOAL_RATIO = 5;
const ROUNDS = intFromEnv('BENCH_ROUNDS', 100);
const WARMUP = intFromEnv('BENCH_WARMUP', 20);

const QUERIES: ReadonlyArray<readonly [string, string]> = [
  ['baseline    GET /api/health', '/api/health'],
  ['first page  GET /api/admin/requests', '/api/admin/requests'],
  ['search      q=queue123', '/api/admin/requests?q=queue123'],
  ['to approve  state=approve', '/api/admin/requests?state=approve'],
  ['paid        state=paid', '/api/admin/requests?state=paid'],
  ['home counts GET /api/admin/stats', '/api/admin/stats'],
];

async function seed(app: TestApp) {
  await exec(
    app,
    sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at)
        SELECT 'queue-' || g, 'Family Queue' || g, 'queue' || g || '@example.org', true, now() - g * interval '11 minutes', now()
        FROM generate_series(1, ${FAMILIES}::int) g`,
  );
  // Three requests a family: one open at each demo event (the one open request per family and
  // event that the index allows), and one delivered.
  await exec(
    app,
    sql`INSERT INTO highlight_requests (user_id, status, event_id, event, games, matching_state, matched_at, admin_acknowledged_at, created_at, updated_at)
        SELECT 'queue-' || (1 + g % ${FAMILIES}::int),
               CASE WHEN g / ${FAMILIES}::int = 2 THEN 'delivered' WHEN g % 4 = 0 THEN 'pending' ELSE 'ready_to_purchase' END::highlight_request_status,
               CASE WHEN g / ${FAMILIES}::int = 1 THEN 'chicago-3v3-2024' ELSE 'austin-fall-league-2024' END,
               CASE WHEN g / ${FAMILIES}::int = 1 THEN 'Chicago 3v3 (Chicago, IL, Nov 9)' ELSE 'Austin Fall League (Austin, TX, Oct 18-19)' END,
               '[]'::jsonb,
               CASE WHEN g % 4 = 1 THEN 'matching' WHEN g % 4 = 0 THEN NULL ELSE 'ready' END,
               CASE WHEN g % 4 > 1 THEN now() - g * interval '3 minutes' END,
               CASE WHEN g % 4 > 0 THEN now() - g * interval '4 minutes' END,
               now() - g * interval '5 minutes', now() - g * interval '2 minutes'
        FROM generate_series(0, ${REQUESTS - 1}::int) g`,
  );
  // A ready render for half of those matched, and a completed order for half of those.
  await exec(
    app,
    sql`INSERT INTO reel_renders (request_id, state, clips, finished_at)
        SELECT id, 'ready', '[]'::jsonb, now() FROM highlight_requests WHERE matching_state = 'ready' AND status = 'ready_to_purchase' AND abs(hashtext(id::text)) % 2 = 0`,
  );
  await exec(
    app,
    sql`INSERT INTO orders (provider, user_id, request_id, amount, status, completed_at)
        SELECT 'stripe', r.user_id, r.id, 15000, 'completed', now() - interval '1 day'
        FROM highlight_requests r JOIN reel_renders rr ON rr.request_id = r.id WHERE abs(hashtext(r.id::text)) % 4 = 0`,
  );
  await exec(app, sql`VACUUM ANALYZE`);
}

async function main() {
  const started = performance.now();
  const app = await startTestApp();
  try {
    const admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
    await makeAdmin(app, admin.userId);
    const seedStart = performance.now();
    await seed(app);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    await settleConnections(app);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // What each query finds, checked once.
    const found = new Map<string, number>();
    for (const [label, path] of QUERIES.slice(1, 5)) {
      const page = JSON.parse((await timedGet(app, path, admin.cookie)).body) as { total: number; requests: unknown[] };
      if (!page.total || !page.requests.length) throw new Error(`${label} found nothing`);
      found.set(path, page.total);
    }
    const samples = await interleavedRounds(app, QUERIES.map(([, path]) => path), admin.cookie, WARMUP, ROUNDS);
    const medians = samples.map((s) => percentile(s, 50));
    console.log(`Admin work queue: ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${FAMILIES.toLocaleString('en-US')} families, ${REQUESTS.toLocaleString('en-US')} requests, seeded in ${seedSeconds.toFixed(1)} s; ${WARMUP} + ${ROUNDS} rounds`);
    console.log('                                        found     median        p95  median ratio');
    QUERIES.forEach(([label, path], k) => {
      const ratio = k ? `   ${(medians[k]! / medians[0]!).toFixed(1)}x` : '';
      console.log(`  ${label.padEnd(36)} ${String(found.get(path) ?? '').padStart(6)} ${ms(medians[k]!)} ${ms(percentile(samples[k]!, 95))}${ratio}`);
    });
    const firstPage = medians[1]! / medians[0]!;
    const search = medians[2]! / medians[0]!;
    console.log(`Goal: both at most ${GOAL_RATIO}x (${firstPage <= GOAL_RATIO && search <= GOAL_RATIO ? 'met' : 'NOT met'}); total ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`RESULT admin-queue first_page=${firstPage.toFixed(1)} search=${search.toFixed(1)}`);
  } finally {
    await app.close();
  }
}

runBenchmark(main);
