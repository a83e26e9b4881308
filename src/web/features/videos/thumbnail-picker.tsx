// Thumbnail picker: scrub the video in 0.1 s steps, capture the frame, save it as a JPEG.
import { useRef, useState } from 'react';
import { THUMBNAIL_JPEG_QUALITY, THUMBNAIL_SCRUB_STEP_S } from '../../../common/constants';
import { MEDIA, PROFILE } from '../../../common/dashboard-messages';
import type { VideoDto } from '../../../server/videos/service';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { useSaveThumbnail } from './api';

function captureFrame(video: HTMLVideoElement): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(MEDIA.thumbnailFailed))), 'image/jpeg', THUMBNAIL_JPEG_QUALITY),
  );
}

export function ThumbnailPicker({ video, onClose }: { video: VideoDto | null; onClose: () => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const save = useSaveThumbnail();

  const submit = async () => {
    if (!video || !ref.current) return;
    try {
      const image = await captureFrame(ref.current);
      await save.mutateAsync({ videoId: video.id, image });
      notify.success(MEDIA.thumbnailUpdated);
      onClose();
    } catch (error) {
      notify.error({ title: PROFILE.uploadFailedTitle, description: (error as Error).message || MEDIA.thumbnailFailed });
    }
  };

  return (
    <Dialog open={Boolean(video)} onOpenChange={(o) => !o && onClose()}>
      <DialogContent title="Choose Thumbnail" description="Move the slider to the frame you want, then save it." size="lg">
        {video?.streamUrl && (
          <>
            <video
              ref={ref}
              src={video.streamUrl}
              muted
              playsInline
              preload="auto"
              className="aspect-video w-full rounded-lg bg-black"
              onLoadedMetadata={(e) => setDuration(e.currentTarget.duration)}
            />
            <label className="mt-4 flex items-center gap-3 text-sm">
              <span className="sr-only">Frame time</span>
              <input
                type="range"
                aria-label="Frame time"
                min={0}
                max={Math.max(duration, 0)}
                step={THUMBNAIL_SCRUB_STEP_S}
                value={time}
                onChange={(e) => {
                  const t = Number(e.target.value);
                  setTime(t);
                  if (ref.current) ref.current.currentTime = t;
                }}
                className="flex-1 accent-red-600"
              />
              <span className="w-16 text-right tabular-nums">{time.toFixed(1)} s</span>
            </label>
          </>
        )}
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={save.isPending || !duration}>
            {save.isPending ? 'Saving...' : 'Save Thumbnail'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
