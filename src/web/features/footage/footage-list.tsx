// One game's footage by camera: what each file is, where its face index stands (live), where it
// sits on the game's clock (and the admin's offset), and re-index or delete.
import { FOOTAGE } from '../../../common/admin-messages';
import { isDamagedFootage } from '../../../common/footage-state';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { useState } from 'react';
import { Input } from '../../ui/form-controls';
import { type Footage, useDeleteFootage, useReindex, useRenameCamera } from './api';
import { CameraOffset } from './camera-offset';

const STATE_STYLE: Record<string, string> = {
  indexed: 'bg-green-950 text-green-300',
  indexing: 'bg-yellow-950 text-yellow-200',
  queued: 'bg-neutral-800 text-neutral-200',
  failed: 'bg-red-950 text-red-200',
  purged: 'bg-neutral-800 text-neutral-300',
};

const duration = (s: number | null) => (s === null ? '—' : `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`);
const size = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);

export function FootageList({ files }: { files: Footage[] }) {
  const reindex = useReindex();
  const remove = useDeleteFootage();
  if (!files.length) return <p className="text-sm text-neutral-300">{FOOTAGE.noFootage}</p>;
  // The camera the others were lined up against: the game's first with sound.
  const reference = files.find((f) => f.syncSource === 'reference')?.camera ?? null;
  // Offsets matter between two readable cameras; a damaged file is not one.
  const readable = files.filter((f) => !isDamagedFootage(f)).length;
  return (
    <ul className="flex flex-col gap-2">
      {files.map((f) => (
        <li key={f.id} className="grid gap-2 rounded-lg bg-neutral-950/60 p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center" data-testid="footage-row">
          <div className="min-w-0">
            <CameraName file={f} />
            <p className="text-neutral-300">
              {duration(f.durationSeconds)} · {f.width && f.height ? `${f.width}×${f.height}` : '—'} · {f.fps ? `${f.fps} fps` : '—'} · {size(f.sizeBytes)}
              {f.indexStats?.realTimeFactor ? FOOTAGE.indexedSpeed(f.indexStats.realTimeFactor, f.indexStats.keyframesOnly === 1) : ''}
            </p>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              <span className={cn('rounded px-2 py-0.5 text-xs font-semibold', STATE_STYLE[f.indexState])} data-testid="index-state">
                {FOOTAGE.states[f.indexState] ?? f.indexState}
                {f.indexState === 'indexing' ? ` ${f.indexProgress}%` : ''}
              </span>
              {f.indexError && <span className="text-xs text-red-300">{f.indexError}</span>}
              {/* The retention policy: when this file goes, or that a request keeps it. */}
              {(f.keptForRequest || f.deletesOn) && (
                <span className="text-xs text-neutral-400" data-testid="footage-retention">
                  {f.keptForRequest ? FOOTAGE.keptForRequest : FOOTAGE.deletesOn(new Date(`${f.deletesOn}T12:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium' }))}
                </span>
              )}
            </p>
            {f.indexState === 'indexing' && (
              <div className="mt-2 h-1.5 overflow-hidden rounded bg-neutral-800" role="progressbar" aria-label={`${FOOTAGE.states.indexing} ${f.camera}`} aria-valuenow={f.indexProgress} aria-valuemin={0} aria-valuemax={100}>
                <div className="h-full bg-yellow-400 transition-all" style={{ width: `${f.indexProgress}%` }} />
              </div>
            )}
            {/* A damaged file has no place on the game's clock until it is uploaded again. */}
            {readable > 1 && !isDamagedFootage(f) && <CameraOffset file={f} reference={reference} />}
          </div>
          <div className="flex gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={f.indexState === 'indexing' || f.indexState === 'purged' || reindex.isPending}
              title={f.indexState === 'purged' ? FOOTAGE.purgedNoReindex : undefined}
              onClick={() => reindex.mutate(f.id, { onSuccess: () => notify.success({ title: FOOTAGE.reindexStarted, description: '' }), onError: (e) => notify.error({ title: FOOTAGE.actionFailed, description: e.message }) })}
            >
              {FOOTAGE.reindex}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(FOOTAGE.deleteConfirm)) remove.mutate(f.id, { onSuccess: () => notify.success({ title: FOOTAGE.deleted, description: '' }), onError: (e) => notify.error({ title: FOOTAGE.actionFailed, description: e.message }) });
              }}
            >
              {FOOTAGE.delete}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The camera's name and file, renamed in place (once per game: the server says when a name is taken). */
function CameraName({ file: f }: { file: Footage }) {
  const rename = useRenameCamera();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(f.camera);
  if (!editing)
    return (
      <p className="flex flex-wrap items-center gap-2 font-semibold text-white">
        {f.camera} <span className="font-normal text-neutral-300">· {f.originalName ?? 'footage'}</span>
        <Button size="sm" variant="ghost" className="h-7 px-2 text-xs" onClick={() => (setName(f.camera), setEditing(true))} aria-label={`${FOOTAGE.rename} ${f.camera}`}>
          {FOOTAGE.rename}
        </Button>
      </p>
    );
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate(
          { id: f.id, camera: name.trim() },
          {
            onSuccess: () => (notify.success({ title: FOOTAGE.renamed, description: '' }), setEditing(false)),
            onError: (error) => notify.error({ title: FOOTAGE.actionFailed, description: error.message }),
          },
        );
      }}
    >
      <Input className="h-8 w-40" aria-label={`${FOOTAGE.camera}: ${f.originalName ?? f.camera}`} value={name} maxLength={60} required onChange={(e) => setName(e.target.value)} autoFocus />
      <Button type="submit" size="sm" disabled={rename.isPending}>
        {FOOTAGE.save}
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
        {FOOTAGE.cancel}
      </Button>
    </form>
  );
}
