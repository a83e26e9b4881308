// The reel as it will be cut: the accepted clips in order. Reorder by dragging, or with the
// Move up / Move down buttons from the keyboard; trim each clip's start and end in tenths of a
// second; take a clip out. Every change is saved at once. From the keyboard each clip is its trim
// fields, Save and one toolbar (arrow keys inside), and focus stays on the control used when the
// list is drawn again after a save or a move.
import { useEffect, useRef, useState } from 'react';
import { ArrowDown, ArrowUp, GripVertical, LoaderCircle, Play, ScanFace, Trash2, TriangleAlert, Users } from 'lucide-react';
import { outputDuration } from '../../../common/reel-format';
import { REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Input } from '../../ui/form-controls';
import { type Review, type ReviewClip, useDecide, useReorder, useTrim } from './api';
import { ClipPlayer } from './clip-player';
import { span } from './format';
import { RovingToolbar } from './roving-toolbar';
import { pointingAt, type PointingAt } from './people-picker';

/** A control of a clip, found again after the list is redrawn: `${clipId}:${control}`. */
type FocusKey = string;

/**
 * Focus back on the control that was used once the list is drawn again (a trim remounts its form,
 * a move reorders the cards), unless the admin has moved on to something else meanwhile.
 */
function useFocusReturn() {
  const root = useRef<HTMLElement>(null);
  const wanted = useRef<{ key: FocusKey; until: number } | null>(null);
  useEffect(() => {
    const w = wanted.current;
    if (!w || Date.now() > w.until) return;
    const lost = !document.activeElement || document.activeElement === document.body;
    const target = root.current?.querySelector<HTMLElement>(`[data-focus-key="${w.key}"]`);
    if (target && lost) target.focus();
  });
  return { root, remember: (key: FocusKey) => (wanted.current = { key, until: Date.now() + 10_000 }) };
}

/** Says it cannot be used without leaving the tab order (a disabled button would drop focus). */
const unavailable = 'aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

/** The link past the moments to the first clip's start field. */
export function SkipToTrims() {
  return (
    <a
      href="#reel-title"
      className="sr-only rounded-md bg-white px-3 py-2 text-sm font-semibold text-neutral-950 focus:not-sr-only focus:self-start"
      onClick={(e) => {
        const start = document.querySelector<HTMLElement>('[data-focus-key$=":start"]') ?? document.getElementById('reel-title');
        if (!start) return;
        e.preventDefault();
        if (start.id === 'reel-title') start.tabIndex = -1;
        start.focus();
      }}
    >
      {REVIEW.skipToTrims}
    </a>
  );
}

function TrimEditor({ review, clip, remember }: { review: Review; clip: ReviewClip; remember: (key: FocusKey) => void }) {
  const trim = useTrim(review.request.id);
  const [start, setStart] = useState(String(clip.startS));
  const [end, setEnd] = useState(String(clip.endS));
  const [error, setError] = useState<string | null>(null);
  const duration = review.footage.find((f) => f.id === clip.footageId)?.durationSeconds ?? undefined;
  const changed = Number(start) !== clip.startS || Number(end) !== clip.endS;
  // An error is about the span that was sent: it goes as soon as the admin changes it.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(null);
  };
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!changed || trim.isPending) return;
        setError(null);
        remember(`${clip.id}:save`);
        trim.mutate(
          { clipId: clip.id, startS: Number(start), endS: Number(end) },
          {
            onSuccess: (saved) => {
              setStart(String(saved.startS));
              setEnd(String(saved.endS));
              notify.success({ title: REVIEW.trimmed, description: span(saved.startS, saved.endS) });
            },
            onError: (err) => setError(err.message),
          },
        );
      }}
    >
      <label className="flex flex-col gap-1 text-xs text-neutral-300">
        {REVIEW.start}
        <Input type="number" inputMode="decimal" step={0.1} min={0} max={duration} value={start} onChange={(e) => edit(setStart)(e.target.value)} className="h-9 w-24" data-focus-key={`${clip.id}:start`} />
      </label>
      <label className="flex flex-col gap-1 text-xs text-neutral-300">
        {REVIEW.end}
        <Input type="number" inputMode="decimal" step={0.1} min={0} max={duration} value={end} onChange={(e) => edit(setEnd)(e.target.value)} className="h-9 w-24" data-focus-key={`${clip.id}:end`} />
      </label>
      <Button size="sm" variant="outline" type="submit" aria-disabled={!changed || trim.isPending} className={unavailable} data-focus-key={`${clip.id}:save`}>
        {REVIEW.saveTrim}
      </Button>
      {error && (
        <p role="alert" className="w-full text-sm text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}

/** Where the search for the athlete's face in a hand-added clip stands, in plain words. */
function FaceSearchNote({ state }: { state: NonNullable<ReviewClip['faceSearch']> }) {
  const Icon = state === 'looking' ? LoaderCircle : state === 'found' ? ScanFace : TriangleAlert;
  return (
    <p
      className={cn('flex items-start gap-2 rounded-md px-2 py-1.5 text-sm', state === 'none' ? 'bg-yellow-950 text-yellow-100' : 'text-neutral-300')}
      data-testid="face-search"
      aria-live="polite"
    >
      <Icon className={cn('mt-0.5 h-4 w-4 shrink-0', state === 'looking' && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" />
      <span>{REVIEW.faceSearch[state]}</span>
    </p>
  );
}

export function ReelOrder({ review, onPointOut }: { review: Review; onPointOut: (at: PointingAt) => void }) {
  const reorder = useReorder(review.request.id);
  const decide = useDecide(review.request.id);
  const [dragging, setDragging] = useState<string | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const { root, remember } = useFocusReturn();
  const clips = review.clips.filter((c) => c.decision === 'accepted').sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const gameLabel = (id: string) => review.games.find((g) => g.id === id)?.label ?? id;
  const failed = (e: Error) => notify.error({ title: REVIEW.failed, description: e.message });
  const move = (from: number, to: number) => {
    if (to < 0 || to >= clips.length || from === to) return;
    const ids = clips.map((c) => c.id);
    const [id] = ids.splice(from, 1);
    ids.splice(to, 0, id!);
    reorder.mutate(ids, { onError: failed });
  };
  const length = outputDuration('reel', clips.map((c) => c.endS - c.startS));

  return (
    <section ref={root} aria-labelledby="reel-title" className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-4">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="reel-title" className="font-semibold text-white">
          {REVIEW.reel} <span className="font-normal text-neutral-300">({clips.length})</span>
        </h2>
        {clips.length > 0 && <p className="text-sm text-neutral-300">{REVIEW.reelLength(length)}</p>}
      </div>
      {!clips.length ? (
        <p className="text-sm text-neutral-300">{REVIEW.reelEmpty}</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {clips.map((clip, i) => {
            const file = review.footage.find((f) => f.id === clip.footageId);
            return (
              <li
                key={clip.id}
                draggable
                onDragStart={(e) => {
                  setDragging(clip.id);
                  e.dataTransfer.effectAllowed = 'move';
                }}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragging) move(clips.findIndex((c) => c.id === dragging), i);
                  setDragging(null);
                }}
                onDragEnd={() => setDragging(null)}
                className={cn('flex flex-col gap-2 rounded-lg bg-neutral-950/60 p-2', dragging === clip.id && 'opacity-50')}
                data-testid="reel-clip"
              >
                <div className="flex items-center gap-2">
                  <GripVertical className="h-5 w-5 shrink-0 cursor-grab text-neutral-400" aria-hidden="true" />
                  <span className="w-6 shrink-0 text-center font-semibold text-white">{i + 1}</span>
                  {clip.thumbnailUrl ? <img src={clip.thumbnailUrl} alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded object-cover" /> : <span className="h-12 w-12 shrink-0 rounded bg-neutral-800" />}
                  <div className="min-w-0 flex-1 text-sm">
                    <p className="font-semibold leading-tight text-white">
                      {clip.camera} <span className="font-normal text-neutral-300">· {gameLabel(clip.gameId)}</span>
                    </p>
                    <p className="text-neutral-300">
                      {span(clip.startS, clip.endS)} · {(clip.endS - clip.startS).toFixed(1)} s{clip.manual ? ` · ${REVIEW.handAdded}` : ''}
                    </p>
                  </div>
                </div>
                {clip.manual && clip.faceSearch && <FaceSearchNote state={clip.faceSearch} />}
                {playing === clip.id && file && <ClipPlayer streamUrl={file.streamUrl} startS={clip.startS} endS={clip.endS} label={`${clip.camera} ${span(clip.startS, clip.endS)}`} />}
                <div className="flex flex-wrap items-end justify-between gap-2">
                  <TrimEditor key={`${clip.startS}-${clip.endS}`} review={review} clip={clip} remember={remember} />
                  <RovingToolbar label={REVIEW.clipActions(i + 1)} className="flex">
                    <Button size="icon" variant="ghost" onClick={() => setPlaying(playing === clip.id ? null : clip.id)} aria-label={`${REVIEW.play} ${i + 1}`} data-focus-key={`${clip.id}:play`}>
                      <Play className="h-4 w-4" aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-disabled={i === 0}
                      className={unavailable}
                      onClick={() => {
                        if (i === 0) return;
                        remember(`${clip.id}:up`);
                        move(i, i - 1);
                      }}
                      aria-label={`${REVIEW.moveUp} ${i + 1}`}
                      data-focus-key={`${clip.id}:up`}
                    >
                      <ArrowUp className="h-4 w-4" aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-disabled={i === clips.length - 1}
                      className={unavailable}
                      onClick={() => {
                        if (i === clips.length - 1) return;
                        remember(`${clip.id}:down`);
                        move(i, i + 1);
                      }}
                      aria-label={`${REVIEW.moveDown} ${i + 1}`}
                      data-focus-key={`${clip.id}:down`}
                    >
                      <ArrowDown className="h-4 w-4" aria-hidden="true" />
                    </Button>
                    <Button size="icon" variant="ghost" onClick={() => onPointOut(pointingAt(clip))} aria-label={`${REVIEW.people.open} ${i + 1}`} data-focus-key={`${clip.id}:people`}>
                      <Users className="h-4 w-4" aria-hidden="true" />
                    </Button>
                    <Button size="icon" variant="ghost" onClick={() => decide.mutate({ clipId: clip.id, decision: null }, { onError: failed })} aria-label={`${REVIEW.remove} ${i + 1}`}>
                      <Trash2 className="h-4 w-4" aria-hidden="true" />
                    </Button>
                  </RovingToolbar>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
