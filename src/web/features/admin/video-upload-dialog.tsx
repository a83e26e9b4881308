// Upload Video (the spec's dialog): title, description and tournament, the file, and Already
// Paid / Not Yet Paid. The file goes up resumably (tus): a dropped connection retries, and the
// same file picked again after a reload or a closed lid carries on where it stopped.
import { useEffect, useRef, useState } from 'react';
import * as tus from 'tus-js-client';
import { VIDEO_MAX_BYTES } from '../../../common/constants';
import { ADMIN } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { tusErrorMessage, shouldRetryUpload } from '../../lib/upload';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { Field, Input, NativeSelect, Textarea } from '../../ui/form-controls';

const TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const CHUNK_BYTES = 8 * 1024 * 1024;

interface Progress {
  sent: number;
  total: number;
  bytesPerSecond: number;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 * 1024 ? `${(n / 1024 ** 3).toFixed(2)} GB` : `${(n / 1024 ** 2).toFixed(1)} MB`;
}
function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '…';
  if (s < 60) return `${Math.ceil(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.ceil(s % 60)} s`;
}

/** The server's text for a failed tus request, or the spec's fallback. */
const messageOf = (error: Error) => tusErrorMessage(error, ADMIN.video.uploadFailedFallback);

/** A request a Not Yet Paid video can wait for: one not bought yet. */
export interface UploadRequest {
  id: string;
  event: string;
  status: string;
  paid: boolean;
}

export function VideoUploadDialog({
  user,
  onClose,
}: {
  user: { id: string; name: string; requests: UploadRequest[] } | null;
  onClose: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [paidChoice, setPaidChoice] = useState<'true' | 'false'>('false');
  const unpaid = user?.requests.filter((r) => !r.paid && r.status !== 'delivered') ?? [];
  const [errors, setErrors] = useState<{ title?: string; file?: string }>({});
  const [progress, setProgress] = useState<Progress | null>(null);
  const upload = useRef<tus.Upload | null>(null);
  const samples = useRef<Array<{ at: number; sent: number }>>([]);
  const busy = progress !== null;

  useEffect(() => {
    if (!user) {
      setFile(null);
      setErrors({});
      setProgress(null);
      setPaidChoice('false');
    }
  }, [user]);

  const cancel = () => {
    void upload.current?.abort();
    upload.current = null;
    setProgress(null);
  };

  const submit = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const title = String(data.get('title') ?? '').trim();
    const next: typeof errors = {};
    if (!title) next.title = ADMIN.video.titleRequired;
    if (!file) next.file = ADMIN.video.noFile;
    // The browser's word on the type is a first check; the server looks at the bytes.
    else if (!TYPES.includes(file.type) && !(file.type === '' && /\.(mp4|mov|webm)$/i.test(file.name))) next.file = ADMIN.video.invalidTypeText;
    else if (file.size > VIDEO_MAX_BYTES) next.file = ADMIN.video.tooLarge;
    setErrors(next);
    if (next.title) notify.error({ title: ADMIN.video.uploadFailed, description: ADMIN.video.titleRequired });
    else if (next.file) notify.error({ title: ADMIN.video.uploadFailed, description: next.file });
    if (next.title || next.file || !user) return;

    const paid = data.get('paid') === 'true';
    samples.current = [];
    setProgress({ sent: 0, total: file!.size, bytesPerSecond: 0 });
    const up = new tus.Upload(file!, {
      endpoint: '/api/admin/uploads',
      chunkSize: CHUNK_BYTES,
      // A dropped connection or a sleeping laptop: keep trying, further apart each time.
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000],
      onShouldRetry: shouldRetryUpload,
      metadata: {
        userId: user.id,
        title,
        description: String(data.get('description') ?? ''),
        tournament: String(data.get('tournament') ?? ''),
        paid: String(paid),
        filename: file!.name,
        ...(!paid && data.get('requestId') ? { requestId: String(data.get('requestId')) } : {}),
      },
      // The same file for the same athlete resumes; for another athlete it is a new upload.
      fingerprint: async (f) => ['giot-video', user.id, (f as File).name, (f as File).size, (f as File).lastModified].join('-'),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress(sent, total) {
        const now = Date.now();
        samples.current = [...samples.current.filter((s) => now - s.at < 5000), { at: now, sent }];
        const first = samples.current[0]!;
        const bytesPerSecond = now > first.at ? ((sent - first.sent) * 1000) / (now - first.at) : 0;
        setProgress({ sent, total, bytesPerSecond });
      },
      onSuccess() {
        upload.current = null;
        notify.success({ title: ADMIN.video.uploaded.title, description: paid ? ADMIN.video.uploaded.visibleNow : ADMIN.video.uploaded.afterPayment });
        onClose();
      },
      onError(error) {
        upload.current = null;
        setProgress(null);
        notify.error({ title: ADMIN.video.uploadFailed, description: messageOf(error) || ADMIN.video.failedFallback });
      },
    });
    upload.current = up;
    void up.findPreviousUploads().then((previous) => {
      if (previous[0]) up.resumeFromPreviousUpload(previous[0]);
      up.start();
    });
  };

  const pct = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  const left = progress && progress.bytesPerSecond > 0 ? (progress.total - progress.sent) / progress.bytesPerSecond : Infinity;

  return (
    <Dialog open={Boolean(user)} onOpenChange={(o) => !o && !busy && onClose()}>
      <DialogContent title={ADMIN.video.title} description={user ? `For ${user.name}.` : undefined}>
        <form
          noValidate
          aria-label={ADMIN.video.title}
          onSubmit={(e) => {
            e.preventDefault();
            submit(e.currentTarget);
          }}
          className="flex flex-col gap-4"
        >
          <fieldset disabled={busy} className="flex flex-col gap-4">
            <Field label={ADMIN.video.titleLabel} error={errors.title}>
              <Input name="title" maxLength={200} />
            </Field>
            <Field label={ADMIN.video.descriptionLabel} optional>
              <Textarea name="description" rows={3} maxLength={2000} className="min-h-20" />
            </Field>
            <Field label={ADMIN.video.tournamentLabel} optional>
              <Input name="tournament" maxLength={200} />
            </Field>
            <Field label={ADMIN.video.fileLabel} error={errors.file} hint={ADMIN.video.fileNotes}>
              <Input
                type="file"
                accept=".mp4,.mov,.webm,video/mp4,video/quicktime,video/webm"
                className="h-auto py-2"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Field>
            <div role="radiogroup" aria-label="Payment" className="grid grid-cols-2 gap-3">
              {[
                ['false', ADMIN.video.notPaid],
                ['true', ADMIN.video.paid],
              ].map(([value, label]) => (
                <label key={value} className="flex cursor-pointer items-center gap-2 rounded-md border border-neutral-700 px-3 py-2.5 text-sm has-[:checked]:border-red-500">
                  <input
                    type="radio"
                    name="paid"
                    value={value}
                    checked={paidChoice === value}
                    onChange={() => setPaidChoice(value as 'true' | 'false')}
                    className="h-4 w-4 accent-red-600"
                  />
                  {label}
                </label>
              ))}
            </div>
            {paidChoice === 'false' && unpaid.length > 0 && (
              <Field label={ADMIN.video.unlockedBy} hint={ADMIN.video.unlockedByHint}>
                {/* One open request: it is the one. Several: the admin says which. */}
                <NativeSelect name="requestId" defaultValue={unpaid.length === 1 ? unpaid[0]!.id : ''}>
                  <option value="">{ADMIN.video.anyPurchase}</option>
                  {unpaid.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.event}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            )}
          </fieldset>
          {progress && (
            <div aria-live="polite">
              <div className="h-2 overflow-hidden rounded-full bg-neutral-800" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label="Upload progress">
                <div className="h-full bg-red-500 transition-all" style={{ width: `${pct}%` }} />
              </div>
              <p className="mt-2 text-sm text-neutral-300" data-testid="upload-progress">
                {pct}% · {formatBytes(progress.sent)} of {formatBytes(progress.total)} · {formatBytes(progress.bytesPerSecond)}/s · {formatSeconds(left)} left
              </p>
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={busy ? cancel : onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Uploading...' : 'Upload'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
