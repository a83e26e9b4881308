// Live updates: the event stream delivers a change to its owner and never to another user;
// on PostgreSQL two buses (two API instances) share every event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { createEventBus, type ChangeEvent } from '../../src/server/realtime/bus';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** Opens the stream and returns a reader of named SSE events. */
async function openStream(cookie: string) {
  const controller = new AbortController();
  const res = await app.fetch('/api/realtime/stream', { cookie, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (timeoutMs = 5000): Promise<{ event: string; data: string }> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
        const data = /^data: ?(.*)$/m.exec(block)?.[1] ?? '';
        return { event, data };
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event in time');
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event in time')), left)),
      ]);
      if (chunk.done) throw new Error('stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return { next, close: () => controller.abort() };
}

const change = (userId: string, id: string): ChangeEvent => ({ topic: 'highlight_requests', userId, action: 'insert', id });

describe('event stream', () => {
  it('is for signed-in users only', async () => {
    const res = await app.fetch('/api/realtime/stream');
    expect(res.status).toBe(401);
  });

  it("delivers the owner's changes and never another user's", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const stream = await openStream(a.cookie);
    try {
      expect((await stream.next()).event).toBe('ready');
      await app.server.deps.bus.publish(change(b.userId, 'for-b'));
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

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('on PostgreSQL', () => {
  it('shares events between two API instances through LISTEN/NOTIFY', async () => {
    expect(app.server.deps.bus.kind).toBe('postgres');
    const url = app.server.deps.database.pool!.options.connectionString!;
    const second = await openDatabase({ url, pgliteDir: '' });
    const otherBus = await createEventBus(second);
    try {
      const heard: ChangeEvent[] = [];
      otherBus.subscribe((e) => heard.push(e));
      await app.server.deps.bus.publish(change('user-x', 'across'));
      await expect.poll(() => heard.map((e) => e.id), { timeout: 5000 }).toEqual(['across']);
    } finally {
      await otherBus.close();
      await second.close();
    }
  });
});
