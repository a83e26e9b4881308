// Live updates: the event stream delivers a change to its owner and never to another user;
// on PostgreSQL two buses (two API instances) share every event through LISTEN/NOTIFY.
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import {
  CHANNEL,
  LISTENER_APPLICATION_NAME,
  createEventBus,
  parseChangeEvent,
  serializeChangeEvent,
  type ChangeEvent,
  type EventBus,
} from '../../src/server/realtime/bus';
import { realtimeRoutes } from '../../src/server/realtime/routes';
import { runAdminCommand } from '../../src/server/admin/service';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

type SseBlock = { event: string; data: string; comment: boolean };

/** Reads SSE blocks (events and comments) from a response body, each within a time limit. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const block = async (timeoutMs: number): Promise<SseBlock> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const comment = text.split('\n').every((line) => line.startsWith(':'));
        const event = /^event: ?(.*)$/m.exec(text)?.[1] ?? (comment ? '' : 'message');
        const data = /^data: ?(.*)$/m.exec(text)?.[1] ?? '';
        return { event, data, comment };
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event in time');
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no event in time')), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) throw new Error('stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    /** The next named event, skipping heartbeat comments. */
    async next(timeoutMs = 5000): Promise<{ event: string; data: string }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const b = await block(Math.max(1, deadline - Date.now()));
        if (!b.comment) return { event: b.event, data: b.data };
      }
    },
    block,
    /** Resolves true once the stream ends (false if it is still open after the time limit). */
    async ended(timeoutMs = 5000): Promise<boolean> {
      const deadline = Date.now() + timeoutMs;
      try {
        for (;;) await block(Math.max(1, deadline - Date.now()));
      } catch (error) {
        return (error as Error).message === 'stream ended';
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/** Opens the stream over real HTTP and returns a reader of named SSE events. */
async function openStream(cookie: string) {
  const controller = new AbortController();
  const res = await app.fetch('/api/realtime/stream', { cookie, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = sseReader(res.body!);
  return {
    res,
    next: reader.next,
    close: () => {
      void reader.cancel();
      controller.abort();
    },
  };
}

const change = (userId: string, id: string): ChangeEvent => ({ topic: 'highlight_requests', userId, action: 'insert', id });

describe('event stream', () => {
  it('is for signed-in users only', async () => {
    const res = await app.fetch('/api/realtime/stream');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).not.toMatch(/event-stream/);
  });

  it('starts with ready, is never cached and never buffered by a proxy', async () => {
    const a = await createVerifiedUser(app);
    const stream = await openStream(a.cookie);
    try {
      expect(stream.res.headers.get('cache-control')).toBe('no-store');
      expect(stream.res.headers.get('x-accel-buffering')).toBe('no');
      expect((await stream.next()).event).toBe('ready');
    } finally {
      stream.close();
    }
  });

  it("delivers the owner's changes and never another user's", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const stream = await openStream(a.cookie);
    try {
      expect((await stream.next()).event).toBe('ready');
      await app.server.deps.bus.publish(change(b.userId, 'for-b'));
      await app.server.deps.bus.publish({ topic: 'orders', userId: b.userId, action: 'update', id: 'also-for-b' });
      await app.server.deps.bus.publish(change(a.userId, 'for-a'));
      const first = await stream.next();
      expect(first.event).toBe('change');
      expect(JSON.parse(first.data)).toEqual({ topic: 'highlight_requests', action: 'insert', id: 'for-a' });
      expect(first.data).not.toContain(a.userId);
      expect(first.data).not.toContain(b.userId);
    } finally {
      stream.close();
    }
  });

  it("an admin's stream drops to the admin's own changes the moment the role is revoked (issue 33, finding 6)", async () => {
    const admin = await createVerifiedUser(app, { fullName: 'Rita Revoked' });
    await makeAdmin(app, admin.userId);
    const family = await createVerifiedUser(app);
    const stream = await openStream(admin.cookie);
    try {
      expect((await stream.next()).event).toBe('ready');
      await app.server.deps.bus.publish(change(family.userId, 'seen-as-admin'));
      expect(JSON.parse((await stream.next()).data)).toMatchObject({ id: 'seen-as-admin', userId: family.userId });
      expect(await runAdminCommand(app.server.deps, 'revoke', admin.email)).toMatchObject({ ok: true });
      // The database's notice of the change reaches the stream; another family's changes stop.
      await new Promise((r) => setTimeout(r, 1000));
      await app.server.deps.bus.publish(change(family.userId, 'after-revoke'));
      await app.server.deps.bus.publish(change(admin.userId, 'own'));
      const next = await stream.next();
      expect(JSON.parse(next.data)).toEqual({ topic: 'highlight_requests', action: 'insert', id: 'own' });
    } finally {
      stream.close();
    }
  });

  it('reaches every open stream of the same user', async () => {
    const a = await createVerifiedUser(app);
    const one = await openStream(a.cookie);
    const two = await openStream(a.cookie);
    try {
      await one.next();
      await two.next();
      await app.server.deps.bus.publish(change(a.userId, 'both'));
      expect(JSON.parse((await one.next()).data).id).toBe('both');
      expect(JSON.parse((await two.next()).data).id).toBe('both');
    } finally {
      one.close();
      two.close();
    }
  });

  it('is published when the user submits a reel request', async () => {
    const a = await createVerifiedUser(app);
    const stream = await openStream(a.cookie);
    try {
      await stream.next();
      const res = await app.fetch('/api/requests', { method: 'POST', cookie: a.cookie, json: { eventId: 'chicago-3v3-2024', games: [] } });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      expect(JSON.parse((await stream.next()).data)).toEqual({ topic: 'highlight_requests', action: 'insert', id });
    } finally {
      stream.close();
    }
  });
});

describe('event stream lifecycle', () => {
  /** The same routes with a short heartbeat and a bus that counts its subscribers. */
  function quickRoutes() {
    const bus = app.server.deps.bus;
    let subscribers = 0;
    const counting: EventBus = {
      kind: bus.kind,
      publish: (e) => bus.publish(e),
      subscribe(listener) {
        subscribers += 1;
        const off = bus.subscribe(listener);
        return () => {
          subscribers -= 1;
          off();
        };
      },
      close: async () => {},
    };
    const routes = new Hono().route('/', realtimeRoutes({ ...app.server.deps, bus: counting }, { heartbeatMs: 100 }));
    return { routes, subscribers: () => subscribers };
  }

  it('sends a heartbeat comment and unsubscribes when the client goes away', async () => {
    const a = await createVerifiedUser(app);
    const { routes, subscribers } = quickRoutes();
    const res = await routes.request('/stream', { headers: { cookie: a.cookie } });
    expect(res.status).toBe(200);
    const reader = sseReader(res.body!);
    expect((await reader.block(5000)).event).toBe('ready');
    expect(subscribers()).toBe(1);
    const ping = await reader.block(5000);
    expect(ping.comment).toBe(true);
    await reader.cancel();
    await expect.poll(subscribers, { timeout: 5000 }).toBe(0);
  });

  it('ends when the session ends', async () => {
    const a = await createVerifiedUser(app);
    const { routes, subscribers } = quickRoutes();
    const res = await routes.request('/stream', { headers: { cookie: a.cookie } });
    const reader = sseReader(res.body!);
    try {
      expect((await reader.block(5000)).event).toBe('ready');
      const out = await app.fetch('/api/auth/sign-out', { method: 'POST', cookie: a.cookie, json: {} });
      expect(out.status).toBe(200);
      expect(await reader.ended(5000)).toBe(true);
      await expect.poll(subscribers, { timeout: 5000 }).toBe(0);
    } finally {
      await reader.cancel();
    }
  });
});

describe('change event payloads', () => {
  it('accepts only well-formed events and keeps only their known fields', () => {
    const good = { topic: 'orders', userId: 'u1', action: 'update', id: 'o1' };
    expect(parseChangeEvent(JSON.stringify({ ...good, extra: 'x' }))).toEqual(good);
    expect(parseChangeEvent(JSON.stringify({ topic: 'orders', userId: 'u1', action: 'delete' }))).toEqual({
      topic: 'orders',
      userId: 'u1',
      action: 'delete',
    });
    for (const bad of [
      undefined,
      '',
      'not json',
      'null',
      '[]',
      '42',
      JSON.stringify({ ...good, topic: 'users' }),
      JSON.stringify({ ...good, action: 'truncate' }),
      JSON.stringify({ ...good, userId: 7 }),
      JSON.stringify({ ...good, userId: '' }),
      JSON.stringify({ ...good, id: { a: 1 } }),
    ]) {
      expect(parseChangeEvent(bad)).toBeNull();
    }
  });

  it('refuses to publish a malformed or oversized event', async () => {
    const bus = app.server.deps.bus;
    await expect(bus.publish({ topic: 'nope', userId: 'u', action: 'insert' } as unknown as ChangeEvent)).rejects.toThrow();
    expect(() => serializeChangeEvent({ topic: 'orders', userId: 'u', action: 'insert', id: 'x'.repeat(9000) })).toThrow();
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('on PostgreSQL', () => {
  const url = () => app.server.deps.database.pool!.options.connectionString!;

  /** How many listening connections the test database has. */
  async function listenerCount(): Promise<number> {
    const { rows } = await app.server.deps.database.pool!.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [LISTENER_APPLICATION_NAME],
    );
    return rows[0]!.n;
  }

  /** A second API instance's bus: its own database handle on the same database. */
  async function secondInstance() {
    const database = await openDatabase({ url: url(), pgliteDir: '' });
    const bus = await createEventBus(database);
    return {
      bus,
      async close() {
        await bus.close();
        await database.close();
      },
    };
  }

  const unsubscribes: (() => void)[] = [];
  afterEach(() => {
    for (const off of unsubscribes.splice(0)) off();
  });

  /** Collects what a bus hears; `until(id)` waits for an event with that id. */
  function record(bus: EventBus) {
    const heard: ChangeEvent[] = [];
    unsubscribes.push(bus.subscribe((e) => heard.push(e)));
    return {
      heard,
      ids: () => heard.map((e) => e.id),
      until: (id: string) => expect.poll(() => heard.some((e) => e.id === id), { timeout: 5000 }).toBe(true),
    };
  }

  it('shares events between two API instances, each hearing each event exactly once', async () => {
    expect(app.server.deps.bus.kind).toBe('postgres');
    const other = await secondInstance();
    try {
      expect(other.bus.kind).toBe('postgres');
      const here = record(app.server.deps.bus);
      const there = record(other.bus);
      await app.server.deps.bus.publish(change('user-x', 'from-one'));
      await other.bus.publish(change('user-y', 'from-two'));
      await app.server.deps.bus.publish(change('user-z', 'end'));
      await here.until('end');
      await there.until('end');
      expect(here.ids()).toEqual(['from-one', 'from-two', 'end']);
      expect(there.ids()).toEqual(['from-one', 'from-two', 'end']);
      expect(there.heard[0]).toEqual(change('user-x', 'from-one'));
    } finally {
      await other.close();
    }
  });

  it("delivers another instance's event to the owner's open stream", async () => {
    const a = await createVerifiedUser(app);
    const other = await secondInstance();
    const stream = await openStream(a.cookie);
    try {
      await stream.next();
      await other.bus.publish({ topic: 'user_videos', userId: a.userId, action: 'update', id: 'v1' });
      expect(JSON.parse((await stream.next()).data)).toEqual({ topic: 'user_videos', action: 'update', id: 'v1' });
    } finally {
      stream.close();
      await other.close();
    }
  });

  it('ignores malformed notifications on the channel', async () => {
    const here = record(app.server.deps.bus);
    const pool = app.server.deps.database.pool!;
    for (const payload of ['', 'not json', '{"topic":"users","userId":"u","action":"insert"}', '{"topic":"orders","action":"insert"}']) {
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    }
    await app.server.deps.bus.publish(change('user-x', 'valid'));
    await here.until('valid');
    expect(here.ids()).toEqual(['valid']);
  });

  it('reconnects when the listening connection is dropped', async () => {
    const here = record(app.server.deps.bus);
    expect(await listenerCount()).toBe(1);
    const admin = new pg.Client({ connectionString: url() });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ok: boolean }>(
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [LISTENER_APPLICATION_NAME],
      );
      expect(rows.map((r) => r.ok)).toEqual([true]);
    } finally {
      await admin.end();
    }
    // Events published while it is down are lost; keep publishing until one is heard.
    let n = 0;
    await expect
      .poll(
        async () => {
          n += 1;
          await app.server.deps.bus.publish(change('user-x', `after-${n}`));
          await new Promise((r) => setTimeout(r, 100));
          return here.heard.length > 0;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
    expect(await listenerCount()).toBe(1);
    // Once back, every event arrives once.
    const before = here.heard.length;
    await app.server.deps.bus.publish(change('user-x', 'settled'));
    await here.until('settled');
    await app.server.deps.bus.publish(change('user-x', 'settled-2'));
    await here.until('settled-2');
    const later = here.ids().slice(before);
    expect(later.filter((id) => id === 'settled')).toHaveLength(1);
    expect(later.filter((id) => !id!.startsWith('after-'))).toEqual(['settled', 'settled-2']);
  });

  it('releases its listening connection on close', async () => {
    const other = await secondInstance();
    expect(await listenerCount()).toBe(2);
    await other.close();
    await expect.poll(listenerCount, { timeout: 5000 }).toBe(1);
  });
});
