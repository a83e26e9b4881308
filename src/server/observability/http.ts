// Every request, seen: a log line with the request id, route pattern, status and duration, and
// the same in the latency histogram. Plus the operator's endpoints: /api/metrics (Prometheus,
// behind METRICS_TOKEN) and /api/ready (the database and the storage answer).
import { timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Hono, type MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Db } from '../db/client';
import type { Storage } from '../storage/storage';
import type { Logger } from 'pino';
import { logger } from './logger';
import { collectQueueGauges, httpDuration, registry } from './metrics';

/** The registered pattern that answered (`/api/videos/:id/:mode{…}`), never the path itself: no ids or tokens in logs. */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const route = matchedRoutes(c)[c.req.routeIndex]?.path ?? 'unmatched';
  return route === '*' || route === '/*' ? 'page' : route;
}

/** Quiet routes: polled by machines every few seconds, logged only at debug level. */
const PROBES = new Set(['/api/health', '/api/ready', '/api/metrics']);

export function observeRequests(log: Logger = logger): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    const status = c.res.status;
    httpDuration.observe({ method: c.req.method, route, status: `${Math.floor(status / 100)}xx` }, seconds);
    const line = { reqId: c.get('requestId'), method: c.req.method, route, status, ms: Math.round(seconds * 10_000) / 10 };
    if (PROBES.has(route)) log.debug(line, 'request');
    else if (status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Resolves with the work's result, or rejects after `ms`: a probe must answer even when a part hangs. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const READY_TIMEOUT_MS = 2000;

export function operatorRoutes(deps: { db: Db; storage: Storage; metricsToken: string | null }) {
  return new Hono()
    .get('/ready', async (c) => {
      c.header('Cache-Control', 'no-store');
      const check = (work: Promise<unknown>) =>
        within(READY_TIMEOUT_MS, work).then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        );
      const [database, storage] = await Promise.all([check(deps.db.execute(sql`SELECT 1`)), check(deps.storage.stat('readiness/probe/none'))]);
      const ready = database === 'ok' && storage === 'ok';
      if (!ready) c.header('Retry-After', '5');
      return c.json({ ready, database, storage }, ready ? 200 : 503);
    })
    .get('/metrics', async (c) => {
      // Not a public page: latencies and queue sizes are for the operator's scraper only.
      const auth = c.req.header('authorization') ?? '';
      if (!deps.metricsToken || !sameSecret(auth, `Bearer ${deps.metricsToken}`)) return c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404);
      await collectQueueGauges(deps.db).catch((error: Error) => logger.warn({ err: error.message }, 'queue gauges unavailable'));
      c.header('Cache-Control', 'no-store');
      return c.text(await registry.metrics(), 200, { 'Content-Type': registry.contentType });
    });
}
