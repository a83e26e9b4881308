// The proposed clips on a timeline per game and camera, on the game's clock: each camera's
// footage is placed by its offset (footage/sync.ts), and every camera's row of a game spans the
// same stretch of that clock (the game's first to last filmed second, all its cameras counted),
// so the same moment seen by two cameras lines up across their rows; an axis under each game
// gives the times. Clips are coloured by the admin's decision; one jumps to its card.
import { REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import type { Review, ReviewFootage } from './api';
import { clock, span } from './format';

const COLOUR = { accepted: 'bg-green-500', rejected: 'bg-neutral-600', undecided: 'bg-yellow-400', manual: 'bg-sky-400' };

/** +3.4 s: a camera's offset, shown beside its name when it has one. */
const offsetLabel = (s: number) => `${s < 0 ? '−' : '+'}${Math.abs(s).toFixed(1)} s`;

export function Timeline({ review }: { review: Review }) {
  const gameLabel = (id: string) => review.games.find((g) => g.id === id)?.label ?? id;
  // Every camera of each game with clips, so the axis is the game's and not only its clips' cameras'.
  const gamesWithClips = new Set(review.clips.map((c) => c.gameId));
  const files = review.footage.filter((f) => f.durationSeconds && gamesWithClips.has(f.gameId));
  if (!files.length) return null;
  // Each game's clock runs from its earliest camera start to its latest camera end.
  const games = new Map<string, { id: string; from: number; to: number; files: ReviewFootage[] }>();
  for (const f of files) {
    const g = games.get(f.gameId) ?? { id: f.gameId, from: Infinity, to: -Infinity, files: [] };
    g.from = Math.min(g.from, f.syncOffsetS);
    g.to = Math.max(g.to, f.syncOffsetS + f.durationSeconds!);
    g.files.push(f);
    games.set(f.gameId, g);
  }
  const at = (g: { from: number; to: number }, s: number) => `${((s - g.from) / Math.max(0.1, g.to - g.from)) * 100}%`;
  return (
    <section aria-labelledby="timeline-title" className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-4">
      <h2 id="timeline-title" className="mb-1 font-semibold text-white">
        {REVIEW.timeline}
      </h2>
      <p className="mb-3 text-xs text-neutral-300">{REVIEW.gameClock}</p>
      <ul className="flex flex-col gap-3">
        {[...games.values()].flatMap((g) => [
          ...g.files.map((f) => (
            <li key={f.id} className="grid gap-1 sm:grid-cols-[14rem_1fr] sm:items-center">
              <span className="text-sm leading-tight text-neutral-200">
                <span className="font-semibold text-white">{f.camera}</span> · {gameLabel(f.gameId)}
                {f.syncOffsetS !== 0 && <span className="text-neutral-300"> · {offsetLabel(f.syncOffsetS)}</span>}
              </span>
              <div className="relative h-7 rounded bg-neutral-950" data-testid="timeline-row" data-from={g.from} data-to={g.to}>
                {/* The stretch of the game this camera filmed. */}
                <div className="absolute inset-y-0 rounded bg-neutral-800" style={{ left: at(g, f.syncOffsetS), width: `${(f.durationSeconds! / Math.max(0.1, g.to - g.from)) * 100}%` }} />
                {review.clips
                  .filter((c) => c.footageId === f.id)
                  .map((c) => {
                    const state = c.manual ? 'manual' : (c.decision ?? 'undecided');
                    const clockSpan = span(c.startS + f.syncOffsetS, c.endS + f.syncOffsetS);
                    return (
                      <a
                        key={c.id}
                        href={`#clip-${c.id}`}
                        className={cn('absolute top-1 h-5 min-w-[6px] rounded-sm focus:outline-2 focus:outline-offset-2 focus:outline-white', COLOUR[state])}
                        style={{ left: at(g, c.startS + f.syncOffsetS), width: `${((c.endS - c.startS) / Math.max(0.1, g.to - g.from)) * 100}%` }}
                        aria-label={`${f.camera} ${clockSpan}: ${c.decision === 'accepted' ? REVIEW.accepted : c.decision === 'rejected' ? REVIEW.rejected : REVIEW.undecided}`}
                        title={clockSpan}
                      />
                    );
                  })}
              </div>
            </li>
          )),
          // The game's clock under its rows: start, quarters and end.
          <li key={`${g.id}-axis`} className="grid gap-1 sm:grid-cols-[14rem_1fr]" aria-hidden="true">
            <span className="hidden sm:block" />
            <div className="relative h-4 text-[11px] leading-4 text-neutral-400" data-testid="timeline-axis">
              {[0, 0.25, 0.5, 0.75, 1].map((q) => (
                <span key={q} className="absolute top-0 whitespace-nowrap" style={{ left: `${q * 100}%`, transform: `translateX(-${q * 100}%)` }}>
                  {clock(g.from + q * (g.to - g.from))}
                </span>
              ))}
            </div>
          </li>,
        ])}
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
