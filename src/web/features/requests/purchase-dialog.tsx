// Purchase Your Reel: shown while an approved request is not paid for. The price, a promo code
// (checked on the server), and Checkout, which sends the buyer to the payment provider's page.
// The browser sends the request and the code; the server alone decides the price. A reel made
// from the event's footage is offered with its preview, once there is one (reel-status.tsx).
import { BadgeCheck, ShieldQuestion } from 'lucide-react';
import { useRef, useState } from 'react';
import { REEL_PRICE_CENTS } from '../../../common/constants';
import { CHECKOUT, DASHBOARD, PROMO } from '../../../common/dashboard-messages';
import { AUTH_REQUIRED } from '../../../common/messages';
import { ApiRequestError, isNetworkError } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { useCheckPromo, useRequests, useStartCheckout } from './api';
import { ReelStatus } from './reel-status';

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const savingOf = (percent: number) => Math.round((REEL_PRICE_CENTS * percent) / 100);

/** The spec's checkout errors, each with its own text. */
function checkoutFailed(error: unknown) {
  if (error instanceof ApiRequestError && error.status === 401) return notify.error(AUTH_REQUIRED);
  // Nothing usable came back (offline, an unexpected failure): the spec's generic text.
  if (!(error instanceof ApiRequestError) || isNetworkError(error) || (error.status >= 500 && error.code !== 'PROVIDER_ERROR')) {
    return notify.error({ title: CHECKOUT.failedTitle, description: CHECKOUT.generic });
  }
  notify.error({ title: error.title ?? CHECKOUT.failedTitle, description: error.message || CHECKOUT.failedFallback });
}

type RequestRow = NonNullable<ReturnType<typeof useRequests>['data']>[number];

/**
 * Each approved request's reel, newest first: what is happening, its preview and Purchase, or
 * that it is paid. A family may have several events open at once (issue 34, item 1); then each
 * says which event it is for.
 */
export function PurchaseReel({ athleteName }: { athleteName: string | null }) {
  const requests = useRequests();
  const approved = requests.data?.filter((r) => r.status === 'ready_to_purchase') ?? [];
  if (!approved.length) return null;
  const several = approved.length > 1;
  return (
    <div className="flex flex-col gap-4">
      {approved.map((request, i) => (
        <section key={request.id} aria-label={several ? request.event : undefined} className="flex flex-col gap-2" data-testid="request-reel">
          {several && <h2 className="text-sm font-semibold uppercase tracking-wide text-neutral-300">{request.event}</h2>}
          {request.refund && (
            <p className="rounded-lg border border-purple-800 bg-purple-950/40 px-4 py-3 text-sm text-purple-100" data-testid="reel-refunded">
              {CHECKOUT.refunded(dollars(request.refund.amountCents), new Date(request.refund.at).toLocaleDateString(undefined, { dateStyle: 'long' }), request.refund.whole)}
            </p>
          )}
          <RequestReel request={request} athleteName={athleteName} anchor={i === 0} />
        </section>
      ))}
    </div>
  );
}

function RequestReel({ request, athleteName, anchor }: { request: RequestRow; athleteName: string | null; anchor: boolean }) {
  const ready = request.paid ? undefined : request;
  const paid = request.paid ? request : undefined;
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState<{ code: string; discountPercent: number } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const check = useCheckPromo();
  const start = useStartCheckout();
  const checkoutButton = useRef<HTMLButtonElement>(null);

  if (!ready) {
    return paid ? (
      <p className="flex items-center gap-2 rounded-lg border border-green-800 bg-green-950/40 px-4 py-3 text-sm text-green-200" data-testid="reel-paid">
        <BadgeCheck className="h-5 w-5 shrink-0" aria-hidden="true" />
        {paid.reel.fromFootage ? CHECKOUT.paidMaking : CHECKOUT.paid}
      </p>
    ) : null;
  }
  // At an event with rosters, the team checks a doubtful link first (issue 35, item 1): no checkout before.
  if (ready.rosterChecking) {
    return (
      <p className="flex items-center gap-2 rounded-lg border border-yellow-800 bg-yellow-950/40 px-4 py-3 text-sm text-yellow-100" data-testid="reel-roster-checking">
        <ShieldQuestion className="h-5 w-5 shrink-0" aria-hidden="true" />
        {CHECKOUT.rosterUnconfirmed}
      </p>
    );
  }
  // A reel from the footage is sold with its preview; before that the card says what is happening.
  if (ready.reel.fromFootage && ready.reel.state !== 'preview') return <ReelStatus state={ready.reel.state} athleteName={athleteName} camerasNotSearched={ready.reel.camerasNotSearched} anchor={anchor} />;
  const saving = applied ? savingOf(applied.discountPercent) : 0;
  const total = REEL_PRICE_CENTS - saving;

  const apply = async () => {
    try {
      const promo = await check.mutateAsync(code);
      setApplied(promo);
      notify.success({ title: PROMO.appliedTitle, description: PROMO.applied(dollars(savingOf(promo.discountPercent)), promo.discountPercent) });
    } catch (error) {
      setApplied(null);
      // Not valid, expired or used up: the server says which.
      if (error instanceof ApiRequestError && error.code === 'INVALID_PROMO') notify.error({ title: error.title ?? PROMO.invalid.title, description: error.message || PROMO.invalid.description });
      else notify.error({ title: PROMO.invalid.title, description: PROMO.checkFailed });
    }
  };

  const checkout = async () => {
    try {
      const { url } = await start.mutateAsync({ requestId: ready.id, promoCode: applied?.code ?? null });
      if (!url) return notify.error({ title: CHECKOUT.failedTitle, description: CHECKOUT.noUrl });
      setLeaving(true);
      window.location.assign(url);
    } catch (error) {
      checkoutFailed(error);
    }
  };
  const busy = start.isPending || leaving;

  const purchaseButton = (
    <Button size="lg" onClick={() => setOpen(true)} className="w-full md:w-auto">
      {DASHBOARD.purchaseReel}
    </Button>
  );
  return (
    <>
      {ready.reel.previewUrl ? (
        <ReelStatus state="preview" athleteName={athleteName} previewUrl={ready.reel.previewUrl} anchor={anchor}>
          {purchaseButton}
        </ReelStatus>
      ) : (
        purchaseButton
      )}
      <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
        <DialogContent
          title={DASHBOARD.purchaseReel}
          description={ready.event}
          // Not the promo-code field: on a phone it would open the keyboard over the price.
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            checkoutButton.current?.focus();
          }}
        >
          <div className="rounded-lg border border-neutral-800 bg-neutral-950 p-4">
            <p className="text-sm text-neutral-300">{CHECKOUT.productName}</p>
            <p className="mt-1 flex flex-wrap items-baseline gap-x-3">
              {applied && (
                <span className="text-lg text-neutral-400 line-through" data-testid="list-price">
                  <span className="sr-only">Was </span>
                  {dollars(REEL_PRICE_CENTS)}
                </span>
              )}
              <span className="font-display text-4xl text-white" data-testid="price">
                {applied && <span className="sr-only">Now </span>}
                {dollars(total)}
              </span>
            </p>
            {applied && (
              <p className="mt-1 text-sm font-medium text-green-300" data-testid="saving">
                {PROMO.appliedTitle}: {applied.code}. {PROMO.applied(dollars(saving), applied.discountPercent)}
              </p>
            )}
            <p className="mt-2 text-xs text-neutral-300" data-testid="purchase-note">
              {ready.reel.fromFootage ? CHECKOUT.purchaseNoteReady : CHECKOUT.purchaseNote}
            </p>
          </div>
          <form
            className="mt-4 flex items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (code.trim() && !check.isPending) void apply();
            }}
          >
            <Field label={PROMO.label} optional className="flex-1">
              <Input
                value={code}
                autoCapitalize="characters"
                autoComplete="off"
                spellCheck={false}
                maxLength={64}
                onChange={(e) => {
                  setCode(e.target.value);
                  setApplied(null);
                }}
              />
            </Field>
            <Button type="submit" variant="outline" disabled={!code.trim() || check.isPending || busy}>
              {PROMO.apply}
            </Button>
          </form>
          <Button ref={checkoutButton} size="lg" className="mt-6 w-full" onClick={checkout} disabled={busy}>
            {busy ? CHECKOUT.redirecting : CHECKOUT.checkout}
          </Button>
        </DialogContent>
      </Dialog>
    </>
  );
}
