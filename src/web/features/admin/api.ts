// The admin screens' calls: one query or mutation per server call, typed from the server.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import { requestJson } from '../../lib/api-error';
import { uploadForm } from '../../lib/upload';

export interface UsersQuery {
  q: string;
  filters: string[];
  page: number;
}

export const statsQuery = queryOptions({ queryKey: ['admin', 'stats'], queryFn: () => unwrap(api.admin.stats.$get()) });
export const useStats = () => useQuery(statsQuery);

export const useUsers = (query: UsersQuery) =>
  useQuery({
    queryKey: ['admin', 'users', query],
    queryFn: () => unwrap(api.admin.users.$get({ query: { q: query.q, filters: query.filters.join(','), page: String(query.page) } })),
    // Typing in the search box keeps the last list on screen until the new one is there.
    placeholderData: keepPreviousData,
  });
export type AdminUser = NonNullable<ReturnType<typeof useUsers>['data']>['users'][number];

export interface OrdersFilter {
  q: string;
  status: string;
  event: string;
  from: string;
  to: string;
  page: number;
}
/** The admin's own time zone: what "a day" means for the dates and the totals. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
/** The filter as the server reads it (empty fields left out), for the list and the CSV link alike. */
export function ordersQueryOf(filter: Omit<OrdersFilter, 'page'> & { page?: number }): Record<string, string> {
  const query: Record<string, string> = { tz: browserTimeZone() };
  for (const key of ['q', 'status', 'event', 'from', 'to'] as const) if (filter[key]) query[key] = filter[key];
  if (filter.page) query.page = String(filter.page);
  return query;
}
export const useOrders = (filter: OrdersFilter) =>
  useQuery({
    queryKey: ['admin', 'orders', filter],
    queryFn: () => unwrap(api.admin.orders.$get({ query: ordersQueryOf(filter) })),
    placeholderData: keepPreviousData,
    // A refund waits for the provider's word (a moment): the list looks again until it has come.
    refetchInterval: (query) => (query.state.data?.orders.some((o) => o.refunds.some((r) => r.status === 'pending')) ? 2000 : false),
  });
export type AdminOrder = NonNullable<ReturnType<typeof useOrders>['data']>['orders'][number];
export type OrderTotals = NonNullable<ReturnType<typeof useOrders>['data']>['totals'];

export const useRefundOrder = () =>
  useAdminMutation(({ orderId, amountCents, reason }: { orderId: string; amountCents: number; reason: string }) =>
    requestJson<{ id: string; amount: number; status: string }>(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', json: { amountCents, ...(reason.trim() ? { reason: reason.trim() } : {}) } }),
  );

export interface QueueFilter {
  state: string;
  event: string;
  q: string;
  page: number;
}
export const useRequestQueue = (filter: QueueFilter) =>
  useQuery({
    queryKey: ['admin', 'requests', filter],
    queryFn: () => unwrap(api.admin.requests.$get({ query: { ...(filter.state ? { state: filter.state } : {}), ...(filter.event ? { event: filter.event } : {}), ...(filter.q ? { q: filter.q } : {}), page: String(filter.page) } })),
    placeholderData: keepPreviousData,
  });
export type QueueRequest = NonNullable<ReturnType<typeof useRequestQueue>['data']>['requests'][number];

export const useApproveRequests = () =>
  useAdminMutation((ids: string[]) => requestJson<{ approved: string[]; refused: Array<{ id: string; message: string }> }>('/api/admin/requests/approve', { method: 'POST', json: { ids } }));

export const useWaitingList = () => useQuery({ queryKey: ['admin', 'waiting-list'], queryFn: () => unwrap(api.admin['waiting-list'].$get()) });

export const useFailedJobs = () => useQuery({ queryKey: ['admin', 'jobs'], queryFn: () => unwrap(api.admin.jobs.failed.$get()) });

/** After any change, every admin list shows the new state. */
export function useAdminMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }) });
}

export type RequestMove = 'acknowledge' | 'undo' | 'deliver';
export const useMoveRequest = () =>
  useAdminMutation(({ id, move }: { id: string; move: RequestMove }) => requestJson(`/api/admin/requests/${id}/${move}`, { method: 'POST' }));

export const useDeleteVideo = () => useAdminMutation((id: string) => requestJson(`/api/admin/videos/${id}`, { method: 'DELETE' }));

export const useUploadStills = () =>
  useAdminMutation(({ userId, files }: { userId: string; files: File[] }) => {
    const form = new FormData();
    for (const f of files) form.append('files', f);
    return uploadForm<{ count: number }>(`/api/admin/users/${userId}/stills`, 'POST', form);
  });

export const useArchiveWaitingList = () =>
  useAdminMutation((upTo: string) => requestJson<{ archived: number }>('/api/admin/waiting-list/archive', { method: 'POST', json: { upTo } }));

export const useRetryJob = () =>
  useAdminMutation(({ name, id }: { name: string; id: string }) => requestJson(`/api/admin/jobs/${name}/${id}/retry`, { method: 'POST' }));

export const useEraseAccount = () =>
  useAdminMutation(({ userId, confirmEmail }: { userId: string; confirmEmail: string }) => requestJson<{ erased: boolean }>(`/api/admin/users/${userId}/erase`, { method: 'POST', json: { confirmEmail } }));

export const startViewingAs = (userId: string) =>
  requestJson<{ user: { id: string; email: string } }>('/api/auth/impersonation/start', { method: 'POST', json: { userId } });

export const usePromoCodes = () => useQuery({ queryKey: ['admin', 'promo-codes'], queryFn: () => unwrap(api.admin['promo-codes'].$get()) });

export const useCreatePromoCode = () =>
  useAdminMutation((input: { code: string; discountPercent: number; expiresOn: string; maxUses: string }) =>
    requestJson<{ code: string; discountPercent: number }>('/api/admin/promo-codes', { method: 'POST', json: input }),
  );

export const useSetPromoActive = () =>
  useAdminMutation(({ code, active }: { code: string; active: boolean }) =>
    requestJson(`/api/admin/promo-codes/${encodeURIComponent(code)}`, { method: 'PATCH', json: { active } }),
  );
