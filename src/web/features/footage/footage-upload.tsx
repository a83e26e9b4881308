// Uploads one camera's footage of a game, resumably (tus), as the reel upload does: a dropped
// connection retries, and the same file picked again continues where it stopped. The camera's
// name suggested is the next free one of the game's footage as the server lists it (a damaged
// file's name is free again: the new upload replaces it).
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import * as tus from 'tus-js-client';
import { FOOTAGE } from '../../../common/admin-messages';
import { nextCameraName } from '../../../common/camera-names';
import { isDamagedFootage } from '../../../common/footage-state';
import { notify } from '../../lib/toast';
import { tusErrorMessage, shouldRetryUpload } from '../../lib/upload';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import type { Footage } from './api';

const CHUNK_BYTES = 8 * 1024 * 1024;


export function FootageUpload({ gameId, files }: { gameId: string; files: Footage[] }) {
  const queryClient = useQueryClient();
  // What the admin typed; until then (and after each upload) the next free name is suggested.
  const [typed, setTyped] = useState<string | null>(null);
  const camera = typed ?? nextCameraName(files.filter((f) => !isDamagedFootage(f)).map((f) => f.camera));
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const start = (e: React.FormEvent) => {
    e.preventDefault();
    if (!file || !camera.trim()) return notify.error({ title: FOOTAGE.uploadFailed, description: FOOTAGE.invalid });
    setProgress(0);
    const up = new tus.Upload(file, {
      endpoint: '/api/admin/footage-uploads',
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000],
      onShouldRetry: shouldRetryUpload,
      metadata: { gameId, camera: camera.trim(), filename: file.name },
      fingerprint: async (f) => ['giot-footage', gameId, camera.trim(), (f as File).name, (f as File).size, (f as File).lastModified].join('-'),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setProgress(total ? Math.floor((sent / total) * 100) : 0),
      onSuccess: () => {
        setProgress(null);
        setFile(null);
        // The next file is most likely the next camera: suggested from the refreshed list.
        setTyped(null);
        if (input.current) input.current.value = '';
        notify.success({ title: FOOTAGE.uploaded, description: '' });
        void queryClient.invalidateQueries({ queryKey: ['admin', 'footage'] });
      },
      onError: (error) => {
        setProgress(null);
        notify.error({ title: FOOTAGE.uploadFailed, description: tusErrorMessage(error, FOOTAGE.uploadFailedFallback) });
      },
    });
    void up.findPreviousUploads().then((previous) => {
      if (previous[0]) up.resumeFromPreviousUpload(previous[0]);
      up.start();
    });
  };

  return (
    <form onSubmit={start} className="mt-4 grid gap-3 rounded-lg border border-dashed border-neutral-700 p-4 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
      <Field label={FOOTAGE.camera}>
        <Input value={camera} onChange={(e) => setTyped(e.target.value)} placeholder={FOOTAGE.cameraPlaceholder} maxLength={60} />
      </Field>
      <Field label={FOOTAGE.file}>
        <Input ref={input} type="file" accept="video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </Field>
      <Button type="submit" disabled={progress !== null || !file}>
        {progress === null ? FOOTAGE.upload : `${FOOTAGE.uploading} ${progress}%`}
      </Button>
      {progress !== null && (
        <div className="h-2 overflow-hidden rounded bg-neutral-800 sm:col-span-3" role="progressbar" aria-label={FOOTAGE.uploading} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
          <div className="h-full bg-red-600 transition-all" style={{ width: `${progress}%` }} />
        </div>
      )}
    </form>
  );
}
