// Change events for live updates. The API publishes one when a row that a user cares about
// changes; the SSE endpoint forwards each to the signed-in owner only. In-process by default;
// on PostgreSQL through LISTEN/NOTIFY, so every API instance hears every change.
import pg from 'pg';
import type { Database } from '../db/client';

export type ChangeTopic = 'highlight_requests' | 'user_videos' | 'user_stills' | 'user_profiles' | 'orders';
const TOPICS: readonly ChangeTopic[] = ['highlight_requests', 'user_videos', 'user_stills', 'user_profiles', 'orders'];

export interface ChangeEvent {
  topic: ChangeTopic;
  /** The user the changed row belongs to. */
  userId: string;
  action: 'insert' | 'update' | 'delete';
  id?: string;
}

export interface EventBus {
  readonly kind: 'memory' | 'postgres';
  publish(event: ChangeEvent): Promise<void>;
  /** Calls `listener` for every event published by any API instance; returns an unsubscribe. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  close(): Promise<void>;
}

export const CHANNEL = 'app_changes';

/** The event in a NOTIFY payload, or null when it is not one of ours. */
export function parseChangeEvent(payload: string | undefined): ChangeEvent | null {
  try {
    const e = JSON.parse(payload ?? '') as Partial<ChangeEvent>;
    if (!e || !TOPICS.includes(e.topic as ChangeTopic) || typeof e.userId !== 'string') return null;
    if (!['insert', 'update', 'delete'].includes(e.action as string)) return null;
    return { topic: e.topic as ChangeTopic, userId: e.userId, action: e.action as ChangeEvent['action'], id: typeof e.id === 'string' ? e.id : undefined };
  } catch {
    return null;
  }
}

class Listeners {
  private readonly set = new Set<(event: ChangeEvent) => void>();
  add(listener: (event: ChangeEvent) => void) {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }
  emit(event: ChangeEvent) {
    for (const l of this.set) {
      try {
        l(event);
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
  const listeners = new Listeners();
  return {
    kind: 'memory',
    async publish(event) {
      listeners.emit(event);
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {
      listeners.clear();
    },
  };
}

async function createPostgresBus(pool: pg.Pool): Promise<EventBus> {
  const listeners = new Listeners();
  const connectionConfig = (pool as unknown as { options: pg.ClientConfig }).options;
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;

  // A dedicated connection LISTENs; if it drops, it reconnects with a growing pause.
  const connect = async (attempt = 0): Promise<void> => {
    if (closed) return;
    const c = new pg.Client(connectionConfig);
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL) return;
      const event = parseChangeEvent(msg.payload);
      if (event) listeners.emit(event);
    });
    c.on('error', (error) => {
      console.error('[realtime] listen connection lost:', error.message);
      scheduleReconnect(0);
    });
    c.on('end', () => scheduleReconnect(0));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      client = c;
    } catch (error) {
      await c.end().catch(() => {});
      if (attempt === 0 && !client) throw error; // fail at start: the database is not reachable
      scheduleReconnect(attempt + 1);
    }
  };
  const scheduleReconnect = (attempt: number) => {
    if (closed || retryTimer) return;
    const stale = client;
    client = null;
    void stale?.end().catch(() => {});
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect(attempt + 1);
    }, Math.min(10_000, 250 * 2 ** attempt));
  };

  await connect();
  return {
    kind: 'postgres',
    async publish(event) {
      // NOTIFY payloads are limited to 8000 bytes; ours are a few ids.
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      listeners.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
