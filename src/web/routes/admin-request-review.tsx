// /admin/requests/:id: the review screen of a request (reel builder part 2). The proposed clips
// on a timeline per game and camera; each moment with its camera angles side by side; the reel
// being built (order, trims, hand-added clips); Render with live progress. Everything is saved
// on the server as the admin works, so a reload or a second admin sees the same.
import { useState } from 'react';
import { useParams } from 'react-router';
import { FOOTAGE, REVIEW } from '../../common/admin-messages';
import { AdminPageHeader } from '../features/admin/page-header';
import { useMatchAgain } from '../features/footage/api';
import { AddClip } from '../features/reels/add-clip';
import { useReview } from '../features/reels/api';
import { MatchingState } from '../features/reels/matching-state';
import { MomentCard } from '../features/reels/moment-card';
import { FindAthleteButton, PeoplePicker, type PointingAt } from '../features/reels/people-picker';
import { ReelOrder, SkipToTrims } from '../features/reels/reel-order';
import { RenderPanel } from '../features/reels/render-panel';
import { ReviewStatus } from '../features/reels/review-status';
import { RosterLinkPanel } from '../features/reels/roster-link';
import { Timeline } from '../features/reels/timeline';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

export default function AdminRequestReviewPage() {
  usePageTitle(PAGE_TITLES['/admin/requests']);
  const { id = '' } = useParams();
  const review = useReview(id);
  const again = useMatchAgain();
  // Who's who on a frame: kept here, as matching again replaces the clips the picker opened from.
  const [pointing, setPointing] = useState<PointingAt | null>(null);
  const data = review.data;
  const athlete = data ? [data.athlete.name, data.athlete.jerseyNumber !== null ? `#${data.athlete.jerseyNumber}` : '', data.athlete.teamName ?? ''].filter(Boolean).join(' · ') : '';

  return (
    <>
      <AdminPageHeader title={REVIEW.title}>
        <div className="flex flex-wrap items-center gap-3">
          {data && <ReviewStatus review={data} />}
          <Button variant="outline" disabled={again.isPending || data?.request.matchingState === 'matching'} onClick={() => again.mutate(id, { onError: (e) => notify.error({ title: FOOTAGE.actionFailed, description: e.message }) })}>
            {FOOTAGE.matchAgain}
          </Button>
        </div>
      </AdminPageHeader>
      {review.isPending ? (
        <Spinner label={FOOTAGE.matching} />
      ) : review.isError || !data ? (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{FOOTAGE.loadFailed}</p>
      ) : (
        <div className="flex flex-col gap-4">
          <SkipToTrims />
          <div className="text-neutral-200">
            <p className="font-semibold text-white">{athlete}</p>
            <p className="text-sm">{data.request.event}</p>
            <MatchingState state={data.request.matchingState} unsearched={data.request.unsearched} />
          </div>
          {data.request.roster && <RosterLinkPanel requestId={data.request.id} link={data.request.roster} />}
          {data.request.lookalike && <p className="rounded-lg bg-yellow-950 p-3 text-sm text-yellow-100">{FOOTAGE.lookalikeWarning}</p>}
          {data.request.nothingFound && (
            <p role="status" className="rounded-lg bg-yellow-950 p-3 text-sm text-yellow-100" data-testid="nothing-found">
              {FOOTAGE.nothingFoundWarning}
            </p>
          )}
          <FindAthleteButton review={data} onPointOut={setPointing} />
          <Timeline review={data} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
            <section aria-labelledby="moments-title" className="flex flex-col gap-3">
              <h2 id="moments-title" className="font-semibold text-white">
                {REVIEW.moments} <span className="font-normal text-neutral-300">({data.moments.length})</span>
              </h2>
              {!data.moments.length ? (
                <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">
                  {data.request.matchingState === 'matching' ? FOOTAGE.matching : REVIEW.noMoments}
                </p>
              ) : (
                <ol className="flex flex-col gap-3">
                  {data.moments.map((m) => (
                    <MomentCard key={m.appearanceIds.join()} review={data} moment={m} onPointOut={setPointing} />
                  ))}
                </ol>
              )}
            </section>
            <div className="flex flex-col gap-4 lg:sticky lg:top-4">
              <ReelOrder review={data} onPointOut={setPointing} />
              <RenderPanel review={data} />
              <AddClip review={data} />
            </div>
          </div>
          <PeoplePicker review={data} at={pointing} onMove={setPointing} onClose={() => setPointing(null)} />
        </div>
      )}
    </>
  );
}
