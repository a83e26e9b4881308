// GET /api/realtime/stream: server-sent events of the changes that concern the signed-in user.
// A user's stream carries only their own changes, as topic, action and row id (never a user id).
// An active admin's stream carries every user's changes, with the user's id, so the admin screens
// (users list, uploads in progress, orders) follow along. Who the viewer is is asked again on
// every session notice for them (sign-out, revoke, the second factor, a visit ended) and at each
// heartbeat: a stream whose session ended closes, and one whose admin is no longer one drops at
// once to the user's own changes (issue 33, finding 6).
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { lookUpViewer, requireUser, type Viewer, type ViewerEnv } from '../auth/session';
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
    let isAdmin = c.var.viewer.isAdmin;
    const requestHeaders = c.req.raw.headers;
    const res = streamSSE(c, async (stream) => {
      const queue: ChangeEvent[] = [];
      let open = true;
      let wake: (() => void) | null = null;
      const stop = () => {
        open = false;
        wake?.();
      };
      let checking = 0;
      let held: ChangeEvent[] = [];
      /** Applies a fresh look at the viewer: gone ends the stream, no longer an admin narrows it. */
      const apply = (viewer: Viewer | null | 'unknown') => {
        if (viewer === 'unknown') return;
        if (viewer?.userId !== userId) return stop();
        isAdmin = viewer.isAdmin;
      };
      const recheck = () => {
        // Until the answer comes, another user's changes wait (an admin who still is one gets
        // them then), and those already queued are taken back.
        checking++;
        held.push(...queue.filter((e) => e.userId !== userId));
        queue.splice(0, queue.length, ...queue.filter((e) => e.userId === userId));
        void viewerNow(deps, requestHeaders).then((viewer) => {
          apply(viewer);
          if (--checking > 0) return;
          if (isAdmin && open) queue.push(...held);
          held = [];
          wake?.();
        });
      };
      const unsubscribe = deps.bus.subscribe((event) => {
        if (!open) return;
        // The database's session notices are for the servers' caches, not for browsers; one about
        // this user may mean the session or the admin role has gone.
        if (isSessionNotice(event)) {
          if (event.userId === userId) recheck();
          return;
        }
        if (!isAdmin && event.userId !== userId) return;
        if (queue.length + held.length >= MAX_QUEUED) return stop();
        (checking && event.userId !== userId ? held : queue).push(event);
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
          apply(await viewerNow(deps, requestHeaders));
          if (!open) break;
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

/** The viewer as the database says now (not the cache, which the same notice is clearing); 'unknown' on a database hiccup. */
async function viewerNow(deps: AppDeps, headers: Headers): Promise<Viewer | null | 'unknown'> {
  try {
    // The same checks as every API route: a view-as session past its hour or its admin ends here too.
    return await lookUpViewer(deps.auth, deps.db, headers);
  } catch {
    return 'unknown'; // a database hiccup is not a sign-out; the next heartbeat asks again
  }
}
