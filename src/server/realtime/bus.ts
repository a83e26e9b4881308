// Change events for live updates. The API publishes one when a row that a user cares about
// changes; the SSE endpoint forwards each to the signed-in owner only.
import type { Database } from '../db/client';

export type ChangeTopic = 'highlight_requests' | 'user_videos' | 'user_stills' | 'user_profiles' | 'orders';

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

// TODO(realtime): in-process bus by default, LISTEN/NOTIFY on PostgreSQL.
export async function createEventBus(_database: Database): Promise<EventBus> {
  const listeners = new Set<(event: ChangeEvent) => void>();
  return {
    kind: 'memory',
    async publish(event) {
      for (const l of listeners) l(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
