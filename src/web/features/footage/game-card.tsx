// One game on the footage screen: a header that says at a glance which cameras are indexed,
// being indexed, failed or missing (a camera the event's other games have), opening onto the
// game's footage and the upload; the game's details edited in place; archive and restore.
import { ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { FOOTAGE } from '../../../common/admin-messages';
import { cameraKey } from '../../../common/camera-names';
import { isDamagedFootage } from '../../../common/footage-state';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { Field, Input } from '../../ui/form-controls';
import { type AdminGame, type Footage, useUpdateGame } from './api';
import { FootageList } from './footage-list';
import { FootageUpload } from './footage-upload';

/** `datetime-local`'s value for an ISO time, in the browser's zone. */
const localInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export function GameCard({ game, files, eventCameras }: { game: AdminGame; files: Footage[]; eventCameras: string[] }) {
  // A game whose every camera is indexed needs nothing: it starts closed. One with work left starts open.
  const [open, setOpen] = useState(() => !(files.length > 0 && files.every((f) => f.indexState === 'indexed')));
  const [editing, setEditing] = useState(false);
  const updateGame = useUpdateGame();
  const bodyId = useId();
  const count = (test: (f: Footage) => boolean) => files.filter(test).length;
  const failed = count((f) => f.indexState === 'failed' || isDamagedFootage(f));
  const indexed = count((f) => f.indexState === 'indexed');
  const working = count((f) => f.indexState === 'indexing' || f.indexState === 'queued');
  const have = new Set(files.map((f) => cameraKey(f.camera)));
  const missing = eventCameras.filter((c) => !have.has(cameraKey(c)));
  return (
    <Card data-testid="game-card" aria-label={game.label}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <button type="button" className="flex min-w-0 flex-1 basis-full items-start gap-2 text-left sm:basis-auto" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <ChevronDown className={cn('mt-1 h-5 w-5 shrink-0 text-neutral-300 transition-transform', !open && '-rotate-90')} aria-hidden="true" />
          <span className="min-w-0">
            <span className="block text-lg font-semibold text-white">
              {game.label}
              {game.court && <span className="font-normal text-neutral-300"> · {game.court}</span>}
              {game.startsAt && <span className="font-normal text-neutral-300"> · {new Date(game.startsAt).toLocaleString()}</span>}
              {game.archived && <span className="ml-2 rounded bg-neutral-800 px-2 py-0.5 text-xs text-neutral-200">{FOOTAGE.archived}</span>}
            </span>
            <span className="mt-1 flex flex-wrap gap-1.5 text-xs" data-testid="game-glance">
              {!files.length && !missing.length && <span className="rounded bg-neutral-800 px-2 py-0.5 text-neutral-200">{FOOTAGE.glance.none}</span>}
              {indexed > 0 && <span className="rounded bg-green-950 px-2 py-0.5 text-green-300">{FOOTAGE.glance.indexed(indexed)}</span>}
              {working > 0 && <span className="rounded bg-yellow-950 px-2 py-0.5 text-yellow-200">{FOOTAGE.glance.working(working)}</span>}
              {failed > 0 && <span className="rounded bg-red-950 px-2 py-0.5 text-red-200">{FOOTAGE.glance.failed(failed)}</span>}
              {missing.length > 0 && <span className="rounded bg-orange-950 px-2 py-0.5 text-orange-200">{FOOTAGE.glance.missing(missing.join(', '))}</span>}
            </span>
          </span>
        </button>
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={() => (setEditing(!editing), setOpen(true))} aria-label={`${FOOTAGE.editGame} ${game.label}`}>
            {FOOTAGE.editGame}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => updateGame.mutate({ id: game.id, archived: !game.archived })}>
            {game.archived ? FOOTAGE.restoreGame : FOOTAGE.archiveGame}
          </Button>
        </div>
      </div>
      {open && (
        <div id={bodyId} className="mt-3">
          {editing && <GameForm game={game} onDone={() => setEditing(false)} />}
          <FootageList files={files} />
          {!game.archived && <FootageUpload gameId={game.id} files={files} />}
        </div>
      )}
    </Card>
  );
}

function GameForm({ game, onDone }: { game: AdminGame; onDone: () => void }) {
  const update = useUpdateGame();
  return (
    <form
      className="mb-4 grid gap-3 rounded-lg border border-neutral-800 p-3 sm:grid-cols-[1fr_10rem_14rem_auto] sm:items-end"
      aria-label={`${FOOTAGE.editGame} ${game.label}`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const startsAt = String(data.get('startsAt') ?? '');
        update.mutate(
          { id: game.id, label: String(data.get('label') ?? ''), court: String(data.get('court') ?? '') || null, startsAt: startsAt ? new Date(startsAt).toISOString() : null },
          {
            onSuccess: () => {
              notify.success({ title: FOOTAGE.saved, description: '' });
              onDone();
            },
            onError: (error) => notify.error({ title: FOOTAGE.actionFailed, description: error.message }),
          },
        );
      }}
    >
      <Field label={FOOTAGE.gameName}>
        <Input name="label" required maxLength={80} defaultValue={game.label} />
      </Field>
      <Field label={FOOTAGE.court} optional>
        <Input name="court" maxLength={60} defaultValue={game.court ?? ''} />
      </Field>
      <Field label={FOOTAGE.startsAt} optional>
        <Input name="startsAt" type="datetime-local" defaultValue={localInput(game.startsAt)} />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {FOOTAGE.save}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          {FOOTAGE.cancel}
        </Button>
      </div>
    </form>
  );
}
