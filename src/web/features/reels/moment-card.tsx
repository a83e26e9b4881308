// One moment of the game: the same stretch seen by one or more cameras, side by side, the angle
// with the largest face preselected. Each angle plays in place and is accepted or rejected.
import { useState } from 'react';
import { Check, Play, Undo2, X } from 'lucide-react';
import { FOOTAGE, REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { type Moment, type Review, type ReviewClip, useDecide } from './api';
import { ClipPlayer } from './clip-player';
import { PointOutButton, type PointingAt } from './people-picker';
import { span } from './format';

export function MomentCard({ review, moment, onPointOut }: { review: Review; moment: Moment; onPointOut: (at: PointingAt) => void }) {
  const decide = useDecide(review.request.id);
  const [playing, setPlaying] = useState<string | null>(null);
  const angles = moment.appearanceIds.map((id) => review.clips.find((c) => c.id === id)).filter((c): c is ReviewClip => Boolean(c));
  const gameLabel = review.games.find((g) => g.id === moment.gameId)?.label ?? moment.gameId;
  const set = (clip: ReviewClip, decision: ReviewClip['decision']) =>
    decide.mutate({ clipId: clip.id, decision }, { onError: (e) => notify.error({ title: REVIEW.failed, description: e.message }) });

  return (
    <li className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-3" data-testid="moment">
      <p className="mb-2 text-sm font-semibold text-white">
        {gameLabel} · <span title={REVIEW.gameClock}>{span(moment.startS, moment.endS)}</span> · <span className="font-normal text-neutral-300">{REVIEW.angles(angles.length)}</span>
      </p>
      <div className={cn('grid gap-3', angles.length > 1 && 'sm:grid-cols-2')}>
        {angles.map((clip) => {
          const file = review.footage.find((f) => f.id === clip.footageId);
          // The angle on the game's clock, like the moment; the player plays the file's own times.
          const offset = file?.syncOffsetS ?? 0;
          const preferred = clip.id === moment.preferredId && angles.length > 1;
          return (
            <div
              key={clip.id}
              id={`clip-${clip.id}`}
              className={cn(
                'flex flex-col gap-2 rounded-lg border p-2',
                clip.decision === 'accepted' ? 'border-green-600 bg-green-950/30' : clip.decision === 'rejected' ? 'border-neutral-800 opacity-70' : preferred ? 'border-yellow-500' : 'border-neutral-800',
              )}
              data-testid="angle"
            >
              {playing === clip.id && file && <ClipPlayer streamUrl={file.streamUrl} startS={clip.startS} endS={clip.endS} label={`${clip.camera} ${span(clip.startS, clip.endS)}`} />}
              <div className="flex items-center gap-3">
                {playing !== clip.id && (
                  <button
                    type="button"
                    className="relative shrink-0 rounded-lg focus:outline-2 focus:outline-offset-2 focus:outline-white"
                    onClick={() => setPlaying(clip.id)}
                    aria-label={`${REVIEW.play} ${clip.camera} ${span(clip.startS, clip.endS)}`}
                  >
                    {clip.thumbnailUrl ? <img src={clip.thumbnailUrl} alt="" width={80} height={80} className="h-20 w-20 rounded-lg object-cover" /> : <span className="block h-20 w-20 rounded-lg bg-neutral-800" />}
                    <span className="absolute left-7 top-7 rounded-full bg-black/70 p-1.5 text-white">
                      <Play className="h-4 w-4" aria-hidden="true" />
                    </span>
                  </button>
                )}
                <p className="min-w-0 text-sm">
                  <span className="block font-semibold text-white">{clip.camera}</span>
                  <span className="block text-neutral-300">{span(clip.startS + offset, clip.endS + offset)}</span>
                  {offset !== 0 && <span className="block text-xs text-neutral-400">{REVIEW.inFile(span(clip.startS, clip.endS))}</span>}
                  <span className="block text-neutral-300">
                    {FOOTAGE.confidence} {Math.round(clip.confidence * 100)}%{clip.faceHeight > 0 && <> · {REVIEW.faceSize(clip.faceHeight)}</>}
                    {!clip.manual && clip.faceHeight > 0 && <> · {REVIEW.distance(clip.distance)}</>}
                  </span>
                  {clip.seenStartS !== null && clip.seenEndS !== null && clip.samples !== null && (
                    <span className="block text-xs text-neutral-400" data-testid="seen">
                      {(clip.athlete.of === 'person' ? REVIEW.tracked : REVIEW.seen)(span(clip.seenStartS + offset, clip.seenEndS + offset), clip.samples)}
                    </span>
                  )}
                </p>
              </div>
              <p className="flex flex-wrap gap-1.5">
                {preferred && <span className="rounded bg-yellow-500 px-2 py-0.5 text-xs font-semibold text-neutral-950">{REVIEW.largestFace}</span>}
                {clip.unsure && <span className="rounded bg-yellow-950 px-2 py-0.5 text-xs font-semibold text-yellow-100">{FOOTAGE.unsure}</span>}
                {clip.lookalike && <span className="rounded bg-orange-950 px-2 py-0.5 text-xs font-semibold text-orange-100">{FOOTAGE.lookalike}</span>}
                {clip.jersey && (
                  <span
                    className={cn(
                      'rounded px-2 py-0.5 text-xs font-semibold',
                      clip.jersey.athletes === true ? 'bg-green-950 text-green-100' : clip.jersey.athletes === false ? 'bg-yellow-950 text-yellow-100' : 'bg-neutral-800 text-neutral-100',
                    )}
                    data-testid="jersey"
                  >
                    {clip.jersey.athletes === false ? FOOTAGE.jerseyOther(clip.jersey.number) : FOOTAGE.jerseyOwn(clip.jersey.number)}
                  </span>
                )}
                {clip.reason && FOOTAGE.reasons[clip.reason] && (
                  <span className="basis-full text-xs text-neutral-300" data-testid="reason">
                    {FOOTAGE.reasons[clip.reason]}
                  </span>
                )}
                {clip.decision && (
                  <span className={cn('rounded px-2 py-0.5 text-xs font-semibold', clip.decision === 'accepted' ? 'bg-green-900 text-green-100' : 'bg-neutral-800 text-neutral-200')} data-testid="decision">
                    {clip.decision === 'accepted' ? REVIEW.accepted : REVIEW.rejected}
                  </span>
                )}
              </p>
              <div className="flex flex-wrap gap-2">
                {clip.decision === null ? (
                  <>
                    <Button size="sm" variant={preferred || angles.length === 1 ? 'primary' : 'outline'} onClick={() => set(clip, 'accepted')} aria-label={`${REVIEW.accept} ${clip.camera} ${span(clip.startS, clip.endS)}`}>
                      <Check className="h-4 w-4" aria-hidden="true" />
                      {REVIEW.accept}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => set(clip, 'rejected')} aria-label={`${REVIEW.reject} ${clip.camera} ${span(clip.startS, clip.endS)}`}>
                      <X className="h-4 w-4" aria-hidden="true" />
                      {REVIEW.reject}
                    </Button>
                  </>
                ) : (
                  <Button size="sm" variant="ghost" onClick={() => set(clip, null)} aria-label={`${REVIEW.undo} ${clip.camera} ${span(clip.startS, clip.endS)}`}>
                    <Undo2 className="h-4 w-4" aria-hidden="true" />
                    {REVIEW.undo}
                  </Button>
                )}
                {playing === clip.id && (
                  <Button size="sm" variant="ghost" onClick={() => setPlaying(null)}>
                    {REVIEW.closePlayer}
                  </Button>
                )}
                <PointOutButton clip={clip} onPointOut={onPointOut} />
              </div>
            </div>
          );
        })}
      </div>
    </li>
  );
}
