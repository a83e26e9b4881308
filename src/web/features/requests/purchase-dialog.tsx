// Purchase Your Reel: shown when a request is ready_to_purchase. The price, a promo code
// (checked on the server), and checkout, which the payments issue connects to the provider.
import { useState } from 'react';
import { REEL_PRICE_CENTS } from '../../../common/constants';
import { DASHBOARD, PROMO } from '../../../common/dashboard-messages';
import { ApiRequestError } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { useCheckPromo, useRequests } from './api';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function PurchaseReel() {
  const requests = useRequests();
  const ready = requests.data?.find((r) => r.status === 'ready_to_purchase');
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState<{ code: string; discountPercent: number } | null>(null);
  const check = useCheckPromo();

  if (!ready) return null;
  const discount = applied ? Math.round((REEL_PRICE_CENTS * applied.discountPercent) / 100) : 0;
  const total = REEL_PRICE_CENTS - discount;

  const apply = async () => {
    try {
      const promo = await check.mutateAsync(code);
      setApplied(promo);
      notify.success({
        title: PROMO.appliedTitle,
        description: `You saved ${dollars(Math.round((REEL_PRICE_CENTS * promo.discountPercent) / 100))} (${promo.discountPercent}% off).`,
      });
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === 'INVALID_PROMO') notify.error(PROMO.invalid);
      else notify.error({ title: PROMO.invalid.title, description: PROMO.checkFailed });
    }
  };

  return (
    <>
      <Button size="lg" onClick={() => setOpen(true)} className="w-full md:w-auto">
        {DASHBOARD.purchaseReel}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title={DASHBOARD.purchaseReel} description={ready.event}>
          <div className="rounded-lg border border-neutral-800 bg-neutral-950 p-4">
            <p className="text-sm text-neutral-400">Personalised highlight reel</p>
            <p className="mt-1 flex items-baseline gap-3">
              {applied && <span className="text-lg text-neutral-400 line-through">{dollars(REEL_PRICE_CENTS)}</span>}
              <span className="font-display text-4xl text-white" data-testid="price">{dollars(total)}</span>
            </p>
            <p className="mt-2 text-xs text-neutral-400">Delivered in 7-10 business days. Payments are non-refundable.</p>
          </div>
          <div className="mt-4 flex items-end gap-2">
            <Field label="Promo code" optional className="flex-1">
              <Input
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setApplied(null);
                }}
              />
            </Field>
            <Button variant="outline" onClick={apply} disabled={!code.trim() || check.isPending}>
              Apply
            </Button>
          </div>
          {/* Online payment arrives with the payments issue; until then the team takes payment directly. */}
          <Button size="lg" className="mt-6 w-full" disabled>
            Checkout
          </Button>
          <p className="mt-2 text-center text-xs text-neutral-400">
            Online checkout is not open yet. Contact us and we will complete your order.
          </p>
        </DialogContent>
      </Dialog>
    </>
  );
}
