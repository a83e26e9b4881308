// The request-state controls of a user card (spec section 4): Request Received for a pending
// request; the Approved badge with Reels Delivered and Undo Approval for one ready to purchase;
// a disabled No Request otherwise. Only the first open request is acted on.
import { CheckCircle2 } from 'lucide-react';
import { ADMIN } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
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

  const act = (move: RequestMove) =>
    moveRequest.mutate(
      { id: open!.id, move },
      {
        onSuccess: () => notify.success(OUTCOME[move].done),
        onError: (error) => notify.error({ title: OUTCOME[move].failed, description: error.message || ADMIN.requestToasts.errorFallback }),
      },
    );

  if (!open) {
    return (
      <Button variant="outline" size="sm" disabled>
        {ADMIN.requestButtons.none}
      </Button>
    );
  }
  if (open.status === 'pending') {
    return (
      <Button size="sm" onClick={() => act('acknowledge')} disabled={busy} title={open.event}>
        {busy ? ADMIN.requestButtons.busy : ADMIN.requestButtons.received}
      </Button>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="inline-flex items-center gap-1 rounded-full bg-green-950 px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-green-300">
        <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
        {ADMIN.requestButtons.approved}
      </span>
      {open.paid && (
        <span className="inline-flex items-center gap-1 rounded-full bg-emerald-950 px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-emerald-300" data-testid="request-paid">
          {ADMIN.requestButtons.paid}
        </span>
      )}
      <Button size="sm" onClick={() => act('deliver')} disabled={busy}>
        {busy ? ADMIN.requestButtons.busy : ADMIN.requestButtons.delivered}
      </Button>
      {/* A paid request stays approved (the server refuses the undo too). */}
      {!open.paid && (
        <Button size="sm" variant="outline" onClick={() => act('undo')} disabled={busy}>
          {ADMIN.requestButtons.undo}
        </Button>
      )}
    </div>
  );
}
