// /admin/waiting-list: the homepage sign-ups, for admins only (checked on the server; the
// spec's browser-side password is not reproduced). Clearing archives them; a CSV takes them away.
import { Download } from 'lucide-react';
import { useState } from 'react';
import { ADMIN } from '../../common/admin-messages';
import { useArchiveWaitingList, useWaitingList } from '../features/admin/api';
import { AdminPageHeader } from '../features/admin/page-header';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../ui/dialog';
import { Spinner } from '../ui/spinner';

export default function AdminWaitingListPage() {
  usePageTitle(PAGE_TITLES['/admin/waiting-list']);
  const list = useWaitingList();
  const archive = useArchiveWaitingList();
  const [confirming, setConfirming] = useState(false);
  const entries = list.data?.entries ?? [];

  // Up to the newest entry shown (newest first), in the server's time: one that arrives after
  // the list was loaded stays on it.
  const clear = () =>
    archive.mutate(entries[0]!.createdAt, {
      onSuccess: ({ archived }) => {
        notify.success(ADMIN.waitingList.cleared(archived));
        setConfirming(false);
      },
      onError: (e) => notify.error({ title: 'Error', description: e.message }),
    });
  return (
    <>
      <AdminPageHeader title={ADMIN.waitingList.title}>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <a href="/api/admin/waiting-list.csv" download>
              <Download className="h-4 w-4" aria-hidden="true" />
              {ADMIN.waitingList.exportCsv}
            </a>
          </Button>
          <Button size="sm" onClick={() => setConfirming(true)} disabled={entries.length === 0}>
            {ADMIN.waitingList.clearAll}
          </Button>
        </div>
      </AdminPageHeader>
      <p className="mb-4 text-neutral-300">
        {ADMIN.waitingList.description} Total: <strong className="text-white" data-testid="waiting-total">{list.data?.total ?? '…'}</strong>
      </p>
      {list.isPending ? (
        <Spinner />
      ) : entries.length === 0 ? (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{ADMIN.waitingList.empty}</p>
      ) : (
        // Focusable, so a keyboard can scroll the table sideways on a phone (nothing in it takes focus).
        <div
          role="region"
          aria-label={ADMIN.waitingList.title}
          tabIndex={0}
          className="overflow-x-auto rounded-xl border border-neutral-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500"
        >
          <table className="w-full min-w-[520px] text-left text-sm">
            <thead className="bg-neutral-900 text-xs uppercase tracking-wide text-neutral-300">
              <tr>
                <th className="px-4 py-3 font-semibold">{ADMIN.waitingList.columns.name}</th>
                <th className="px-4 py-3 font-semibold">{ADMIN.waitingList.columns.email}</th>
                <th className="px-4 py-3 font-semibold">{ADMIN.waitingList.columns.date}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-t border-neutral-800">
                  <td className="px-4 py-3 text-white">
                    {e.name}
                    {e.registered && <span className="ml-2 rounded-full bg-green-950 px-2 py-0.5 text-xs text-green-300">Registered</span>}
                  </td>
                  <td className="px-4 py-3 text-neutral-300">{e.email}</td>
                  <td className="px-4 py-3 text-neutral-300">{new Date(e.createdAt).toLocaleDateString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={confirming} onOpenChange={(o) => !archive.isPending && setConfirming(o)}>
        <DialogContent title={ADMIN.waitingList.clearAll} description={ADMIN.waitingList.clearConfirm}>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)} disabled={archive.isPending}>
              Cancel
            </Button>
            <Button onClick={clear} disabled={archive.isPending}>
              {archive.isPending ? 'Clearing...' : ADMIN.waitingList.clearAll}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
