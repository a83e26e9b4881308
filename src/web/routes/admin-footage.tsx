// /admin/footage: events and their games, and each game's footage by camera, uploaded
// resumably and indexed for faces with live progress.
import { useEffect, useState, type ComponentProps } from 'react';
import { FOOTAGE } from '../../common/admin-messages';
import { AdminPageHeader } from '../features/admin/page-header';
import { useAddGame, useAdminEvents, useCreateEvent, useEventFootage, useUpdateEvent, useUpdateGame, type AdminEvent } from '../features/footage/api';
import { FootageList } from '../features/footage/footage-list';
import { FootageUpload } from '../features/footage/footage-upload';
import { RosterCard } from '../features/footage/rosters';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Card, CardTitle } from '../ui/card';
import { Field, Input, NativeSelect } from '../ui/form-controls';
import { Spinner } from '../ui/spinner';

function NewEventForm({ onCreated }: { onCreated: (id: string) => void }) {
  const create = useCreateEvent();
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        {FOOTAGE.newEvent}
      </Button>
    );
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_1fr_10rem] lg:grid-cols-[1fr_1fr_10rem_12rem_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        create.mutate(
          {
            name: String(data.get('name') ?? ''),
            location: String(data.get('location') ?? ''),
            dates: String(data.get('dates') ?? ''),
            reelSource: data.get('reelSource') === 'hand' ? 'hand' : 'footage',
          },
          {
            onSuccess: ({ id }) => {
              notify.success({ title: FOOTAGE.eventCreated, description: '' });
              setOpen(false);
              onCreated(id);
            },
            onError: (error) => notify.error({ title: FOOTAGE.actionFailed, description: error.message }),
          },
        );
      }}
    >
      <Field label={FOOTAGE.eventName}>
        <Input name="name" required maxLength={120} />
      </Field>
      <Field label={FOOTAGE.location}>
        <Input name="location" required maxLength={120} />
      </Field>
      <Field label={FOOTAGE.dates}>
        <Input name="dates" required maxLength={60} placeholder="Mar 7-8" />
      </Field>
      <Field label={FOOTAGE.reelSource}>
        <ReelSourceSelect name="reelSource" defaultValue="footage" />
      </Field>
      <Button type="submit" disabled={create.isPending}>
        {FOOTAGE.createEvent}
      </Button>
    </form>
  );
}

function ReelSourceSelect(props: ComponentProps<typeof NativeSelect>) {
  return (
    <NativeSelect {...props}>
      <option value="footage">{FOOTAGE.reelSources.footage}</option>
      <option value="hand">{FOOTAGE.reelSources.hand}</option>
    </NativeSelect>
  );
}

function AddGameForm({ eventId }: { eventId: string }) {
  const add = useAddGame();
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_10rem_14rem_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const startsAt = String(data.get('startsAt') ?? '');
        add.mutate(
          { eventId, label: String(data.get('label') ?? ''), court: String(data.get('court') ?? '') || null, startsAt: startsAt ? new Date(startsAt).toISOString() : null },
          {
            onSuccess: () => {
              notify.success({ title: FOOTAGE.gameAdded, description: '' });
              form.reset();
            },
            onError: (error) => notify.error({ title: FOOTAGE.actionFailed, description: error.message }),
          },
        );
      }}
    >
      <Field label={FOOTAGE.gameName}>
        <Input name="label" required maxLength={80} placeholder="Game 1 vs Lakers" />
      </Field>
      <Field label={FOOTAGE.court} optional>
        <Input name="court" maxLength={60} />
      </Field>
      <Field label={FOOTAGE.startsAt} optional>
        <Input name="startsAt" type="datetime-local" />
      </Field>
      <Button type="submit" disabled={add.isPending}>
        {FOOTAGE.addGame}
      </Button>
    </form>
  );
}

function EventFootage({ event }: { event: AdminEvent }) {
  const footage = useEventFootage(event.id);
  const updateEvent = useUpdateEvent();
  const updateGame = useUpdateGame();
  const hasFootage = Boolean(footage.data?.length);
  useEffect(() => {
    if (footage.isError) notify.error({ title: FOOTAGE.actionFailed, description: FOOTAGE.loadFailed });
  }, [footage.isError]);
  return (
    <>
      <Card className="mb-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <CardTitle>
            {event.name} <span className="text-base font-normal normal-case text-neutral-300">· {event.location} · {event.dates}</span>
            {event.demo && (
              <span className="ml-2 rounded bg-yellow-900/60 px-2 py-0.5 align-middle text-xs font-normal normal-case text-yellow-100" title={FOOTAGE.demoHint} data-testid="event-demo">
                {FOOTAGE.demo}
              </span>
            )}
          </CardTitle>
          <Button size="sm" variant="ghost" onClick={() => updateEvent.mutate({ id: event.id, archived: !event.archived })}>
            {event.archived ? FOOTAGE.restoreEvent : FOOTAGE.archiveEvent}
          </Button>
        </div>
        <div className="mb-4 max-w-md">
          <Field label={FOOTAGE.reelSource} hint={hasFootage && event.reelSource === 'hand' ? FOOTAGE.reelSourceFootageIn : FOOTAGE.reelSourceHints[event.reelSource]}>
            <ReelSourceSelect
              value={event.reelSource}
              data-testid="event-reel-source"
              onChange={(e) =>
                updateEvent.mutate(
                  { id: event.id, reelSource: e.target.value === 'hand' ? 'hand' : 'footage' },
                  {
                    onSuccess: () => notify.success({ title: FOOTAGE.reelSourceChanged, description: '' }),
                    onError: (error) => notify.error({ title: FOOTAGE.actionFailed, description: error.message }),
                  },
                )
              }
            />
          </Field>
        </div>
        <AddGameForm eventId={event.id} />
      </Card>
      <RosterCard eventId={event.id} />
      <h2 className="mb-4 font-display text-2xl uppercase tracking-wide text-white">{FOOTAGE.games}</h2>
      {!event.games.length && <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{FOOTAGE.noGames}</p>}
      <div className="flex flex-col gap-4">
        {event.games.map((game) => {
          const files = footage.data?.filter((f) => f.gameId === game.id) ?? [];
          return (
            <Card key={game.id} data-testid="game-card" aria-label={game.label}>
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <h3 className="text-lg font-semibold text-white">
                  {game.label}
                  {game.court && <span className="font-normal text-neutral-300"> · {game.court}</span>}
                  {game.startsAt && <span className="font-normal text-neutral-300"> · {new Date(game.startsAt).toLocaleString()}</span>}
                  {game.archived && <span className="ml-2 rounded bg-neutral-800 px-2 py-0.5 text-xs text-neutral-200">{FOOTAGE.archived}</span>}
                </h3>
                <Button size="sm" variant="ghost" onClick={() => updateGame.mutate({ id: game.id, archived: !game.archived })}>
                  {game.archived ? FOOTAGE.restoreGame : FOOTAGE.archiveGame}
                </Button>
              </div>
              {footage.isPending ? <Spinner label="Loading footage" /> : <FootageList files={files} />}
              {!game.archived && <FootageUpload gameId={game.id} files={files} />}
            </Card>
          );
        })}
      </div>
    </>
  );
}

export default function AdminFootagePage() {
  usePageTitle(PAGE_TITLES['/admin/footage']);
  const events = useAdminEvents();
  const [selected, setSelected] = useState<string>('');
  const list = events.data ?? [];
  const event = list.find((e) => e.id === selected) ?? list.find((e) => !e.archived) ?? list[0];
  return (
    <>
      <AdminPageHeader title={FOOTAGE.title} />
      <div className="mb-6 flex flex-wrap items-end gap-4">
        {list.length > 0 && (
          <Field label={FOOTAGE.event} className="min-w-64">
            <NativeSelect value={event?.id ?? ''} onChange={(e) => setSelected(e.target.value)}>
              {list.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                  {e.archived ? ` (${FOOTAGE.archived})` : ''}
                </option>
              ))}
            </NativeSelect>
          </Field>
        )}
        <NewEventForm onCreated={setSelected} />
      </div>
      {events.isPending ? (
        <Spinner label="Loading events" />
      ) : event ? (
        <EventFootage event={event} />
      ) : (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300" data-testid="no-events">
          {FOOTAGE.noEvents}
        </p>
      )}
    </>
  );
}
