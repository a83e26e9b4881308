// What the benchmarks share: options from the environment, raw SQL against the test app's
// database, and the statistics they print.
import type { SQL } from 'drizzle-orm';
import type { TestApp } from '../test/support/app';

/** A positive whole number from the environment, or the fallback. */
export function intFromEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

export type Rows = Array<Record<string, unknown>>;

/** Runs raw SQL; PGlite and node-postgres both answer with `{ rows }`. */
export async function exec(app: TestApp, query: SQL): Promise<Rows> {
  const result = (await app.db.execute(query)) as unknown as { rows?: Rows };
  return result.rows ?? [];
}

/** The nearest-rank percentile (p in 0–100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(0, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.min(rank, sorted.length - 1)] ?? NaN;
}

export const ms = (v: number) => `${v.toFixed(2).padStart(7)} ms`;

/**
 * Call after a long seed. With PGlite the seed blocks the event loop, so the server's keep-alive
 * timer and the client's fire together, and the first request may reuse a socket the server has
 * just closed (ECONNRESET). One request that may fail settles that before anything is measured.
 */
export async function settleConnections(app: TestApp): Promise<void> {
  await app.fetch('/api/health').then((r) => r.text()).catch(() => undefined);
}

/** Runs a benchmark's main and exits: the app's timers and pools must not keep the process up. */
export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** One timed GET as the given session: the whole body read and the status checked. */
export async function timedGet(app: TestApp, path: string, cookie: string): Promise<{ ms: number; body: string }> {
  const t0 = performance.now();
  const res = await app.fetch(path, { cookie });
  const body = await res.text();
  const took = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 200)}`);
  return { ms: took, body };
}

/**
 * Times GETs of these paths in interleaved rounds, the order within a round rotating so none always
 * runs first; the warm-up rounds are not kept. Returns each path's times, in milliseconds.
 */
export async function interleavedRounds(app: TestApp, paths: readonly string[], cookie: string, warmup: number, rounds: number): Promise<number[][]> {
  const samples = paths.map(() => [] as number[]);
  for (let round = 0; round < warmup + rounds; round++) {
    for (let i = 0; i < paths.length; i++) {
      const k = (round + i) % paths.length;
      const { ms: took } = await timedGet(app, paths[k]!, cookie);
      if (round >= warmup) samples[k]!.push(took);
    }
  }
  return samples;
}
