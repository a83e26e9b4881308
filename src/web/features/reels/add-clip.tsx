// A clip the face search missed, added by hand from any footage of the request's event.
import { useState } from 'react';
import { REVIEW } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input, NativeSelect } from '../../ui/form-controls';
import { type Review, useAddClip } from './api';

export function AddClip({ review }: { review: Review }) {
  const add = useAddClip(review.request.id);
  const files = review.footage.filter((f) => f.durationSeconds);
  const [footageId, setFootageId] = useState(files[0]?.id ?? '');
  const [start, setStart] = useState('0');
  const [end, setEnd] = useState('5');
  const [error, setError] = useState<string | undefined>();
  const gameLabel = (id: string) => review.games.find((g) => g.id === id)?.label ?? id;
  // An error is about the span that was sent: it goes as soon as the admin changes it.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(undefined);
  };
  if (!files.length) return null;
  const chosen = files.find((f) => f.id === footageId);
  return (
    <section aria-labelledby="add-title" className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-4">
      <h2 id="add-title" className="mb-3 font-semibold text-white">
        {REVIEW.addTitle}
      </h2>
      <form
        className="grid grid-cols-2 items-end gap-3 sm:grid-cols-[1fr_1fr_auto]"
        onSubmit={(e) => {
          e.preventDefault();
          if (add.isPending) return;
          setError(undefined);
          add.mutate(
            { footageId, startS: Number(start), endS: Number(end) },
            {
              // Says at once whether the athlete's face was found in the clip, or is being looked for.
              onSuccess: (added) => notify.success({ title: REVIEW.added, description: added.faceSearch ? REVIEW.faceSearch[added.faceSearch]! : '' }),
              onError: (err) => setError(err.message),
            },
          );
        }}
      >
        <Field label={REVIEW.addFootage} className="col-span-2 sm:col-span-3">
          <NativeSelect value={footageId} onChange={(e) => edit(setFootageId)(e.target.value)}>
            {files.map((f) => (
              <option key={f.id} value={f.id}>
                {gameLabel(f.gameId)} · {f.camera} ({Math.round(f.durationSeconds!)} s)
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={REVIEW.start}>
          <Input type="number" inputMode="decimal" step={0.1} min={0} max={chosen?.durationSeconds ?? undefined} value={start} onChange={(e) => edit(setStart)(e.target.value)} />
        </Field>
        <Field label={REVIEW.end}>
          <Input type="number" inputMode="decimal" step={0.1} min={0} max={chosen?.durationSeconds ?? undefined} value={end} onChange={(e) => edit(setEnd)(e.target.value)} />
        </Field>
        {/* Not disabled while it saves: a disabled button would drop the keyboard's focus. */}
        <Button type="submit" variant="outline" className="col-span-2 aria-disabled:opacity-50 sm:col-span-1" aria-disabled={add.isPending}>
          {REVIEW.addClip}
        </Button>
        {error && (
          <p role="alert" className="col-span-2 text-sm text-red-400 sm:col-span-3">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
