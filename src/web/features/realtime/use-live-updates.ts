// Listens to the server's change stream and refreshes what changed. EventSource reconnects by
// itself after a dropped connection; polling (requests, every 10 s) covers the gap.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { refreshSession } from '../session/session';

/** What each kind of change makes stale: the athlete's own screens, and the admin lists. */
const QUERIES_BY_TOPIC: Record<string, string[][]> = {
  // The review screen too: matching writes its result (and "Matching…" ends) on this topic.
  highlight_requests: [['requests'], ['admin', 'users'], ['admin', 'stats'], ['admin', 'proposals'], ['admin', 'review']],
  footage: [['admin', 'footage']],
  reel_review: [['admin', 'review']],
  user_videos: [['videos'], ['admin', 'users'], ['admin', 'jobs']],
  user_stills: [['stills'], ['admin', 'users']],
  user_profiles: [['profile'], ['admin', 'users']],
  orders: [['orders'], ['requests'], ['admin', 'orders'], ['admin', 'stats'], ['admin', 'users']],
};

/**
 * Returns whether the stream is connected (the server has said it is ready). `identity` names
 * whose stream it is: when it changes (an admin starts or stops viewing as a user) it reconnects.
 */
export function useLiveUpdates(identity?: string): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/realtime/stream', { withCredentials: true });
    source.addEventListener('ready', () => setConnected(true));
    source.addEventListener('error', () => setConnected(false));
    source.addEventListener('change', (e) => {
      try {
        const { topic } = JSON.parse((e as MessageEvent<string>).data) as { topic: string };
        for (const queryKey of QUERIES_BY_TOPIC[topic] ?? []) void queryClient.invalidateQueries({ queryKey });
        if (topic === 'user_profiles') void refreshSession().catch(() => {});
      } catch {
        // a malformed message changes nothing
      }
    });
    return () => {
      source.close();
      setConnected(false);
    };
  }, [identity, queryClient]);
  return connected;
}
