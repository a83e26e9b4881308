// What an operator sees: a JSON log line per request (request id, route pattern, status,
// duration), Prometheus metrics behind a token, a readiness check of the database and the
// storage, and a clean 503 with Retry-After while the database is out of reach.
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_UNAVAILABLE } from '../../src/common/messages';
import { onError, UNAVAILABLE_RETRY_AFTER_S } from '../../src/server/http/errors';
import { observeRequests } from '../../src/server/observability/http';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';

const TOKEN = 'metrics-token-for-tests-0123456789';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ metricsToken: TOKEN });
}, 60_000);
afterAll(() => app?.close());

describe('operator endpoints', () => {
  it('/api/ready says the database and the storage answer', async () => {
    const res = await app.fetch('/api/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true, database: 'ok', storage: 'ok' });
  });

  it('/api/metrics answers only with the token, with latencies per route pattern and the queue', async () => {
    const user = await createVerifiedUser(app);
    expect((await app.fetch('/api/videos', { cookie: user.cookie })).status).toBe(200);
    expect((await app.fetch('/api/metrics')).status).toBe(404);
    expect((await app.fetch('/api/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(404);
    expect((await app.fetch('/api/metrics', { cookie: user.cookie })).status).toBe(404);
    const res = await app.fetch('/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/videos",status="2xx"\} [1-9]/);
    expect(text).toContain('job_queue_depth');
    expect(text).toContain('job_duration_seconds');
    // Route patterns only: no user id or token ever becomes a label.
    expect(text).not.toContain(user.userId);
  });
});

describe('request logs and errors', () => {
  const collect = () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    return { lines, log: pino({ level: 'info' }, stream) };
  };
  const tiny = (log: pino.Logger) => {
    const api = new Hono<{ Variables: { requestId: string } }>();
    api.onError(onError);
    api.use(async (c, next) => {
      c.set('requestId', 'req-1');
      await next();
    });
    api.use(observeRequests(log));
    api.get('/things/:id', (c) => c.json({ id: c.req.param('id') }));
    api.get('/down', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    api.get('/broken', () => {
      throw new Error('secret detail');
    });
    return api;
  };

  it('logs one JSON line per request with its id, route pattern, status and duration', async () => {
    const { lines, log } = collect();
    // An id no pid, time or host name can hold by chance: the path's own id must not be logged.
    await tiny(log).request('/things/thing-qzx7');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ reqId: 'req-1', method: 'GET', route: '/things/:id', status: 200, msg: 'request' });
    expect(typeof lines[0]!.ms).toBe('number');
    expect(JSON.stringify(lines[0])).not.toContain('thing-qzx7');
  });

  it('answers a database outage with 503 and Retry-After, and other failures with 500, never a stack', async () => {
    const { log } = collect();
    const down = await tiny(log).request('/down');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_S));
    expect(await down.json()).toMatchObject({ code: 'UNAVAILABLE', message: SERVICE_UNAVAILABLE });
    const broken = await tiny(log).request('/broken');
    expect(broken.status).toBe(500);
    const body = await broken.text();
    expect(body).not.toContain('secret detail');
    expect(body).not.toContain('at ');
  });
});
