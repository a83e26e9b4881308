// GET /api/realtime/stream: server-sent events of the changes that concern the signed-in user.
// Each event carries only the topic, the action and the row id: never another user's data.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../http/deps';
import type { ChangeEvent } from './bus';

const HEARTBEAT_MS = 25_000;

export function realtimeRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().get('/stream', requireUser(deps.auth, deps.db), (c) => {
    const userId = c.var.viewer.userId;
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: ChangeEvent[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = deps.bus.subscribe((event) => {
        if (event.userId !== userId) return;
        queue.push(event);
        wake?.();
      });
      let open = true;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'ready', data: '{}' });
        while (open) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE({ event: 'change', data: JSON.stringify({ topic: event.topic, action: event.action, id: event.id ?? null }) });
            continue;
          }
          const timedOut = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), HEARTBEAT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = null;
          if (timedOut && open) await stream.writeSSE({ event: 'ping', data: '{}' });
        }
      } finally {
        unsubscribe();
      }
    });
  });
}
