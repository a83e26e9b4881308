// What an operator scrapes (Prometheus text at GET /api/metrics, behind METRICS_TOKEN): request
// latencies per route, the job queue's depth and oldest wait per job kind, job durations and
// failures, and the speed of face indexing and rendering as multiples of real time. One
// registry per process; every API instance and worker serves or pushes its own.
import client from 'prom-client';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'API and page requests by route pattern, method and status class',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

export const jobDuration = new client.Histogram({
  name: 'job_duration_seconds',
  help: 'Background job runs by kind and outcome (done, skipped, failed)',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600],
  registers: [registry],
});

export const jobFailures = new client.Counter({
  name: 'job_failures_total',
  help: 'Background job runs that threw, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

/** Footage seconds indexed per wall-clock second, per finished index (faces/indexing.ts). */
export const indexingSpeed = new client.Histogram({
  name: 'face_index_speed_ratio',
  help: 'Face indexing speed as a multiple of real time, per footage file',
  buckets: [0.5, 1, 2, 3, 4, 5, 6, 8, 12, 20],
  registers: [registry],
});

/** Stretches whose decode plan was refused or came out short, decoded whole instead (faces/index-segment.ts). */
/** Thread-seconds the index spent finding and tracking people (people/stretch.ts), beside its faces. */
export const personStageSeconds = new client.Counter({
  name: 'face_index_people_seconds_total',
  help: 'Thread-seconds spent detecting and tracking people while indexing footage',
  registers: [registry],
});

export const decodePlanFallbacks = new client.Counter({
  name: 'face_index_decode_plan_fallbacks_total',
  help: 'Footage stretches decoded whole because their decode plan failed',
  registers: [registry],
});

/** Reel seconds rendered per wall-clock second, per output (reels/render-job.ts). */
export const renderSpeed = new client.Histogram({
  name: 'reel_render_speed_ratio',
  help: 'Reel rendering speed as a multiple of real time, per output (reel, social)',
  labelNames: ['output'] as const,
  buckets: [0.25, 0.5, 1, 2, 3, 4, 6, 10],
  registers: [registry],
});

const queueDepth = new client.Gauge({
  name: 'job_queue_depth',
  help: 'Jobs waiting (created or retrying) by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});
const queueAge = new client.Gauge({
  name: 'job_queue_oldest_age_seconds',
  help: 'How long the oldest waiting job of a kind has waited',
  labelNames: ['kind'] as const,
  registers: [registry],
});

/** Reads the queue's depth and age from the database at scrape time (one grouped query). */
export async function collectQueueGauges(db: Db): Promise<void> {
  const rows = await queryRows<{ name: string; waiting: number; age: number | null }>(
    db,
    sql`SELECT name, count(*)::int AS waiting, extract(epoch FROM now() - min(created_on))::float AS age
        FROM pgboss.job WHERE state IN ('created', 'retry') GROUP BY name`,
  );
  queueDepth.reset();
  queueAge.reset();
  for (const row of rows) {
    queueDepth.set({ kind: row.name }, row.waiting);
    queueAge.set({ kind: row.name }, Number(row.age ?? 0));
  }
}
