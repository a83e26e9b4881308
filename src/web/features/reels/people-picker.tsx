// "Who's who" on a clip: a frame of it with the people the index tracked there, each a button on
// the picture; the admin picks one and says "this is the athlete" or "not the athlete" (issue 35
// item 5). The server labels that track and those its evidence links to, and matches again. The
// admin can step through the frames of any indexed camera of the request's games: on a far camera
// nothing is found by number, and one click is how the athlete is found there.
import { useState } from 'react';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight, Users } from 'lucide-react';
import { FOOTAGE, REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { frameUrl, type Review, type ReviewClip, useLabelPerson, usePeopleAt } from './api';
import { clock, span } from './format';

/** The frame the admin looks at: a clip's file, at the first sample where the athlete was seen (samples are half a second apart). */
export interface PointingAt {
  footageId: string;
  t: number;
  reason: ReviewClip['reason'];
}

export const pointingAt = (clip: ReviewClip): PointingAt => ({ footageId: clip.footageId, t: Math.round((clip.seenStartS ?? clip.startS) * 2) / 2, reason: clip.reason });

/** The indexed files the admin can step through, each with a name that says its game and camera. */
const pointableFiles = (review: Review) =>
  review.footage.filter((f) => f.indexState === 'indexed' && f.durationSeconds).map((f) => ({ ...f, name: `${review.games.find((g) => g.id === f.gameId)?.label ?? ''} · ${f.camera}` }));

/** Opens the picker on the first indexed camera of the request's games, for a frame with no clip. */
export function FindAthleteButton({ review, onPointOut }: { review: Review; onPointOut: (at: PointingAt) => void }) {
  const first = pointableFiles(review)[0];
  if (!first) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-xl border border-neutral-800 bg-neutral-900/70 p-3">
      <Button size="sm" variant="outline" onClick={() => onPointOut({ footageId: first.id, t: 0, reason: null })}>
        <Users className="h-4 w-4" aria-hidden="true" />
        {REVIEW.people.find}
      </Button>
      <p className="min-w-0 flex-1 text-sm text-neutral-300">{REVIEW.people.findHelp}</p>
    </div>
  );
}

/** The button on a clip that opens the picker (the picker itself lives on the screen: matching again replaces the clips). */
export function PointOutButton({ clip, onPointOut }: { clip: ReviewClip; onPointOut: (at: PointingAt) => void }) {
  return (
    <Button size="sm" variant="ghost" onClick={() => onPointOut(pointingAt(clip))} aria-label={`${REVIEW.people.open} ${clip.camera} ${span(clip.startS, clip.endS)}`}>
      <Users className="h-4 w-4" aria-hidden="true" />
      {REVIEW.people.open}
    </Button>
  );
}

export function PeoplePicker({ review, at, onMove, onClose }: { review: Review; at: PointingAt | null; onMove: (at: PointingAt) => void; onClose: () => void }) {
  const requestId = review.request.id;
  const [picked, setPicked] = useState<string | null>(null);
  const files = pointableFiles(review);
  const file = files.find((f) => f.id === at?.footageId);
  // Half a second a step, as the index samples; never past the file's last sample.
  const move = (footageId: string, next: number) => {
    const duration = files.find((f) => f.id === footageId)?.durationSeconds ?? 0;
    setPicked(null);
    onMove({ footageId, t: Math.max(0, Math.min(Math.floor(duration * 2 - 1e-6) / 2, Math.round(next * 2) / 2)), reason: null });
  };
  const open = at !== null;
  const footageId = at?.footageId ?? '';
  const t = at?.t ?? 0;
  const people = usePeopleAt(requestId, footageId, t, open);
  const label = useLabelPerson(requestId);
  const data = people.data;
  const chosen = data?.people.find((p) => p.id === picked) ?? null;
  const save = (athlete: boolean) =>
    chosen &&
    label.mutate(
      { personId: chosen.id, athlete },
      {
        onSuccess: () => {
          notify.success({ title: REVIEW.people.labelled, description: FOOTAGE.matching });
          void people.refetch();
        },
        onError: (e) => notify.error({ title: REVIEW.failed, description: e.message }),
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        setPicked(null);
        onClose();
      }}
    >
      <DialogContent title={REVIEW.people.title} description={REVIEW.people.help} size="lg">
        <div className="flex flex-col gap-3">
          {file && (
            <div className="flex flex-wrap items-center gap-2" data-testid="frame-steps">
              <label className="flex items-center gap-2 text-sm text-neutral-200">
                {REVIEW.people.camera}
                <select
                  className="rounded-md border border-neutral-700 bg-neutral-950 px-2 py-1 text-sm text-white"
                  value={file.id}
                  onChange={(e) => move(e.target.value, t)}
                >
                  {files.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))}
                </select>
              </label>
              <span className="text-sm tabular-nums text-neutral-300" aria-live="polite">
                {REVIEW.people.at(clock(t))}
              </span>
              <div className="flex gap-1">
                {(
                  [
                    [-5, REVIEW.people.step.back5, ChevronsLeft],
                    [-0.5, REVIEW.people.step.back, ChevronLeft],
                    [0.5, REVIEW.people.step.forward, ChevronRight],
                    [5, REVIEW.people.step.forward5, ChevronsRight],
                  ] as const
                ).map(([by, name, Icon]) => (
                  <Button key={name} size="sm" variant="ghost" aria-label={name} title={name} onClick={() => move(file.id, t + by)}>
                    <Icon className="h-4 w-4" aria-hidden="true" />
                  </Button>
                ))}
              </div>
            </div>
          )}
          {!data ? (
            <p className="text-sm text-neutral-300">{REVIEW.people.loading}</p>
          ) : (
            <div className="flex flex-col gap-3" data-testid="people-picker">
              {/* On a phone the frame is shown twice as wide, scrolled sideways: far players stay big enough to tap. */}
              <div className="overflow-x-auto rounded-lg">
                <div className="relative min-w-[640px] bg-black sm:min-w-0">
                  <img src={frameUrl(requestId, footageId, t)} alt={REVIEW.people.frameAlt(span(t, t).split('–')[0]!)} className="block w-full" />
                  {data.width && data.height
                    ? data.people.map((person, i) => (
                        <button
                          key={person.id}
                          type="button"
                          aria-pressed={picked === person.id}
                          aria-label={REVIEW.people.person(i + 1, person.jerseyNumber, person.label)}
                          onClick={() => setPicked(person.id)}
                          className={cn(
                            'absolute rounded-sm border-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
                            picked === person.id ? 'border-yellow-400 bg-yellow-400/20' : person.label === 'athlete' ? 'border-green-500' : person.label === 'not' ? 'border-neutral-500 border-dashed' : 'border-sky-400/80 hover:bg-sky-400/10',
                          )}
                          style={{
                            left: `${(person.box.x / data.width!) * 100}%`,
                            top: `${(person.box.y / data.height!) * 100}%`,
                            width: `${(person.box.w / data.width!) * 100}%`,
                            height: `${(person.box.h / data.height!) * 100}%`,
                          }}
                          data-testid="person-box"
                        />
                      ))
                    : null}
                </div>
              </div>
              {!data.people.length ? (
                <p className="text-sm text-neutral-300">{REVIEW.people.none}</p>
              ) : !chosen ? (
                <p className="text-sm text-neutral-300">{REVIEW.people.pick}</p>
              ) : (
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm text-neutral-200">
                    {REVIEW.people.person(data.people.indexOf(chosen) + 1, chosen.jerseyNumber, null)}
                    {chosen.label && <> · {REVIEW.people.marked[chosen.label]}</>}
                  </span>
                  <Button size="sm" disabled={label.isPending} onClick={() => save(true)}>
                    {REVIEW.people.isAthlete}
                  </Button>
                  <Button size="sm" variant="outline" disabled={label.isPending} onClick={() => save(false)}>
                    {REVIEW.people.notAthlete}
                  </Button>
                </div>
              )}
              {at?.reason && <p className="text-xs text-neutral-400">{FOOTAGE.reasons[at.reason]}</p>}
            </div>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
