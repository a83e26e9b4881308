// The refund of one order: how much (all that is left unless changed), why, and what a whole
// refund does to the reel, confirmed with the amount on the button (decision 0039).
import { useState } from 'react';
import { REFUNDS } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { Field, Input, Textarea } from '../../ui/form-controls';
import { type AdminOrder, useRefundOrder } from './api';

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** "12", "12.5" or "12.50" as cents; null for anything else. */
function centsOf(text: string): number | null {
  const m = /^\s*\$?\s*(\d{1,6})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** What may still be refunded: the amount less what is refunded or waiting for the provider. */
export function refundableCents(order: AdminOrder): number {
  const held = order.refunds.filter((r) => r.status !== 'failed').reduce((n, r) => n + r.amount, 0);
  return order.status === 'completed' && (order.provider === 'stripe' || order.provider === 'local') ? Math.max(0, order.amount - held) : 0;
}

export function RefundDialog({ order, onClose }: { order: AdminOrder | null; onClose: () => void }) {
  return (
    <Dialog open={order !== null} onOpenChange={(open) => !open && onClose()}>
      {order && <RefundForm key={order.id} order={order} onClose={onClose} />}
    </Dialog>
  );
}

function RefundForm({ order, onClose }: { order: AdminOrder; onClose: () => void }) {
  const left = refundableCents(order);
  const [amount, setAmount] = useState((left / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refund = useRefundOrder();
  const cents = centsOf(amount);
  const problem = cents === null ? REFUNDS.badAmount : cents > left ? REFUNDS.tooMuch(left) : null;
  const submit = () => {
    if (problem || cents === null) return setError(problem);
    refund.mutate(
      { orderId: order.id, amountCents: cents, reason },
      {
        onSuccess: () => {
          notify.success(REFUNDS.asked);
          onClose();
        },
        onError: (e) => setError(e.message),
      },
    );
  };
  return (
    <DialogContent title={REFUNDS.dialogTitle} description={`${order.customerName ?? ''} · ${dollars(order.amount)}${order.event ? ` · ${order.event}` : ''}`}>
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field label={REFUNDS.amount} error={error ?? undefined}>
          <Input inputMode="decimal" value={amount} onChange={(e) => (setAmount(e.target.value), setError(null))} />
        </Field>
        <Field label={REFUNDS.reason} hint={REFUNDS.reasonHint} optional>
          <Textarea rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        <p className="rounded-lg border border-amber-900 bg-amber-950/40 p-3 text-sm text-amber-100">{REFUNDS.whole}</p>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={refund.isPending}>
            {REFUNDS.confirm(cents !== null ? dollars(cents) : '')}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
