// Benchmark: does serving signed-in families leave anything behind in the server's memory? The
// trust suite's soak (test/trust/load.ts) watches resident memory, which moves with the
// allocator and with garbage not yet collected (−9% to +8.5% across its full runs). This measures
// what a leak would grow: the JavaScript heap after a full garbage collection, round after round.
// Goal: after the first two rounds (the warm-up: caches, compiled code, pools, which took the
// heap up by 1.4 MB from the first round to the second), the collected heap grows less than 2%
// over the remaining rounds. The bytes left per request are printed too.
//
// Starts the real app in-process (test/support/app.ts) on PostgreSQL (TEST_DATABASE_URL, by
// default the local server's `test` database; BENCH_PGLITE=1 for the embedded one), writes 200
// families with live sessions straight to the database (the trust suite's seedFamilies), opens a
// live-update stream for each, and then runs rounds of 5,000 requests from 20 connections:
// GET /api/dashboard and GET /api/account/me in turn, as a dashboard opens. Each round also
// closes 20 streams and opens 20 new ones, so subscribing and unsubscribing is exercised. After
// each round: two full collections, then the heap in use outside the compiled-code spaces (the
// client's few objects are in it too, the same every round).
//
//   npx tsx bench/request-memory.ts
// Options: BENCH_ROUNDS (default 10: two of warm-up and 8 measured), BENCH_PGLITE=1.
import http from 'node:http';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestApp } from '../test/support/app';
import { seedFamilies } from '../test/trust/seed';
import { intFromEnv, runBenchmark } from './support';

if (process.env.BENCH_PGLITE === '1') delete process.env.TEST_DATABASE_URL;
else process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const FAMILIES = 200;
const PER_ROUND = 5_000;
const CONNECTIONS = 20;
const CHURN = 20;
const ROUNDS = intFromEnv('BENCH_ROUNDS', 10);
const WARMUP_ROUNDS = 2;
if (ROUNDS <= WARMUP_ROUNDS) throw new Error(`BENCH_ROUNDS must be more than the ${WARMUP_ROUNDS} warm-up rounds`);
const GOAL_GROWTH = 0.02;
const MB = 1024 * 1024;

// A full collection on demand, without asking for a command-line flag.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** A live-update stream held open; resolves once the server said it is ready. */
function openStream(url: string, cookie: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/realtime/stream`, { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let seen = '';
      res.on('data', (d: Buffer) => {
        if (seen.includes('event: ready')) return;
        seen += d.toString();
        if (seen.includes('event: ready')) resolve(req);
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
  });
}

function get(url: string, agent: http.Agent, cookie: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { cookie } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

/**
 * The heap in use after two full collections, without the compiled code: the optimising compiler
 * keeps adding code for a while as it warms up (+0.2 MB over 50,000 requests in a heap snapshot
 * comparison), which is not data left behind.
 */
function collectedHeap(): number {
  collect();
  collect();
  return getHeapSpaceStatistics()
    .filter((space) => !space.space_name.startsWith('code_'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

runBenchmark(async () => {
  const app = await startTestApp();
  const db = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`Request memory benchmark: ${db}, node ${process.version}; ${FAMILIES} families and streams, ${ROUNDS} rounds of ${PER_ROUND} requests`);
  // The suite's own seeding, given the app's database and the secret that signs its cookies.
  const families = await seedFamilies({ deps: app.server.deps, env: { AUTH_SECRET: app.server.deps.config.authSecret } }, FAMILIES);
  const cookies = families.map((family) => family.cookie);
  const streams = await Promise.all(cookies.map((cookie) => openStream(app.url, cookie)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const heaps: number[] = [];
  let sent = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const until = sent + PER_ROUND;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (sent < until) {
          const n = sent++;
          await get(`${app.url}${n % 2 ? '/api/dashboard' : '/api/account/me'}`, agent, cookies[n % FAMILIES]!);
        }
      }),
    );
    // Streams come and go as phones lock and wake.
    const first = (round * CHURN) % FAMILIES;
    for (let k = first; k < first + CHURN; k++) {
      streams[k]!.destroy();
      streams[k] = await openStream(app.url, cookies[k]!);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    heaps.push(collectedHeap());
    const label = round <= WARMUP_ROUNDS ? ' (warm-up)' : '';
    console.log(`  after ${String(sent).padStart(6)} requests: heap ${(heaps.at(-1)! / MB).toFixed(1)} MB after a full collection, rss ${(process.memoryUsage().rss / MB).toFixed(0)} MB${label}`);
  }
  for (const stream of streams) stream.destroy();
  agent.destroy();
  await app.close();

  const warm = heaps[WARMUP_ROUNDS - 1]!;
  const last = heaps.at(-1)!;
  const growth = (last - warm) / warm;
  const measured = sent - WARMUP_ROUNDS * PER_ROUND;
  const met = growth < GOAL_GROWTH;
  console.log(
    `RESULT request-memory heap_growth=${(growth * 100).toFixed(2)}% (goal < ${GOAL_GROWTH * 100}%) over ${measured} requests after the warm-up, ` +
      `heap ${(warm / MB).toFixed(1)}->${(last / MB).toFixed(1)} MB, ${((last - warm) / measured).toFixed(1)} bytes per request: goal ${met ? 'MET' : 'NOT MET'}`,
  );
});
