// /admin/requests: the work queue (issue 36 item 1). Every request with its athlete, event, games,
// where it stands, whether it is paid and how long it has waited; filtered by state and event,
// searched; opening one goes to its review. Requests waiting for approval are approved one by one
// or several at once, after a confirmation that says what happens next.
import { useState } from 'react';
import { Link } from 'react-router';
import { ADMIN } from '../../common/admin-messages';
import { type QueueRequest, useApproveRequests, useRequestQueue } from '../features/admin/api';
import { AdminPageHeader } from '../features/admin/page-header';
import { SelectFilter, useTypedSearch, useUrlFilters } from '../features/admin/url-filters';
import { useEvents } from '../features/requests/api';
import { cn } from '../lib/cn';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../ui/dialog';
import { Input } from '../ui/form-controls';
import { Spinner } from '../ui/spinner';

const T = ADMIN.queue;
const STATE_BADGE: Record<string, string> = {
  approve: 'bg-yellow-950 text-yellow-200',
  review: 'bg-sky-950 text-sky-200',
  paid: 'bg-green-950 text-green-300',
};

export default function AdminRequestsPage() {
  usePageTitle(PAGE_TITLES['/admin/requests-queue']);
  // The filters live in the address, so a filtered queue can be bookmarked or shared with the team.
  const { values, page, set } = useUrlFilters(['state', 'event', 'q'] as const);
  const filter = { ...values, page };
  const [typed, setTyped] = useTypedSearch(filter.q, (q) => set({ q }));
  const queue = useRequestQueue(filter);
  const events = useEvents();
  const approve = useApproveRequests();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const data = queue.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const approvable = data?.requests.filter((r) => r.state === 'approve') ?? [];
  const chosen = approvable.filter((r) => selected.has(r.id)).map((r) => r.id);
  const toggle = (id: string) => setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));

  const confirm = () =>
    confirming &&
    approve.mutate(confirming, {
      onSuccess: (result) => {
        if (result.approved.length) notify.success({ title: T.approved(result.approved.length), description: T.approvedText });
        if (result.refused.length) notify.error({ title: T.refused(result.refused.length), description: result.refused[0]!.message });
        setSelected(new Set());
        setConfirming(null);
      },
      onError: (e) => notify.error({ title: T.loadFailed, description: e.message }),
    });

  return (
    <>
      <AdminPageHeader title={T.title} />
      <p className="mb-4 text-neutral-300">{T.help}</p>
      <form className="mb-4 grid gap-3 sm:grid-cols-[1fr_1fr_2fr]" role="search" onSubmit={(e) => e.preventDefault()}>
        <SelectFilter label={T.state} value={filter.state} any={T.allStates} options={Object.entries(T.states).map(([value, label]) => ({ value, label }))} onChange={(state) => set({ state })} />
        <SelectFilter label={T.event} value={filter.event} any={T.allEvents} options={(events.data ?? []).map((e) => ({ value: e.id, label: e.name }))} onChange={(event) => set({ event })} />
        <label className="flex flex-col gap-1 text-sm text-neutral-200">
          {T.search}
          <Input type="search" value={typed} placeholder={T.searchPlaceholder} onChange={(e) => setTyped(e.target.value)} />
        </label>
      </form>
      {approvable.length > 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm text-neutral-200">
            <input
              type="checkbox"
              className="h-4 w-4 accent-red-600"
              checked={chosen.length === approvable.length}
              onChange={(e) => setSelected(new Set(e.target.checked ? approvable.map((r) => r.id) : []))}
            />
            {T.selectAll}
          </label>
          <Button size="sm" disabled={!chosen.length} onClick={() => setConfirming(chosen)}>
            {T.approveSelected(chosen.length)}
          </Button>
        </div>
      )}
      {queue.isPending ? (
        <Spinner />
      ) : queue.isError ? (
        <p role="alert" className="rounded-xl border border-neutral-800 p-8 text-center text-red-300">
          {T.loadFailed}
        </p>
      ) : !data?.requests.length ? (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{T.empty}</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={T.title}>
          {data.requests.map((r) => (
            <QueueCard key={r.id} request={r} selected={selected.has(r.id)} onToggle={() => toggle(r.id)} onApprove={() => setConfirming([r.id])} />
          ))}
        </ul>
      )}
      {data && pages > 1 && (
        <nav className="mt-4 flex items-center justify-center gap-3" aria-label={T.page(filter.page, pages)}>
          <Button size="sm" variant="outline" disabled={filter.page <= 1} onClick={() => set({ page: String(filter.page - 1) })}>
            {T.previous}
          </Button>
          <span className="text-sm text-neutral-300">{T.page(filter.page, pages)}</span>
          <Button size="sm" variant="outline" disabled={filter.page >= pages} onClick={() => set({ page: String(filter.page + 1) })}>
            {T.next}
          </Button>
        </nav>
      )}
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <DialogContent title={T.confirmTitle(confirming?.length ?? 1)} description={T.confirmText}>
          <ul className="flex flex-col gap-1 text-sm text-neutral-200">
            {(data?.requests ?? [])
              .filter((r) => confirming?.includes(r.id))
              .map((r) => (
                <li key={r.id}>
                  {r.athlete} · {r.event}
                </li>
              ))}
          </ul>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(null)}>
              {T.cancel}
            </Button>
            <Button disabled={approve.isPending} onClick={confirm}>
              {T.confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

function QueueCard({ request: r, selected, onToggle, onApprove }: { request: QueueRequest; selected: boolean; onToggle: () => void; onApprove: () => void }) {
  const approvable = r.state === 'approve';
  return (
    <li className="grid gap-3 rounded-xl border border-neutral-800 bg-neutral-900/70 p-4 sm:grid-cols-[auto_1fr_auto] sm:items-center" data-testid="queue-request">
      <div className="hidden sm:block">
        {approvable && <input type="checkbox" className="h-4 w-4 accent-red-600" aria-label={T.select(r.athlete)} checked={selected} onChange={onToggle} />}
      </div>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          {approvable && <input type="checkbox" className="h-4 w-4 accent-red-600 sm:hidden" aria-label={T.select(r.athlete)} checked={selected} onChange={onToggle} />}
          <span className="font-semibold text-white">{r.athlete}</span>
          <span className={cn('rounded px-2 py-0.5 text-xs', STATE_BADGE[r.state] ?? 'bg-neutral-800 text-neutral-200')} data-testid="queue-state">
            {T.states[r.state]}
          </span>
          <span className="rounded bg-neutral-800 px-2 py-0.5 text-xs text-neutral-200">{r.paid ? T.paid : T.unpaid}</span>
        </p>
        <p className="truncate text-sm text-neutral-300">{r.email}</p>
        <p className="text-sm text-neutral-300">
          {r.event} · {r.games.length ? r.games.join(', ') : T.allGames}
        </p>
        <p className="text-xs text-neutral-400">
          {T.columns.waiting}: {T.waited(r.waitingSince)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        {approvable && (
          <Button size="sm" onClick={onApprove} aria-label={`${T.approve} ${r.athlete}`}>
            {T.approve}
          </Button>
        )}
        <Button size="sm" variant="outline" asChild>
          <Link to={`/admin/requests/${r.id}`} aria-label={`${T.open} ${r.athlete}`}>
            {T.open}
          </Link>
        </Button>
      </div>
    </li>
  );
}
