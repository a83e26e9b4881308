import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';

/** How often a pending order is asked about again, besides the live updates. */
const PENDING_POLL_MS = 3000;

/**
 * The caller's order for a checkout session id, as the server knows it. While it is pending (the
 * provider's confirmation is on its way) it is asked again every few seconds; live updates
 * usually bring the change first.
 */
export function useOrderBySession(sessionId: string | null) {
  return useQuery({
    queryKey: ['orders', sessionId],
    queryFn: () => unwrap(api.orders['by-session'][':sessionId'].$get({ param: { sessionId: sessionId! } })),
    enabled: Boolean(sessionId),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });
}

export type OrderView = NonNullable<ReturnType<typeof useOrderBySession>['data']>;
