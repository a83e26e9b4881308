import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { READY_REQUEST_POLL_MS } from '../../../common/constants';
import { api, unwrap } from '../../lib/api';
import { JUST_LOADED_MS } from '../../lib/freshness';

export const eventsQuery = queryOptions({
  queryKey: ['events'],
  queryFn: () => unwrap(api.events.$get()),
  staleTime: 5 * 60_000,
});

export const requestsQuery = queryOptions({
  queryKey: ['requests'],
  queryFn: () => unwrap(api.requests.$get()),
  staleTime: JUST_LOADED_MS,
  // The spec's 10 s poll for a request turning ready; live updates usually arrive first.
  refetchInterval: READY_REQUEST_POLL_MS,
});

export const useEvents = () => useQuery(eventsQuery);
export const useRequests = () => useQuery(requestsQuery);

export function useSubmitRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { eventId: string; games: string[]; team?: string | null; jerseyNumber?: number | null }) => unwrap(api.requests.$post({ json: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsQuery.queryKey }),
  });
}

export function useCheckPromo() {
  return useMutation({
    mutationFn: (code: string) => unwrap(api['promo-codes'].check.$post({ json: { code } })),
  });
}

/** Starts a checkout: the server prices it and answers the provider's page to go to. */
export function useStartCheckout() {
  return useMutation({
    mutationFn: (input: { requestId: string; promoCode: string | null }) => unwrap(api.checkout.$post({ json: input })),
  });
}
