// Who is signed in, as the server sees it. Everything that shows or hides by session reads this.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => unwrap(api.account.me.$get()),
  staleTime: 30_000,
});

export type Me = Awaited<ReturnType<NonNullable<typeof meQuery.queryFn>>>;

export function useMe() {
  return useQuery(meQuery);
}
