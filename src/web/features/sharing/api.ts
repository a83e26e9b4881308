// The family's share links (issue 34, item 2): list, make (the address comes back this once), turn off.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import { JUST_LOADED_MS } from '../../lib/freshness';

export const shareLinksQuery = queryOptions({
  queryKey: ['share-links'],
  queryFn: () => unwrap(api['share-links'].$get()),
  staleTime: JUST_LOADED_MS,
});

export const useShareLinks = (enabled: boolean) => useQuery({ ...shareLinksQuery, enabled });

export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: { requestId: string; days: number; includePhotos: boolean }) => unwrap(api['share-links'].$post({ json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinksQuery.queryKey }),
  });
}

export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api['share-links'][':id'].$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinksQuery.queryKey }),
  });
}
