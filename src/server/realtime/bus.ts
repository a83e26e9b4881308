// Change events for live updates. The API publishes one when a row that a user cares about
// changes; the SSE endpoint forwards each to the signed-in owner only. In-process by default;
// on PostgreSQL through LISTEN/NOTIFY, so every API instance hears every change.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../db/client';

/**
 * 'sessions' is the database's own notice (migration 0012's triggers) that a user's sessions,
 * roles or second factor changed: for the servers' session caches (auth/viewer-cache.ts), never
 * forwarded to a browser.
 */
export type ChangeTopic = 'highlight_requests' | 'user_videos' | 'user_stills' | 'user_profiles' | 'orders' | 'footage' | 'reel_review' | 'sessions';
const TOPICS: readonly ChangeTopic[] = ['highlight_requests', 'user_videos', 'user_stills', 'user_profiles', 'orders', 'footage', 'reel_review', 'sessions'];
const ACTIONS: readonly ChangeEvent['action'][] = ['insert', 'update', 'delete'];

/** The database's notice that a user's sessions or roles changed (migration 0012): not for browsers. */
export const isSessionNotice = (event: ChangeEvent) => event.topic === 'sessions';

export interface ChangeEvent {
  topic: ChangeTopic;
  /** The user the changed row belongs to. */
  userId: string;
  action: 'insert' | 'update' | 'delete';
  id?: string;
}

/** A request's review changed (clips, matching, a render): reaches admins' screens only (an id no user has). */
export function publishReview(bus: EventBus, requestId: string) {
  return bus.publish({ topic: 'reel_review', userId: `request:${requestId}`, action: 'update', id: requestId });
}

export interface EventBus {
  readonly kind: 'memory' | 'postgres';
  publish(event: ChangeEvent): Promise<void>;
  /** Calls `listener` for every event published by any API instance; returns an unsubscribe. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  close(): Promise<void>;
}

export const CHANNEL = 'app_changes';
/** The listening connection's name in pg_stat_activity (unless the URL names one). */
export const LISTENER_APPLICATION_NAME = 'app_changes listener';
/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (the default build). Ours are a
 * topic, an action and two ids: about 150 bytes.
 */
export const MAX_PAYLOAD_BYTES = 7999;
const MAX_ID_LENGTH = 200;

/** Reconnect pauses: 250 ms, doubling, at most 10 s; reset once a connection is listening. */
const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 10_000;
/** How often the listening connection is checked, and how long the check may take. */
const HEALTH_CHECK_MS = 30_000;
const HEALTH_TIMEOUT_MS = 10_000;

/** A well-formed event with only its known fields, or null. */
function normalize(e: unknown): ChangeEvent | null {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return null;
  const { topic, userId, action, id } = e as Record<string, unknown>;
  if (!TOPICS.includes(topic as ChangeTopic) || !ACTIONS.includes(action as ChangeEvent['action'])) return null;
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > MAX_ID_LENGTH) return null;
  if (id !== undefined && id !== null && (typeof id !== 'string' || id.length > MAX_ID_LENGTH)) return null;
  const event: ChangeEvent = { topic: topic as ChangeTopic, userId, action: action as ChangeEvent['action'] };
  if (typeof id === 'string') event.id = id;
  return event;
}

/** The event in a NOTIFY payload, or null when it is not one of ours. */
export function parseChangeEvent(payload: string | undefined): ChangeEvent | null {
  if (!payload) return null;
  try {
    return normalize(JSON.parse(payload));
  } catch {
    return null;
  }
}

/** The NOTIFY payload for an event; throws for one that is malformed or too large. */
export function serializeChangeEvent(event: ChangeEvent): string {
  const clean = normalize(event);
  if (!clean) throw new TypeError('[realtime] not a valid change event');
  const payload = JSON.stringify(clean);
  if (Buffer.byteLength(payload, 'utf8') > MAX_PAYLOAD_BYTES) throw new RangeError('[realtime] change event too large for NOTIFY');
  return payload;
}

class Listeners {
  private readonly set = new Set<(event: ChangeEvent) => void>();
  add(listener: (event: ChangeEvent) => void) {
    // A wrapper per subscription, so the same function subscribed twice is called twice and
    // each unsubscribe removes only its own.
    const entry = (event: ChangeEvent) => listener(event);
    this.set.add(entry);
    return () => void this.set.delete(entry);
  }
  emit(event: ChangeEvent) {
    for (const l of [...this.set]) {
      if (!this.set.has(l)) continue; // unsubscribed by an earlier listener
      try {
        l({ ...event });
      } catch (error) {
        console.error('[realtime] listener failed:', (error as Error).message);
      }
    }
  }
  clear() {
    this.set.clear();
  }
}

export async function createEventBus(database: Database): Promise<EventBus> {
  if (database.kind === 'postgres' && database.pool) return createPostgresBus(database.pool);
  return createMemoryBus(database.pglite);
}

/** In-process; on PGlite it also hears the database's own NOTIFYs (the 'sessions' triggers). */
async function createMemoryBus(pglite: PGlite | null = null): Promise<EventBus> {
  const listeners = new Listeners();
  let closed = false;
  const unlisten = pglite
    ? await pglite.listen(CHANNEL, (payload) => {
        const event = parseChangeEvent(payload);
        if (event && !closed) listeners.emit(event);
      })
    : null;
  return {
    kind: 'memory',
    async publish(event) {
      const payload = serializeChangeEvent(event);
      if (closed) return;
      listeners.emit(JSON.parse(payload) as ChangeEvent);
    },
    subscribe: (listener) => (closed ? () => {} : listeners.add(listener)),
    async close() {
      closed = true;
      listeners.clear();
      await unlisten?.().catch(() => {});
    },
  };
}

/**
 * One dedicated connection per bus LISTENs (never a pooled one: the pool would hand it to a
 * query and the LISTEN would be lost). Each NOTIFY reaches every listening connection once, so
 * every instance, this one included, hears every event exactly once. Events published while the
 * connection is down are not replayed: the pages poll as well.
 */
async function createPostgresBus(pool: pg.Pool): Promise<EventBus> {
  const listeners = new Listeners();
  const clientConfig: pg.ClientConfig = {
    ...pool.options,
    fallback_application_name: LISTENER_APPLICATION_NAME,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  } as pg.ClientConfig;

  let closed = false;
  /** The connection that is listening, or being connected; at most one at a time. */
  let current: { client: pg.Client; live: boolean } | null = null;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let healthTimer: NodeJS.Timeout | null = null;

  const drop = (conn: { client: pg.Client; live: boolean }, why: string | null) => {
    if (!conn.live) return;
    conn.live = false; // from now on its notifications and events are ignored
    if (current === conn) current = null;
    if (healthTimer) clearInterval(healthTimer);
    healthTimer = null;
    conn.client.removeAllListeners('notification');
    void conn.client.end().catch(() => {});
    if (why && !closed) console.error(`[realtime] listen connection lost: ${why}; reconnecting`);
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer || current) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** failures);
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().catch(() => {}); // a failure has already scheduled the next try
    }, delay);
    retryTimer.unref?.();
  };

  const connect = async (): Promise<void> => {
    if (closed || current) return;
    const conn = { client: new pg.Client(clientConfig), live: true };
    current = conn;
    conn.client.on('notification', (msg) => {
      if (!conn.live || msg.channel !== CHANNEL) return;
      const event = parseChangeEvent(msg.payload);
      if (event) listeners.emit(event);
    });
    // Registered before connect(): an 'error' without a listener would crash the process.
    conn.client.on('error', (error) => drop(conn, error.message));
    conn.client.on('end', () => drop(conn, 'connection ended'));
    try {
      await conn.client.connect();
      await conn.client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      drop(conn, null);
      throw error;
    }
    if (!conn.live) throw new Error('[realtime] listen connection closed while connecting');
    failures = 0;
    // A connection that died without a word (a network partition) is found by a periodic check.
    healthTimer = setInterval(() => {
      if (!conn.live) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('health check timed out')), HEALTH_TIMEOUT_MS);
      });
      Promise.race([conn.client.query('SELECT 1'), timeout])
        .catch((error: Error) => drop(conn, error.message))
        .finally(() => clearTimeout(timer));
    }, HEALTH_CHECK_MS);
    healthTimer.unref?.();
  };

  try {
    await connect(); // at start, an unreachable database is an error for the caller
  } catch (error) {
    closed = true;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    throw error;
  }

  return {
    kind: 'postgres',
    async publish(event) {
      const payload = serializeChangeEvent(event);
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    },
    subscribe: (listener) => (closed ? () => {} : listeners.add(listener)),
    async close() {
      if (closed) return;
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      if (healthTimer) clearInterval(healthTimer);
      healthTimer = null;
      listeners.clear();
      const conn = current;
      current = null;
      if (conn) {
        conn.live = false;
        await conn.client.end().catch(() => {});
      }
    },
  };
}
