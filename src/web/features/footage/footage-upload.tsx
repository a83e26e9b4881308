// Uploads a game's camera files, one or several at once (dropped or chosen), each resumably (tus)
// and all in parallel, as the reel upload does: a dropped connection retries, and the same file
// picked again continues where it stopped. Each file gets the next free camera name of the game
// as the server lists it (a damaged file's name is free again: the new upload replaces it), in
// the order the files came, and each name can be changed before the upload starts.
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import * as tus from 'tus-js-client';
import { FOOTAGE } from '../../../common/admin-messages';
import { cameraKey, nextCameraName } from '../../../common/camera-names';
import { isDamagedFootage } from '../../../common/footage-state';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { tusErrorMessage, shouldRetryUpload } from '../../lib/upload';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import type { Footage } from './api';

const CHUNK_BYTES = 8 * 1024 * 1024;
// What cameras write: MP4 and MOV, WebM and MKV, and the transport streams of camcorders (.MTS,
// .M2TS) and recorders (.ts), which the server stores as MOV (footage/uploads.ts).
const ACCEPT = 'video/mp4,video/quicktime,video/webm,video/x-matroska,video/mp2t,.mp4,.mov,.webm,.mkv,.mts,.m2ts,.ts';

interface Pending {
  key: string;
  file: File;
  /** What the admin typed; null: the suggested name. */
  typed: string | null;
  progress: number | null;
  /** The camera it is being sent as, while it is. */
  sentAs: string | null;
}

/** Each file's camera: typed, or the next name free of the game's cameras and the files before it. */
function namesOf(pending: Pending[], taken: string[], firstTyped: string | null): string[] {
  const used = [...taken];
  return pending.map((p, i) => {
    const typed = p.progress !== null && p.sentAs ? p.sentAs : i === 0 ? (p.typed ?? firstTyped) : p.typed;
    const name = typed ?? nextCameraName(used);
    used.push(name);
    return name;
  });
}

export function FootageUpload({ gameId, files }: { gameId: string; files: Footage[] }) {
  const queryClient = useQueryClient();
  const taken = files.filter((f) => !isDamagedFootage(f)).map((f) => f.camera);
  // The camera field before any file is chosen; it names the first file.
  const [firstTyped, setFirstTyped] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const names = namesOf(pending, taken, firstTyped);
  const uploading = pending.some((p) => p.progress !== null);
  const firstName = names[0] ?? firstTyped ?? nextCameraName(taken);

  const add = (list: FileList | null) => {
    if (!list?.length) return;
    setPending((now) => [...now.filter((p) => p.progress !== null), ...Array.from(list, (file, i) => ({ key: `${file.name}-${file.size}-${Date.now()}-${i}`, file, typed: null, progress: null, sentAs: null }))]);
  };
  const update = (key: string, change: Partial<Pending>) => setPending((now) => now.map((p) => (p.key === key ? { ...p, ...change } : p)));
  const remove = (key: string) => setPending((now) => now.filter((p) => p.key !== key));

  const uploadOne = (p: Pending, camera: string) =>
    new Promise<void>((resolve) => {
      update(p.key, { progress: 0, sentAs: camera });
      const up = new tus.Upload(p.file, {
        endpoint: '/api/admin/footage-uploads',
        chunkSize: CHUNK_BYTES,
        retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000],
        onShouldRetry: shouldRetryUpload,
        metadata: { gameId, camera, filename: p.file.name },
        fingerprint: async (f) => ['giot-footage', gameId, camera, (f as File).name, (f as File).size, (f as File).lastModified].join('-'),
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onProgress: (sent, total) => update(p.key, { progress: total ? Math.floor((sent / total) * 100) : 0 }),
        onSuccess: () => {
          remove(p.key);
          // The next file is most likely the next camera: suggested from the refreshed list.
          setFirstTyped(null);
          notify.success({ title: FOOTAGE.uploaded, description: p.file.name });
          void queryClient.invalidateQueries({ queryKey: ['admin', 'footage'] });
          resolve();
        },
        onError: (error) => {
          // The file stays in the list with its name, to be named again or sent again.
          update(p.key, { progress: null });
          notify.error({ title: FOOTAGE.uploadFailed, description: tusErrorMessage(error, FOOTAGE.uploadFailedFallback) });
          resolve();
        },
      });
      void up.findPreviousUploads().then((previous) => {
        if (previous[0]) up.resumeFromPreviousUpload(previous[0]);
        up.start();
      });
    });

  const start = (e: React.FormEvent) => {
    e.preventDefault();
    const ready = pending.map((p, i) => ({ p, camera: names[i]!.trim() })).filter(({ p }) => p.progress === null);
    if (!ready.length || ready.some(({ camera }) => !camera)) return notify.error({ title: FOOTAGE.uploadFailed, description: FOOTAGE.invalid });
    const keys = ready.map(({ camera }) => cameraKey(camera));
    // Said here as the server would say it: a name the game has, or two files of one name.
    const clashOf = (camera: string, i: number) => taken.find((t) => cameraKey(t) === cameraKey(camera)) ?? (keys.indexOf(cameraKey(camera)) !== i ? camera : null);
    const clash = ready.map(({ camera }, i) => clashOf(camera, i)).find(Boolean);
    if (clash) return notify.error({ title: FOOTAGE.uploadFailed, description: FOOTAGE.cameraTaken(clash, nextCameraName([...taken, ...ready.map((r) => r.camera)])) });
    if (input.current) input.current.value = '';
    void Promise.all(ready.map(({ p, camera }) => uploadOne(p, camera)));
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };
  const several = pending.length > 1;
  const waiting = pending.filter((p) => p.progress === null).length;

  return (
    <form
      onSubmit={start}
      onDragOver={(e) => (e.preventDefault(), setDragging(true))}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cn('mt-4 flex flex-col gap-3 rounded-lg border border-dashed p-4', dragging ? 'border-red-500 bg-red-950/20' : 'border-neutral-700')}
      data-testid="footage-drop"
    >
      <p className="text-sm text-neutral-300">{FOOTAGE.dropHere}</p>
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
        {!several ? (
          <Field label={FOOTAGE.camera}>
            <Input
              value={firstName}
              disabled={uploading}
              onChange={(e) => setFirstTyped(e.target.value)}
              placeholder={FOOTAGE.cameraPlaceholder}
              maxLength={60}
            />
          </Field>
        ) : (
          <span className="hidden sm:block" />
        )}
        <Field label={FOOTAGE.file}>
          <Input ref={input} type="file" multiple accept={ACCEPT} onChange={(e) => (setPending((now) => now.filter((p) => p.progress !== null)), add(e.target.files))} />
        </Field>
        <Button type="submit" disabled={!waiting}>
          {several ? FOOTAGE.uploadMany(waiting) : uploading ? `${FOOTAGE.uploading} ${pending[0]?.progress ?? 0}%` : FOOTAGE.upload}
        </Button>
      </div>
      {pending.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label={FOOTAGE.filesToUpload}>
          {pending.map((p, i) => (
            <li key={p.key} className="grid gap-2 rounded-md bg-neutral-950/60 p-2 text-sm sm:grid-cols-[10rem_1fr_auto] sm:items-center" data-testid="footage-pending">
              {several ? (
                <Input aria-label={FOOTAGE.cameraFor(p.file.name)} value={names[i]} disabled={p.progress !== null} maxLength={60} onChange={(e) => update(p.key, { typed: e.target.value })} />
              ) : (
                <span className="text-neutral-300">{names[i]}</span>
              )}
              <div className="min-w-0">
                <p className="truncate text-white">{p.file.name}</p>
                {p.progress !== null && (
                  <div className="mt-1 h-2 overflow-hidden rounded bg-neutral-800" role="progressbar" aria-label={`${FOOTAGE.uploading} ${p.file.name}`} aria-valuenow={p.progress} aria-valuemin={0} aria-valuemax={100}>
                    <div className="h-full bg-red-600 transition-all" style={{ width: `${p.progress}%` }} />
                  </div>
                )}
              </div>
              {p.progress === null ? (
                <Button type="button" size="sm" variant="ghost" onClick={() => remove(p.key)} aria-label={FOOTAGE.removeFile(p.file.name)}>
                  ×
                </Button>
              ) : (
                <span className="text-xs text-neutral-300">{p.progress}%</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
