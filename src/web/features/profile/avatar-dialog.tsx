// The profile-picture reposition dialog: zoom 0.5x-3x, drag to place, circle crop, saved as a
// 320x320 JPEG. The uncropped original is kept on the server so it can be re-cropped later.
import { useState } from 'react';
import Cropper from 'react-easy-crop';
import { AVATAR_MAX_BYTES, AVATAR_ZOOM } from '../../../common/constants';
import { FILE_TOO_LARGE_5MB, INVALID_FILE_TYPE } from '../../../common/messages';
import { PROFILE } from '../../../common/dashboard-messages';
import { checkImageFile } from '../../lib/upload';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { useSaveAvatar } from './api';
import { cropToJpeg, type PixelArea } from './crop-image';

export interface AvatarSource {
  /** A newly picked file, or null when re-cropping the stored original. */
  file: File | null;
  url: string;
}

/** Checks a picked file with the spec's texts; returns a source for the dialog, or null. */
export function pickAvatar(file: File | undefined): AvatarSource | null {
  if (!file) return null;
  const problem = checkImageFile(file, AVATAR_MAX_BYTES);
  if (problem === 'type') return notify.error(INVALID_FILE_TYPE), null;
  if (problem === 'size') return notify.error(FILE_TOO_LARGE_5MB), null;
  return { file, url: URL.createObjectURL(file) };
}

export function AvatarDialog({ source, onClose }: { source: AvatarSource | null; onClose: () => void }) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<PixelArea | null>(null);
  const save = useSaveAvatar();

  const close = () => {
    if (source?.file) URL.revokeObjectURL(source.url);
    setZoom(1);
    setCrop({ x: 0, y: 0 });
    onClose();
  };

  const submit = async () => {
    if (!source || !area) return;
    try {
      const avatar = await cropToJpeg(source.url, area);
      await save.mutateAsync({ avatar, original: source.file });
      notify.success(PROFILE.avatarUpdated);
      close();
    } catch (error) {
      notify.error({ title: PROFILE.uploadFailedTitle, description: (error as Error).message || PROFILE.saveAvatarFailed });
    }
  };

  return (
    <Dialog open={Boolean(source)} onOpenChange={(open) => !open && close()}>
      <DialogContent title="Reposition photo" description="Drag to place your face in the circle and zoom to fit.">
        {source && (
          <div className="relative h-72 w-full overflow-hidden rounded-lg bg-neutral-950" data-testid="avatar-cropper">
            <Cropper
              image={source.url}
              crop={crop}
              zoom={zoom}
              minZoom={AVATAR_ZOOM.min}
              maxZoom={AVATAR_ZOOM.max}
              restrictPosition={false}
              aspect={1}
              cropShape="round"
              showGrid={false}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_a, pixels) => setArea(pixels)}
            />
          </div>
        )}
        <label className="mt-5 flex items-center gap-3 text-sm">
          <span className="w-12 text-neutral-400">Zoom</span>
          <input
            type="range"
            aria-label="Zoom"
            min={AVATAR_ZOOM.min}
            max={AVATAR_ZOOM.max}
            step={0.05}
            value={zoom}
            onChange={(e) => setZoom(Number(e.target.value))}
            className="flex-1 accent-red-600"
          />
          <span className="w-12 text-right tabular-nums text-neutral-300">{zoom.toFixed(1)}x</span>
        </label>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!area || save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
