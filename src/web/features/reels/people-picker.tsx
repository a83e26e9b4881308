// "Who's who" on a clip: a frame of it with the people the index tracked there, each a button on
// the picture; the admin picks one and says "this is the athlete" or "not the athlete" (issue 35
// item 5). The server labels that track and those its evidence links to, and matches again.
import { useState } from 'react';
import { Users } from 'lucide-react';
import { FOOTAGE, REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { frameUrl, type ReviewClip, useLabelPerson, usePeopleAt } from './api';
import { span } from './format';

/** The frame the admin looks at: a clip's file, at the first sample where the athlete was seen (samples are half a second apart). */
export interface PointingAt {
  footageId: string;
  t: number;
  reason: ReviewClip['reason'];
}

export const pointingAt = (clip: ReviewClip): PointingAt => ({ footageId: clip.footageId, t: Math.round((clip.seenStartS ?? clip.startS) * 2) / 2, reason: clip.reason });

/** The button on a clip that opens the picker (the picker itself lives on the screen: matching again replaces the clips). */
export function PointOutButton({ clip, onPointOut }: { clip: ReviewClip; onPointOut: (at: PointingAt) => void }) {
  return (
    <Button size="sm" variant="ghost" onClick={() => onPointOut(pointingAt(clip))} aria-label={`${REVIEW.people.open} ${clip.camera} ${span(clip.startS, clip.endS)}`}>
      <Users className="h-4 w-4" aria-hidden="true" />
      {REVIEW.people.open}
    </Button>
  );
}

export function PeoplePicker({ requestId, at, onClose }: { requestId: string; at: PointingAt | null; onClose: () => void }) {
  const [picked, setPicked] = useState<string | null>(null);
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
        {!data ? (
          <p className="text-sm text-neutral-300">{REVIEW.people.loading}</p>
        ) : (
          <div className="flex flex-col gap-3" data-testid="people-picker">
            <div className="relative overflow-hidden rounded-lg bg-black">
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
      </DialogContent>
    </Dialog>
  );
}
