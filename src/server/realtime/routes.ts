// GET /api/realtime/stream: server-sent events of the changes that concern the signed-in user.
// A user's stream carries only their own changes, as topic, action and row id (never a user id).
// An active admin's stream carries every user's changes, with the user's id, so the admin screens
// (users list, uploads in progress, orders) follow along.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { getViewer, requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../deps';
import { isSessionNotice, type ChangeEvent } from './bus';

const HEARTBEAT_MS = 25_000;
/** A client that reads slower than its changes arrive is cut off; EventSource reconnects. */
const MAX_QUEUED = 500;
/** How soon EventSource should reconnect after the stream drops. */
const RETRY_MS = 3_000;

export interface RealtimeOptions {
  /** How often a heartbeat is sent, and the session checked again (25 s). */
  heartbeatMs?: number;
}

export function realtimeRoutes(deps: AppDeps, opts: RealtimeOptions = {}) {
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  return new Hono<ViewerEnv>().get('/stream', requireUser(deps.auth, deps.db), (c) => {
    const userId = c.var.viewer.userId;
    const isAdmin = c.var.viewer.isAdmin;
    const requestHeaders = c.req.raw.headers;
    const res = streamSSE(c, async (stream) => {
      const queue: ChangeEvent[] = [];
      let open = true;
      let wake: (() => void) | null = null;
      const stop = () => {
        open = false;
        wake?.();
      };
      const unsubscribe = deps.bus.subscribe((event) => {
        // The database's session notices are for the servers' caches, not for browsers.
        if (!open || isSessionNotice(event) || (!isAdmin && event.userId !== userId)) return;
        if (queue.length >= MAX_QUEUED) return stop();
        queue.push(event);
        wake?.();
      });
      stream.onAbort(stop);
      try {
        await stream.writeSSE({ event: 'ready', data: '{}', retry: RETRY_MS });
        while (open && !stream.aborted) {
          const event = queue.shift();
          if (event) {
            // A user gets three fields (the owner's id stays on the server); an admin also the owner.
            const fields = { topic: event.topic, action: event.action, id: event.id ?? null };
            const data = JSON.stringify(isAdmin ? { ...fields, userId: event.userId } : fields);
            await stream.writeSSE({ event: 'change', data });
            continue;
          }
          const timedOut = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), heartbeatMs);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = null;
          if (!timedOut || !open) continue;
          // A session that has ended (signed out, expired, revoked) ends its stream.
          if (!(await stillSignedIn(deps, requestHeaders, userId))) break;
          // A comment: keeps proxies from closing an idle connection; EventSource ignores it.
          await stream.write(': ping\n\n');
        }
      } finally {
        open = false;
        unsubscribe();
      }
    });
    // streamSSE sets its own Cache-Control; ours wins.
    res.headers.set('Cache-Control', 'no-store');
    res.headers.set('X-Accel-Buffering', 'no');
    return res;
  });
}

async function stillSignedIn(deps: AppDeps, headers: Headers, userId: string): Promise<boolean> {
  try {
    // The same lookup as every API route: a view-as session past its hour or its admin ends here too.
    const viewer = await getViewer(deps.auth, deps.db, headers);
    return viewer?.userId === userId;
  } catch {
    return true; // a database hiccup is not a sign-out; the next heartbeat asks again
  }
}
