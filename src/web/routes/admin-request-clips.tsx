// /admin/requests/:id: the clips proposed for a request, best first, with the face that was
// found, where and when, how sure the match is, and the unsure and look-alike marks. Part 2 of
// the reel builder turns this list into the review screen.
import { useParams } from 'react-router';
import { FOOTAGE } from '../../common/admin-messages';
import { AdminPageHeader } from '../features/admin/page-header';
import { useAdminEvents, useMatchAgain, useProposals } from '../features/footage/api';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

const time = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;

export default function AdminRequestClipsPage() {
  usePageTitle(PAGE_TITLES['/admin/requests']);
  const { id = '' } = useParams();
  const proposals = useProposals(id);
  const events = useAdminEvents();
  const again = useMatchAgain();
  const gameLabel = (gameId: string) => events.data?.flatMap((e) => e.games).find((g) => g.id === gameId)?.label ?? gameId;
  const data = proposals.data;
  return (
    <>
      <AdminPageHeader title={FOOTAGE.clipsTitle}>
        <Button variant="outline" disabled={again.isPending || data?.matchingState === 'matching'} onClick={() => again.mutate(id, { onError: (e) => notify.error({ title: FOOTAGE.actionFailed, description: e.message }) })}>
          {FOOTAGE.matchAgain}
        </Button>
      </AdminPageHeader>
      {proposals.isPending ? (
        <Spinner label={FOOTAGE.matching} />
      ) : proposals.isError ? (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{FOOTAGE.loadFailed}</p>
      ) : (
        <>
          <p className="mb-4 text-neutral-200" data-testid="matching-state">
            {data?.matchingState ? (FOOTAGE.matchStates[data.matchingState] ?? data.matchingState) : FOOTAGE.matching}
          </p>
          {data?.lookalike && <p className="mb-4 rounded-lg bg-yellow-950 p-3 text-sm text-yellow-100">{FOOTAGE.lookalikeWarning}</p>}
          {!data?.appearances.length ? (
            <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{FOOTAGE.noClips}</p>
          ) : (
            <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {data.appearances.map((a) => (
                <li key={a.id} className="flex gap-3 rounded-xl border border-neutral-800 bg-neutral-900/70 p-3" data-testid="clip">
                  {a.thumbnailUrl ? (
                    <img src={a.thumbnailUrl} alt={`Face found at ${time(a.startS)}`} width={96} height={96} className="h-24 w-24 shrink-0 rounded-lg object-cover" />
                  ) : (
                    <div className="h-24 w-24 shrink-0 rounded-lg bg-neutral-800" />
                  )}
                  <div className="min-w-0 text-sm">
                    <p className="font-semibold text-white">
                      #{a.rank} · {gameLabel(a.gameId)}
                    </p>
                    <p className="text-neutral-300">
                      {a.camera} · {time(a.startS)}–{time(a.endS)}
                    </p>
                    <p className="text-neutral-300">
                      {FOOTAGE.confidence} {Math.round(a.confidence * 100)}% · face {a.faceHeight}px
                    </p>
                    <p className="mt-1 flex gap-2">
                      {a.unsure && <span className="rounded bg-yellow-950 px-2 py-0.5 text-xs font-semibold text-yellow-100">{FOOTAGE.unsure}</span>}
                      {a.lookalike && <span className="rounded bg-orange-950 px-2 py-0.5 text-xs font-semibold text-orange-100">{FOOTAGE.lookalike}</span>}
                    </p>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </>
  );
}
