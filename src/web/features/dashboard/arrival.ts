// The dashboard's first load: one GET /api/dashboard fills the caches of its parts (profile, reels,
// photos, requests, events, share links, the face matching card, support visits), each then refreshed alone
// through its own route. One request and one session check instead of seven.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../lib/api';
import { FACE_MATCHING_KEY, profileQuery } from '../profile/api';
import { SUPPORT_VISITS_KEY } from '../profile/support-visits';
import { eventsQuery, requestsQuery } from '../requests/api';
import { shareLinksQuery } from '../sharing/api';
import { stillsQuery } from '../stills/stills-carousel';
import { videosQuery } from '../videos/api';

/**
 * True once the parts can render: their caches are filled, or were already (coming back to the
 * dashboard), or the combined request failed and each part loads (and reports) on its own.
 */
export function useDashboardArrival(): boolean {
  const queryClient = useQueryClient();
  const [cached] = useState(() => queryClient.getQueryData(profileQuery.queryKey) !== undefined);
  const arrival = useQuery({
    queryKey: ['dashboard'],
    queryFn: async () => {
      const parts = await unwrap(api.dashboard.$get());
      queryClient.setQueryData(profileQuery.queryKey, parts.profile);
      queryClient.setQueryData(videosQuery.queryKey, parts.videos);
      queryClient.setQueryData(stillsQuery.queryKey, parts.stills);
      queryClient.setQueryData(requestsQuery.queryKey, parts.requests);
      queryClient.setQueryData(eventsQuery.queryKey, parts.events);
      queryClient.setQueryData(shareLinksQuery.queryKey, parts.shareLinks);
      queryClient.setQueryData(FACE_MATCHING_KEY, parts.faceMatching);
      queryClient.setQueryData(SUPPORT_VISITS_KEY, parts.supportVisits);
      return true;
    },
    enabled: !cached,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  return cached || arrival.isSuccess || arrival.isError;
}
