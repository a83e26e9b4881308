// /admin/orders: the promo codes, and every order, newest first, with its customer, amount,
// status and payment.
import { useEffect, useState } from 'react';
import { ADMIN } from '../../common/admin-messages';
import { useOrders } from '../features/admin/api';
import { AdminPageHeader } from '../features/admin/page-header';
import { PromoCodes } from '../features/admin/promo-codes';
import { cn } from '../lib/cn';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const BADGE: Record<string, string> = {
  completed: 'bg-green-950 text-green-300',
  pending: 'bg-yellow-950 text-yellow-200',
};

export default function AdminOrdersPage() {
  usePageTitle(PAGE_TITLES['/admin/orders']);
  const [page, setPage] = useState(1);
  const orders = useOrders(page);
  useEffect(() => {
    if (orders.isError) notify.error(ADMIN.orders.loadFailed);
  }, [orders.isError]);
  const data = orders.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <>
      <AdminPageHeader title={ADMIN.orders.title} />
      <PromoCodes />
      <h2 className="mb-4 font-display text-2xl uppercase tracking-wide text-white">
        {ADMIN.orders.listTitle} {data && <span className="text-neutral-400">({data.total.toLocaleString()})</span>}
      </h2>
      {orders.isPending ? (
        <Spinner label={ADMIN.orders.loading} />
      ) : !data?.orders.length ? (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{ADMIN.orders.empty}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.orders.map((o) => (
            <li key={o.id} className="grid gap-3 rounded-xl border border-neutral-800 bg-neutral-900/70 p-5 sm:grid-cols-[1fr_auto]" data-testid="order-card">
              <div className="min-w-0">
                <p className="font-semibold text-white">{o.customerName ?? ADMIN.orders.unknownUser}</p>
                <p className="truncate text-sm text-neutral-300">{o.email ?? ADMIN.orders.noEmail}</p>
                <p className="mt-2 text-xs text-neutral-400">
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
              </div>
              <div className="flex items-center gap-3 sm:flex-col sm:items-end">
                <span className="font-display text-2xl text-white">{dollars(o.amount)}</span>
                <span className={cn('rounded-full px-2.5 py-1 text-xs font-semibold uppercase tracking-wide', BADGE[o.status] ?? 'bg-neutral-800 text-neutral-200')}>{o.status}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3 text-sm text-neutral-300">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      )}
    </>
  );
}
