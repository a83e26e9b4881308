// Where one camera sits on its game's clock: found from the sound, the reference itself, or set
// by hand (a camera without sound, or sound that matched nowhere). The admin can set it, or give
// it back to the sound.
import { FOOTAGE } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Input, Label } from '../../ui/form-controls';
import { type Footage, useSetOffset } from './api';

/** +3.42 s, −1.20 s. */
export const signedSeconds = (s: number) => `${s < 0 ? '−' : '+'}${Math.abs(s).toFixed(2)} s`;

const MAX_OFFSET_S = 6 * 60 * 60;

function syncText(file: Footage, reference: string | null): { text: string; warn: boolean } {
  const ref = reference ?? FOOTAGE.sync.firstWithSound;
  switch (file.syncSource) {
    case 'reference':
      return { text: FOOTAGE.sync.reference, warn: false };
    case 'audio':
      return { text: FOOTAGE.sync.audio(signedSeconds(file.syncOffsetS), ref), warn: false };
    case 'admin':
      return { text: FOOTAGE.sync.admin(signedSeconds(file.syncOffsetS)), warn: false };
    case 'no_audio':
      return { text: FOOTAGE.sync.noAudio, warn: true };
    case 'not_found':
      return { text: FOOTAGE.sync.notFound(ref), warn: true };
    default:
      return { text: FOOTAGE.sync.pending, warn: false };
  }
}

export function CameraOffset({ file, reference }: { file: Footage; reference: string | null }) {
  const set = useSetOffset();
  const { text, warn } = syncText(file, reference);
  const inputId = `offset-${file.id}`;
  const save = (offsetS: number | null) =>
    set.mutate(
      { id: file.id, offsetS },
      {
        onSuccess: () => notify.success({ title: offsetS === null ? FOOTAGE.offsetAutomatic : FOOTAGE.offsetSaved, description: '' }),
        onError: (e) => notify.error({ title: FOOTAGE.actionFailed, description: e.message }),
      },
    );
  return (
    <form
      // A new value from the server (the sound's, another admin's) replaces what is in the box.
      key={`${file.syncSource}:${file.syncOffsetS}`}
      className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1"
      data-testid="camera-offset"
      onSubmit={(e) => {
        e.preventDefault();
        const value = Number(new FormData(e.currentTarget).get('offsetS'));
        if (!Number.isFinite(value) || Math.abs(value) > MAX_OFFSET_S) return notify.error({ title: FOOTAGE.actionFailed, description: FOOTAGE.offsetInvalid });
        save(value);
      }}
    >
      <p className={cn('basis-full text-xs', warn ? 'text-yellow-200' : 'text-neutral-300')} data-testid="sync-state">
        {text}
      </p>
      <Label htmlFor={inputId} className="text-xs font-normal text-neutral-300">
        {FOOTAGE.offset}
      </Label>
      <div className="w-24">
        <Input
          id={inputId}
          name="offsetS"
          type="number"
          step="0.01"
          min={-MAX_OFFSET_S}
          max={MAX_OFFSET_S}
          required
          defaultValue={file.syncOffsetS.toFixed(2)}
          title={FOOTAGE.offsetHelp}
          aria-label={`${FOOTAGE.offset} ${file.camera}`}
        />
      </div>
      <Button size="sm" variant="outline" type="submit" disabled={set.isPending}>
        {FOOTAGE.saveOffset}
      </Button>
      {file.syncSource === 'admin' && (
        <Button size="sm" variant="ghost" type="button" disabled={set.isPending} onClick={() => save(null)}>
          {FOOTAGE.automaticOffset}
        </Button>
      )}
    </form>
  );
}
