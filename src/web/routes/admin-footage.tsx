// /admin/footage: events and their games, and each game's footage by camera, uploaded
// resumably (several files at once) and indexed for faces with live progress. An event is chosen
// from the list; its games are found by a search, archived ones hidden until asked for, and each
// opens from a header that says where its cameras stand (issue 36 item 2).
import { useEffect, useState } from 'react';
import { FOOTAGE } from '../../common/admin-messages';
import { AdminPageHeader } from '../features/admin/page-header';
import { cameraKey } from '../../common/camera-names';
import { useAddGame, useAdminEvents, useEventFootage, useUpdateEvent, type AdminEvent } from '../features/footage/api';
import { EventForm, ReelSourceSelect } from '../features/footage/event-form';
import { GameCard } from '../features/footage/game-card';
import { RosterCard } from '../features/footage/rosters';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Card, CardTitle } from '../ui/card';
import { Field, Input, NativeSelect } from '../ui/form-controls';
import { Spinner } from '../ui/spinner';

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
        const label = String(data.get('label') ?? '');
        add.mutate(
          { eventId, label, court: String(data.get('court') ?? '') || null, startsAt: startsAt ? new Date(startsAt).toISOString() : null },
          {
            onSuccess: () => {
              notify.success({ title: FOOTAGE.gameAdded, description: '' });
              // The new game shows before this answer (the list refetches first): an admin may
              // already be typing the next one, which a reset would wipe.
              const labelInput = form.elements.namedItem('label');
              if (labelInput instanceof HTMLInputElement && labelInput.value === label) form.reset();
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

function EventFootage({ event, search }: { event: AdminEvent; search: string }) {
  const footage = useEventFootage(event.id);
  const updateEvent = useUpdateEvent();
  const [editing, setEditing] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const hasFootage = Boolean(footage.data?.length);
  useEffect(() => {
    if (footage.isError) notify.error({ title: FOOTAGE.actionFailed, description: FOOTAGE.loadFailed });
  }, [footage.isError]);
  // The event's cameras: a game without one of them shows it missing.
  const eventCameras = [...new Map((footage.data ?? []).map((f) => [cameraKey(f.camera), f.camera])).values()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const needle = search.trim().toLowerCase();
  const archivedCount = event.games.filter((g) => g.archived).length;
  const games = event.games.filter((g) => (showArchived || !g.archived) && (!needle || `${g.label} ${g.court ?? ''}`.toLowerCase().includes(needle)));
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
          <div className="flex gap-1">
            <Button size="sm" variant="outline" onClick={() => setEditing(!editing)}>
              {FOOTAGE.editEvent}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => updateEvent.mutate({ id: event.id, archived: !event.archived })}>
              {event.archived ? FOOTAGE.restoreEvent : FOOTAGE.archiveEvent}
            </Button>
          </div>
        </div>
        {editing && (
          <div className="mb-4 rounded-lg border border-neutral-800 p-3">
            <EventForm event={event} onDone={() => setEditing(false)} onCancel={() => setEditing(false)} />
          </div>
        )}
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
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl uppercase tracking-wide text-white">{FOOTAGE.games}</h2>
        {archivedCount > 0 && (
          <Button size="sm" variant="ghost" onClick={() => setShowArchived(!showArchived)}>
            {showArchived ? FOOTAGE.hideArchivedGames : FOOTAGE.showArchivedGames(archivedCount)}
          </Button>
        )}
      </div>
      {!event.games.length && <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{FOOTAGE.noGames}</p>}
      {event.games.length > 0 && !games.length && needle && <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300">{FOOTAGE.noGamesMatch}</p>}
      {footage.isPending ? (
        <Spinner label="Loading footage" />
      ) : (
        <div className="flex flex-col gap-4">
          {games.map((game) => (
            <GameCard key={game.id} game={game} files={footage.data?.filter((f) => f.gameId === game.id) ?? []} eventCameras={eventCameras} />
          ))}
        </div>
      )}
    </>
  );
}

export default function AdminFootagePage() {
  usePageTitle(PAGE_TITLES['/admin/footage']);
  const events = useAdminEvents();
  const [selected, setSelected] = useState<string>('');
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState('');
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
        {list.length > 0 && (
          <Field label={FOOTAGE.findGame} className="min-w-56">
            <Input type="search" value={search} maxLength={80} onChange={(e) => setSearch(e.target.value)} />
          </Field>
        )}
        {!creating && (
          <Button variant="outline" onClick={() => setCreating(true)}>
            {FOOTAGE.newEvent}
          </Button>
        )}
      </div>
      {creating && (
        <Card className="mb-6">
          <EventForm onDone={(id) => (setSelected(id), setCreating(false))} onCancel={() => setCreating(false)} />
        </Card>
      )}
      {events.isPending ? (
        <Spinner label="Loading events" />
      ) : event ? (
        <EventFootage key={event.id} event={event} search={search} />
      ) : (
        <p className="rounded-xl border border-neutral-800 p-8 text-center text-neutral-300" data-testid="no-events">
          {FOOTAGE.noEvents}
        </p>
      )}
    </>
  );
}
