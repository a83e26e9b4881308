// What the filtered orders took, gave back and kept, and the same per day and per event.
import { ORDER_FILTERS as T } from '../../../common/admin-messages';
import type { OrderTotals as Totals } from './api';
import { dollars } from './refund-dialog';

export function OrderTotals({ totals }: { totals: Totals }) {
  const figures: Array<[string, string]> = [
    [T.paidOrders, totals.orders.toLocaleString()],
    [T.gross, dollars(totals.grossCents)],
    [T.refunded, dollars(totals.refundedCents)],
    [T.net, dollars(totals.netCents)],
  ];
  return (
    <section aria-label={T.totalsTitle} className="mb-6 rounded-xl border border-neutral-800 bg-neutral-900/70 p-4" data-testid="order-totals">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs uppercase tracking-wide text-neutral-400">{label}</dt>
            <dd className="font-display text-2xl text-white">{value}</dd>
          </div>
        ))}
      </dl>
      {totals.orders > 0 && (
        <div className="mt-4 grid gap-4 lg:grid-cols-2">
          <Breakdown title={T.perDay} rows={totals.byDay.map((d) => ({ key: d.day, label: new Date(`${d.day}T12:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' }), ...d }))} />
          <Breakdown title={T.perEvent} rows={totals.byEvent.map((e) => ({ key: e.eventId ?? '-', label: e.event ?? T.noEvent, ...e }))} />
        </div>
      )}
    </section>
  );
}

function Breakdown({ title, rows }: { title: string; rows: Array<{ key: string; label: string; orders: number; grossCents: number; refundedCents: number; netCents: number }> }) {
  return (
    <details className="rounded-lg border border-neutral-800 p-3" open={rows.length <= 7}>
      <summary className="cursor-pointer text-sm font-semibold text-neutral-200">
        {title} ({rows.length})
      </summary>
      <div className="mt-2 max-h-72 overflow-auto">
        <table className="w-full text-left text-sm text-neutral-200">
          <thead className="text-xs uppercase tracking-wide text-neutral-400">
            <tr>
              <th className="py-1 pr-2 font-normal">{title === T.perDay ? 'Day' : T.event}</th>
              <th className="py-1 pr-2 text-right font-normal">{T.paidOrders}</th>
              <th className="py-1 pr-2 text-right font-normal">{T.refunded}</th>
              <th className="py-1 text-right font-normal">{T.net}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-t border-neutral-800">
                <td className="py-1 pr-2">{r.label}</td>
                <td className="py-1 pr-2 text-right">{r.orders}</td>
                <td className="py-1 pr-2 text-right">{dollars(r.refundedCents)}</td>
                <td className="py-1 text-right font-semibold">{dollars(r.netCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
