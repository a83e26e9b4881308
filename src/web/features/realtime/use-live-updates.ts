// Listens to the server's change stream and refreshes what changed. EventSource reconnects by
// itself after a dropped connection; polling (requests, every 10 s) covers the gap.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

const QUERIES_BY_TOPIC: Record<string, string[][]> = {
  highlight_requests: [['requests']],
  user_videos: [['videos']],
  user_stills: [['stills']],
  user_profiles: [['profile'], ['me']],
  orders: [['orders']],
};

export function useLiveUpdates(enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/realtime/stream', { withCredentials: true });
    source.addEventListener('change', (e) => {
      try {
        const { topic } = JSON.parse((e as MessageEvent<string>).data) as { topic: string };
        for (const queryKey of QUERIES_BY_TOPIC[topic] ?? []) void queryClient.invalidateQueries({ queryKey });
      } catch {
        // a malformed message changes nothing
      }
    });
    return () => source.close();
  }, [enabled, queryClient]);
}
