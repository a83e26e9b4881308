// The order a checkout return is about, as the server knows it: paid, still being confirmed by
// the payment provider, or not completed. Never what the address bar claims.
import { CheckCircle2, Clock, X, XCircle } from 'lucide-react';
import { useState } from 'react';
import { REEL_PRICE_CENTS } from '../../../common/constants';
import { CHECKOUT } from '../../../common/dashboard-messages';
import { cn } from '../../lib/cn';
import { dollars } from '../requests/purchase-dialog';
import type { OrderView } from './api';

const T = CHECKOUT.order;

export function OrderSummary({ order }: { order: OrderView }) {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  const state = order.status === 'completed' ? 'paid' : order.status === 'pending' ? 'pending' : 'closed';
  const label = { paid: T.completed, pending: T.pending, closed: order.status === 'failed' ? T.failed : T.expired }[state];
  return (
    <section
      aria-labelledby="order-summary-title"
      data-testid="order-summary"
      data-status={order.status}
      className={cn(
        'relative mb-6 rounded-xl border p-5',
        state === 'paid' && 'border-green-800 bg-green-950/40',
        state === 'pending' && 'border-amber-700 bg-amber-950/30',
        state === 'closed' && 'border-neutral-700 bg-neutral-900',
      )}
    >
      <button type="button" onClick={() => setDismissed(true)} aria-label="Close the order summary" className="absolute right-3 top-3 rounded-md p-1 text-neutral-300 hover:text-white">
        <X className="h-5 w-5" aria-hidden="true" />
      </button>
      <h2 id="order-summary-title" className="font-display text-xl uppercase tracking-wide text-white">
        {T.title}
      </h2>
      <p className="mt-2 flex items-center gap-2 font-semibold text-white" role="status">
        {state === 'paid' && <CheckCircle2 className="h-5 w-5 text-green-400" aria-hidden="true" />}
        {state === 'pending' && <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-neutral-600 border-t-amber-400" />}
        {state === 'closed' && <XCircle className="h-5 w-5 text-neutral-400" aria-hidden="true" />}
        {label}
      </p>
      {state === 'pending' && (
        <p className="mt-1 flex items-center gap-2 text-sm text-neutral-300">
          <Clock className="h-4 w-4" aria-hidden="true" />
          {T.pendingNote}
        </p>
      )}
      <dl className="mt-4 grid max-w-md grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <dt className="text-neutral-300">
          {T.reel}
          {order.event ? `: ${order.event}` : ''}
        </dt>
        <dd className="text-right text-neutral-200">{dollars(REEL_PRICE_CENTS)}</dd>
        {order.discountCents > 0 && (
          <>
            <dt className="text-neutral-300">
              {T.promo} {order.promoCode}
            </dt>
            <dd className="text-right text-green-300">-{dollars(order.discountCents)}</dd>
          </>
        )}
        <dt className="font-semibold text-white">{T.total}</dt>
        <dd className="text-right font-semibold text-white" data-testid="order-total">
          {order.amount === 0 ? T.free : dollars(order.amount)}
        </dd>
        <dt className="text-neutral-300">{T.reference}</dt>
        <dd className="text-right font-mono text-xs text-neutral-300">{order.id.slice(-12)}</dd>
      </dl>
      {order.provider === 'local' && <p className="mt-3 text-xs text-neutral-300">{T.testPayment}</p>}
    </section>
  );
}
