// The proposed clips on a timeline per game and camera: where in each file the athlete was
// found, coloured by the admin's decision. A clip on the timeline jumps to its card.
import { REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import type { Review } from './api';
import { span } from './format';

const COLOUR = { accepted: 'bg-green-500', rejected: 'bg-neutral-600', undecided: 'bg-yellow-400', manual: 'bg-sky-400' };

export function Timeline({ review }: { review: Review }) {
  const gameLabel = (id: string) => review.games.find((g) => g.id === id)?.label ?? id;
  const files = review.footage.filter((f) => f.durationSeconds && review.clips.some((c) => c.footageId === f.id));
  if (!files.length) return null;
  return (
    <section aria-labelledby="timeline-title" className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-4">
      <h2 id="timeline-title" className="mb-3 font-semibold text-white">
        {REVIEW.timeline}
      </h2>
      <ul className="flex flex-col gap-3">
        {files.map((f) => (
          <li key={f.id} className="grid gap-1 sm:grid-cols-[12rem_1fr] sm:items-center">
            <span className="text-sm leading-tight text-neutral-200">
              <span className="font-semibold text-white">{f.camera}</span> · {gameLabel(f.gameId)}
            </span>
            <div className="relative h-7 rounded bg-neutral-800" data-testid="timeline-row">
              {review.clips
                .filter((c) => c.footageId === f.id)
                .map((c) => {
                  const state = c.manual ? 'manual' : (c.decision ?? 'undecided');
                  return (
                    <a
                      key={c.id}
                      href={`#clip-${c.id}`}
                      className={cn('absolute top-1 h-5 min-w-[6px] rounded-sm focus:outline-2 focus:outline-offset-2 focus:outline-white', COLOUR[state])}
                      style={{ left: `${(c.startS / f.durationSeconds!) * 100}%`, width: `${((c.endS - c.startS) / f.durationSeconds!) * 100}%` }}
                      aria-label={`${f.camera} ${span(c.startS, c.endS)}: ${c.decision === 'accepted' ? REVIEW.accepted : c.decision === 'rejected' ? REVIEW.rejected : REVIEW.undecided}`}
                      title={span(c.startS, c.endS)}
                    />
                  );
                })}
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-3 flex flex-wrap gap-4 text-xs text-neutral-300">
        <span><span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-yellow-400" />{REVIEW.undecided}</span>
        <span><span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-green-500" />{REVIEW.accepted}</span>
        <span><span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-neutral-600" />{REVIEW.rejected}</span>
        <span><span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-sky-400" />{REVIEW.handAdded}</span>
      </p>
    </section>
  );
}
