// The request-state controls of a user card (spec section 4): Request Received for a pending
// request, which asks to confirm the approval (issue 36); the Approved badge with Undo Approval for one ready to purchase, whose main action is
// Review clips and the state of its reel when the event has footage (delivery then follows payment
// and render by itself); Reels Delivered, for videos uploaded by hand, is secondary and asks to
// confirm. A delivered request says Delivered; No Request otherwise. Only the first open request
// is acted on.
import { CheckCircle2, Hand, SearchX } from 'lucide-react';
import { ADMIN, REVIEW } from '../../../common/admin-messages';
import { useState } from 'react';
import { Link } from 'react-router';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { useMoveRequest, type AdminUser, type RequestMove } from './api';

const OUTCOME = {
  acknowledge: { done: ADMIN.requestToasts.acknowledged, failed: ADMIN.requestToasts.acknowledgeFailed },
  undo: { done: ADMIN.requestToasts.reverted, failed: ADMIN.requestToasts.undoFailed },
  deliver: { done: ADMIN.requestToasts.delivered, failed: ADMIN.requestToasts.completeFailed },
} as const;

export function RequestButton({ requests }: { requests: AdminUser['requests'] }) {
  const moveRequest = useMoveRequest();
  const open = requests.find((r) => r.status === 'pending' || r.status === 'ready_to_purchase');
  const busy = moveRequest.isPending;
  const [confirmingDelivery, setConfirmingDelivery] = useState(false);
  const [confirmingApproval, setConfirmingApproval] = useState(false);

  const act = (move: RequestMove) =>
    moveRequest.mutate(
      { id: open!.id, move },
      {
        onSuccess: () => {
          setConfirmingDelivery(false);
          setConfirmingApproval(false);
          notify.success(OUTCOME[move].done);
        },
        onError: (error) => notify.error({ title: OUTCOME[move].failed, description: error.message || ADMIN.requestToasts.errorFallback }),
      },
    );

  if (!open) {
    const delivered = requests.find((r) => r.status === 'delivered');
    if (delivered) {
      return (
        <span className="inline-flex items-center gap-1 rounded-full bg-green-950 px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-green-300" data-testid="request-delivered">
          <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
          {ADMIN.requestButtons.deliveredState}
        </span>
      );
    }
    return (
      <Button variant="outline" size="sm" disabled>
        {ADMIN.requestButtons.none}
      </Button>
    );
  }
  if (open.status === 'pending') {
    // Approving starts the work on the family's footage: it asks first, and says what happens next.
    return (
      <>
        <Button size="sm" onClick={() => setConfirmingApproval(true)} disabled={busy} title={open.event}>
          {busy ? ADMIN.requestButtons.busy : ADMIN.requestButtons.received}
        </Button>
        <Dialog open={confirmingApproval} onOpenChange={(o) => !o && !busy && setConfirmingApproval(false)}>
          <DialogContent title={ADMIN.queue.confirmTitle(1)} description={ADMIN.queue.confirmText}>
            <p className="text-sm text-neutral-200">{open.event}</p>
            <DialogFooter>
              <Button variant="outline" onClick={() => setConfirmingApproval(false)} disabled={busy}>
                {ADMIN.queue.cancel}
              </Button>
              <Button onClick={() => act('acknowledge')} disabled={busy}>
                {busy ? ADMIN.requestButtons.busy : ADMIN.queue.confirm}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="inline-flex items-center gap-1 rounded-full bg-green-950 px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-green-300">
        <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
        {ADMIN.requestButtons.approved}
      </span>
      {open.nothingFound && (
        <ReviewChip requestId={open.id} icon={SearchX} title={ADMIN.requestButtons.nothingFoundTitle} tone="bg-yellow-950 text-yellow-200" testId="request-nothing-found">
          {ADMIN.requestButtons.nothingFound}
        </ReviewChip>
      )}
      {open.handPick && (
        <ReviewChip requestId={open.id} icon={Hand} title={ADMIN.requestButtons.handPickTitle} tone="bg-sky-950 text-sky-200" testId="request-hand-pick">
          {ADMIN.requestButtons.handPick}
        </ReviewChip>
      )}
      {open.paid && (
        <span className="inline-flex items-center gap-1 rounded-full bg-emerald-950 px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-emerald-300" data-testid="request-paid">
          {ADMIN.requestButtons.paid}
        </span>
      )}
      {open.fromFootage && (
        <>
          <Button asChild size="sm">
            <Link to={`/admin/requests/${open.id}`}>{REVIEW.link}</Link>
          </Button>
          {open.renderState && (
            <span className="text-xs font-semibold text-neutral-300" data-testid="request-work">
              {ADMIN.requestButtons.work[open.renderState] ?? open.renderState}
            </span>
          )}
        </>
      )}
      <Button size="sm" variant="outline" onClick={() => setConfirmingDelivery(true)} disabled={busy}>
        {busy ? ADMIN.requestButtons.busy : ADMIN.requestButtons.delivered}
      </Button>
      <Dialog open={confirmingDelivery} onOpenChange={(o) => !o && !busy && setConfirmingDelivery(false)}>
        <DialogContent title={ADMIN.requestButtons.deliverConfirm.title} description={ADMIN.requestButtons.deliverConfirm.body}>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmingDelivery(false)} disabled={busy}>
              {ADMIN.requestButtons.deliverConfirm.cancel}
            </Button>
            <Button onClick={() => act('deliver')} disabled={busy}>
              {busy ? ADMIN.requestButtons.busy : ADMIN.requestButtons.deliverConfirm.confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      {/* A paid request stays approved (the server refuses the undo too). */}
      {!open.paid && (
        <Button size="sm" variant="outline" onClick={() => act('undo')} disabled={busy}>
          {ADMIN.requestButtons.undo}
        </Button>
      )}
    </div>
  );
}

/** A request's state that needs the team, as a link to its review. */
function ReviewChip({ requestId, icon: Icon, title, tone, testId, children }: { requestId: string; icon: typeof SearchX; title: string; tone: string; testId: string; children: React.ReactNode }) {
  return (
    <Link
      to={`/admin/requests/${requestId}`}
      title={title}
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs font-semibold uppercase tracking-wide underline-offset-2 hover:underline ${tone}`}
      data-testid={testId}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {children}
    </Link>
  );
}
