// Listens to the server's change stream and refreshes what changed. EventSource reconnects by
// itself after a dropped connection; polling (requests, every 10 s) covers the gap.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

const QUERIES_BY_TOPIC: Record<string, string[][]> = {
  highlight_requests: [['requests']],
  user_videos: [['videos']],
  user_stills: [['stills']],
  user_profiles: [['profile'], ['me']],
  orders: [['orders']],
};

/** Returns whether the stream is connected (the server has said it is ready). */
export function useLiveUpdates(enabled = true): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/realtime/stream', { withCredentials: true });
    source.addEventListener('ready', () => setConnected(true));
    source.addEventListener('error', () => setConnected(false));
    source.addEventListener('change', (e) => {
      try {
        const { topic } = JSON.parse((e as MessageEvent<string>).data) as { topic: string };
        for (const queryKey of QUERIES_BY_TOPIC[topic] ?? []) void queryClient.invalidateQueries({ queryKey });
      } catch {
        // a malformed message changes nothing
      }
    });
    return () => {
      source.close();
      setConnected(false);
    };
  }, [enabled, queryClient]);
  return connected;
}
