// An event's name, place and days (dates as dates: the families' text is written from them),
// for a new event and for editing one.
import { useState, type ComponentProps } from 'react';
import { FOOTAGE } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input, NativeSelect } from '../../ui/form-controls';
import { type AdminEvent, type EventFields, useCreateEvent, useUpdateEvent } from './api';

export function ReelSourceSelect(props: ComponentProps<typeof NativeSelect>) {
  return (
    <NativeSelect {...props}>
      <option value="footage">{FOOTAGE.reelSources.footage}</option>
      <option value="hand">{FOOTAGE.reelSources.hand}</option>
    </NativeSelect>
  );
}

/** A new event (no `event`), or the given one's details; `onDone` with its id once saved. */
export function EventForm({ event, onDone, onCancel }: { event?: AdminEvent; onDone: (id: string) => void; onCancel: () => void }) {
  const create = useCreateEvent();
  const update = useUpdateEvent();
  const [startsOn, setStartsOn] = useState(event?.startsOn ?? '');
  const [error, setError] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;
  return (
    <form
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_10rem_10rem_12rem_auto] lg:items-end"
      aria-label={event ? FOOTAGE.editEvent : FOOTAGE.newEvent}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const fields: EventFields = {
          name: String(data.get('name') ?? ''),
          location: String(data.get('location') ?? ''),
          startsOn: String(data.get('startsOn') ?? ''),
          endsOn: String(data.get('endsOn') ?? '') || null,
          reelSource: data.get('reelSource') === 'hand' ? 'hand' : 'footage',
        };
        if (fields.endsOn && fields.endsOn < fields.startsOn) return setError(FOOTAGE.lastDayBeforeFirst);
        const done = {
          onSuccess: (result: unknown) => {
            notify.success({ title: event ? FOOTAGE.saved : FOOTAGE.eventCreated, description: '' });
            onDone(event?.id ?? (result as { id: string }).id);
          },
          onError: (e: Error) => setError(e.message),
        };
        if (event) update.mutate({ id: event.id, name: fields.name, location: fields.location, startsOn: fields.startsOn, endsOn: fields.endsOn }, done);
        else create.mutate(fields, done);
      }}
    >
      <Field label={FOOTAGE.eventName}>
        <Input name="name" required maxLength={120} defaultValue={event?.name} />
      </Field>
      <Field label={FOOTAGE.location}>
        <Input name="location" required maxLength={120} defaultValue={event?.location} />
      </Field>
      <Field label={FOOTAGE.firstDay}>
        <Input name="startsOn" type="date" required value={startsOn} onChange={(e) => (setStartsOn(e.target.value), setError(null))} />
      </Field>
      <Field label={FOOTAGE.lastDay} optional>
        <Input name="endsOn" type="date" min={startsOn || undefined} defaultValue={event?.endsOn ?? ''} onChange={() => setError(null)} />
      </Field>
      {event ? (
        <span className="hidden lg:block" />
      ) : (
        <Field label={FOOTAGE.reelSource}>
          <ReelSourceSelect name="reelSource" defaultValue="footage" />
        </Field>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={saving}>
          {event ? FOOTAGE.save : FOOTAGE.createEvent}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {FOOTAGE.cancel}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-400 sm:col-span-2 lg:col-span-6">
          {error}
        </p>
      )}
    </form>
  );
}
