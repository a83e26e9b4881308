// /admin/orders: the promo codes, and every order, newest first, with its customer, athlete,
// event, amount, status, payment and refunds; searched and filtered (in the address, so a view
// can be shared), totalled, downloaded as CSV, and refunded (issue 36 item 3).
import { useEffect, useState } from 'react';
import { ADMIN, ORDER_FILTERS as F, REFUNDS } from '../../common/admin-messages';
import { ORDER_STATUSES } from '../../common/order-statuses';
import { type AdminOrder, type OrdersFilter, ordersQueryOf, useOrders } from '../features/admin/api';
import { OrderTotals } from '../features/admin/order-totals';
import { AdminPageHeader } from '../features/admin/page-header';
import { PromoCodes } from '../features/admin/promo-codes';
import { dollars, RefundDialog, refundableCents } from '../features/admin/refund-dialog';
import { SelectFilter, useTypedSearch, useUrlFilters } from '../features/admin/url-filters';
import { useEvents } from '../features/requests/api';
import { cn } from '../lib/cn';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Input } from '../ui/form-controls';
import { Spinner } from '../ui/spinner';

const BADGE: Record<string, string> = {
  completed: 'bg-green-950 text-green-300',
  pending: 'bg-yellow-950 text-yellow-200',
  refunded: 'bg-purple-950 text-purple-200',
};
const FILTER_KEYS = ['q', 'status', 'event', 'from', 'to'] as const;

export default function AdminOrdersPage() {
  usePageTitle(PAGE_TITLES['/admin/orders']);
  const { values, page, set, clear } = useUrlFilters(FILTER_KEYS);
  const filter: OrdersFilter = { ...values, page };
  const [typed, setTyped] = useTypedSearch(filter.q, (q) => set({ q }));
  const orders = useOrders(filter);
  const events = useEvents();
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  useEffect(() => {
    if (orders.isError) notify.error({ ...ADMIN.orders.loadFailed, description: orders.error.message || ADMIN.orders.loadFailed.description });
  }, [orders.isError, orders.error]);
  const data = orders.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const filtered = Boolean(filter.q || filter.status || filter.event || filter.from || filter.to);
  const csvHref = `/api/admin/orders.csv?${new URLSearchParams(ordersQueryOf({ ...filter, page: undefined }))}`;
  return (
    <>
      <AdminPageHeader title={ADMIN.orders.title} />
      <PromoCodes />
      <form className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr]" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="col-span-2 flex flex-col gap-1 text-sm text-neutral-200 lg:col-span-1">
          {F.search}
          <Input type="search" value={typed} maxLength={200} onChange={(e) => setTyped(e.target.value)} />
        </label>
        <SelectFilter label={F.status} value={filter.status} any={F.anyStatus} options={ORDER_STATUSES.map((s) => ({ value: s, label: s }))} onChange={(status) => set({ status })} />
        <SelectFilter label={F.event} value={filter.event} any={F.anyEvent} options={(events.data ?? []).map((e) => ({ value: e.id, label: e.name }))} onChange={(event) => set({ event })} />
        <label className="flex flex-col gap-1 text-sm text-neutral-200">
          {F.from}
          <Input type="date" value={filter.from} max={filter.to || undefined} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label className="flex flex-col gap-1 text-sm text-neutral-200">
          {F.to}
          <Input type="date" value={filter.to} min={filter.from || undefined} onChange={(e) => set({ to: e.target.value })} />
        </label>
      </form>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Button size="sm" variant="outline" asChild>
          <a href={csvHref} download>
            {F.download}
          </a>
        </Button>
        {filtered && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setTyped('');
              clear();
            }}
          >
            {F.clear}
          </Button>
        )}
      </div>
      {data && <OrderTotals totals={data.totals} />}
      <h2 className="mb-4 font-display text-2xl uppercase tracking-wide text-white">
        {ADMIN.orders.listTitle} {data && <span className="text-neutral-400">({data.total.toLocaleString()})</span>}
      </h2>
      {orders.isPending ? (
        <Spinner label={ADMIN.orders.loading} />
      ) : !data?.orders.length ? (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{filtered ? F.noneMatch : ADMIN.orders.empty}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.orders.map((o) => (
            <OrderCard key={o.id} order={o} onRefund={() => setRefunding(o)} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3 text-sm text-neutral-300">
          <Button variant="outline" size="sm" disabled={filter.page <= 1} onClick={() => set({ page: String(filter.page - 1) })}>
            Previous
          </Button>
          <span>
            Page {filter.page} of {pages}
          </span>
          <Button variant="outline" size="sm" disabled={filter.page >= pages} onClick={() => set({ page: String(filter.page + 1) })}>
            Next
          </Button>
        </nav>
      )}
      <RefundDialog order={refunding} onClose={() => setRefunding(null)} />
    </>
  );
}

function OrderCard({ order: o, onRefund }: { order: AdminOrder; onRefund: () => void }) {
  const refundable = refundableCents(o) > 0;
  return (
    <li className="grid gap-3 rounded-xl border border-neutral-800 bg-neutral-900/70 p-5 sm:grid-cols-[1fr_auto]" data-testid="order-card">
      <div className="min-w-0">
        <p className="font-semibold text-white">
          {o.customerName ?? ADMIN.orders.unknownUser}
          {o.athleteName && <span className="font-normal text-neutral-300"> {F.athleteLine(o.athleteName)}</span>}
        </p>
        <p className="truncate text-sm text-neutral-300">{o.email ?? ADMIN.orders.noEmail}</p>
        {o.event && <p className="text-sm text-neutral-300">{o.event}</p>}
        <p className="mt-2 break-all text-xs text-neutral-400">
          {new Date(o.createdAt).toLocaleString()} · Order <span className="font-mono">{o.id}</span>
          {o.paymentId && (
            <>
              {' '}
              · Payment <span className="font-mono">{o.paymentId}</span>
            </>
          )}
        </p>
        {(o.promoCode || o.provider !== 'stripe') && (
          <p className="mt-1 flex flex-wrap gap-2 text-xs">
            {o.promoCode && (
              <span className="rounded bg-neutral-800 px-2 py-0.5 text-neutral-200">
                {o.promoCode} (-{dollars(o.discountCents)})
              </span>
            )}
            {o.provider === 'local' && <span className="rounded bg-amber-950 px-2 py-0.5 text-amber-200">{ADMIN.orders.testPayment}</span>}
            {o.provider === 'free' && <span className="rounded bg-neutral-800 px-2 py-0.5 text-neutral-200">{ADMIN.orders.free}</span>}
          </p>
        )}
        {o.refunds.length > 0 && (
          <ul className="mt-2 flex flex-col gap-1 text-xs text-neutral-300" aria-label="Refunds">
            {o.refunds.map((r) => (
              <li key={r.id} data-testid="order-refund">
                {REFUNDS.button} {dollars(r.amount)} · {REFUNDS.status[r.status] ?? r.status} · {new Date(r.createdAt).toLocaleString()}
                {!r.byAdmin && ` · ${REFUNDS.fromDashboard}`}
                {r.reason && <span className="text-neutral-400"> · “{r.reason}”</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:flex-col sm:items-end">
        <span className="font-display text-2xl text-white">{dollars(o.amount)}</span>
        <span className={cn('rounded-full px-2.5 py-1 text-xs font-semibold uppercase tracking-wide', BADGE[o.status] ?? 'bg-neutral-800 text-neutral-200')}>{o.status}</span>
        {o.refundedCents > 0 && o.status !== 'refunded' && <span className="text-xs text-purple-200">{F.refundedBadge(dollars(o.refundedCents))}</span>}
        {refundable && (
          <Button size="sm" variant="outline" onClick={onRefund} aria-label={`${REFUNDS.button} ${o.customerName ?? ''} ${dollars(o.amount)}`.trim()}>
            {REFUNDS.button}
          </Button>
        )}
      </div>
    </li>
  );
}
