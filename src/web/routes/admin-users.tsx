// /admin/users: find a user (name, e-mail or phone), filter by request state, and act for them:
// view the site as them, upload stills or a video, move their request on, delete a video.
// Search, filters, sort and paging run on the server; the list follows changes live.
import { useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ADMIN, IMPERSONATION } from '../../common/admin-messages';
import { startViewingAs, useUsers, type AdminUser } from '../features/admin/api';
import { AdminPageHeader } from '../features/admin/page-header';
import { currentParams } from '../features/admin/url-filters';
import { StillsDialog } from '../features/admin/stills-dialog';
import { displayName, UserCard } from '../features/admin/user-card';
import { VideoUploadDialog } from '../features/admin/video-upload-dialog';
import { EraseAccountDialog } from '../features/admin/erase-dialog';
import { refreshSession } from '../features/session/session';
import { cn } from '../lib/cn';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Input } from '../ui/form-controls';
import { Spinner } from '../ui/spinner';

const FILTERS = ['submitted', 'approved', 'delivered'] as const;

function filtersIn(params: URLSearchParams): string[] {
  return (params.get('filters') ?? '').split(',').filter((f) => (FILTERS as readonly string[]).includes(f));
}

/** The search box's text, sent once typing pauses. */
function useDebounced(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export default function AdminUsersPage() {
  usePageTitle(PAGE_TITLES['/admin/users']);
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDebounced(text.trim());
  const filters = filtersIn(params);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const users = useUsers({ q, filters, page });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [stillsFor, setStillsFor] = useState<AdminUser | null>(null);
  const [videoFor, setVideoFor] = useState<AdminUser | null>(null);
  const [eraseFor, setEraseFor] = useState<AdminUser | null>(null);
  const [viewing, setViewing] = useState(false);

  // The address keeps the search, so a reload or a link shows the same list. Like every change
  // here, it starts from the address as it is now (currentParams).
  useEffect(() => {
    const now = currentParams();
    const next = new URLSearchParams(now);
    if (q) next.set('q', q);
    else next.delete('q');
    if (q !== (now.get('q') ?? '')) next.delete('page');
    if (next.toString() !== now.toString()) setParams(next, { replace: true });
  }, [q, params, setParams]);
  useEffect(() => {
    if (users.isError) notify.error(ADMIN.users.loadFailed);
  }, [users.isError]);

  const setParam = (key: string, value: string | null) => {
    const next = currentParams();
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: key !== 'page' });
  };
  const toggle = (f: string) => {
    const on = filtersIn(currentParams());
    setParam('filters', (on.includes(f) ? on.filter((x) => x !== f) : [...on, f]).join(','));
  };

  const viewAs = async (user: AdminUser) => {
    setViewing(true);
    try {
      const { user: target } = await startViewingAs(user.id);
      queryClient.clear();
      await refreshSession();
      notify.success({ title: IMPERSONATION.started.title, description: IMPERSONATION.started.description(target.email) });
      navigate('/dashboard');
    } catch (error) {
      notify.error({ title: 'Error', description: (error as Error).message });
      setViewing(false);
    }
  };

  const data = users.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <>
      <AdminPageHeader title={ADMIN.users.title} />
      <div className="flex flex-col gap-4 lg:flex-row lg:items-center">
        <label className="relative flex-1">
          <span className="sr-only">Search users</span>
          <Search className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-neutral-400" aria-hidden="true" />
          <Input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder={ADMIN.users.searchPlaceholder} className="pl-10" />
        </label>
        <div role="group" aria-label="Filters" className="flex flex-wrap gap-2">
          {FILTERS.map((f) => {
            const on = filters.includes(f);
            return (
              <button
                key={f}
                type="button"
                aria-pressed={on}
                onClick={() => toggle(f)}
                className={cn(
                  'rounded-full border px-4 py-2 text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500',
                  on ? 'border-red-500 bg-red-600 text-white' : 'border-neutral-700 text-neutral-200 hover:border-neutral-500',
                )}
              >
                {ADMIN.users.filters[f]}
              </button>
            );
          })}
        </div>
      </div>

      <section aria-labelledby="all-users" className="mt-8">
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <div>
            <h2 id="all-users" className="font-display text-2xl uppercase tracking-wide text-white">
              {ADMIN.users.listTitle} {data && <span className="text-neutral-400">({data.total.toLocaleString()})</span>}
            </h2>
            <p className="text-sm text-neutral-300">{ADMIN.users.listDescription}</p>
          </div>
          {users.isFetching && !users.isPending && <Spinner size="sm" />}
        </div>
        {users.isPending ? (
          <Spinner label={ADMIN.users.loading} />
        ) : !data?.users.length ? (
          <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{q || filters.length ? ADMIN.users.emptySearch : ADMIN.users.empty}</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {data.users.map((u) => (
              <UserCard key={u.id} user={u} actions={{ onViewAs: viewAs, onUploadStills: setStillsFor, onUploadVideo: setVideoFor, onErase: setEraseFor, viewingBusy: viewing }} />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3 text-sm text-neutral-300">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setParam('page', String(page - 1))}>
              Previous
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setParam('page', String(page + 1))}>
              Next
            </Button>
          </nav>
        )}
      </section>
      <StillsDialog user={stillsFor && { id: stillsFor.id, name: displayName(stillsFor) }} onClose={() => setStillsFor(null)} />
      <VideoUploadDialog user={videoFor && { id: videoFor.id, name: displayName(videoFor), requests: videoFor.requests }} onClose={() => setVideoFor(null)} />
      <EraseAccountDialog user={eraseFor && { id: eraseFor.id, name: displayName(eraseFor), email: eraseFor.email ?? '', family: eraseFor.family }} onClose={() => setEraseFor(null)} />
    </>
  );
}
