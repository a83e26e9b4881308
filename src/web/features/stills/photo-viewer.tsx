// A still full size, fit to the screen: previous/next by button, arrow key or swipe, "Photo 3 of
// 12", and a Download link whose file name the server sets. Radix traps focus and closes on Escape.
import { ChevronLeft, ChevronRight, Download, X } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { PHOTO_VIEWER } from '../../../common/dashboard-messages';
import { Button } from '../../ui/button';
import { Dialog, DialogClose, FullscreenDialogContent } from '../../ui/dialog';

export interface ViewerPhoto {
  id: string;
  url: string;
  downloadUrl: string;
}

/** How far a finger must travel sideways (px) for a swipe to turn the photo. */
const SWIPE_PX = 50;

export function PhotoViewer({
  photos,
  index,
  onIndexChange,
  onClose,
  onCloseAutoFocus,
}: {
  photos: ViewerPhoto[];
  /** The photo shown; null: closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** Where focus goes back to (the thumbnail of the photo last shown). */
  onCloseAutoFocus: (event: Event) => void;
}) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const total = photos.length;
  const photo = index == null ? null : photos[index];
  const step = (by: number) => {
    if (index != null) onIndexChange((index + by + total) % total);
  };

  // The neighbours load while this one is looked at, so the next swipe shows a photo at once.
  useEffect(() => {
    if (index == null || total < 2) return;
    for (const i of [(index + 1) % total, (index - 1 + total) % total]) new Image().src = photos[i]!.url;
  }, [index, photos, total]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'ArrowLeft') step(-1);
    else return;
    e.preventDefault();
  };
  const onPointerDown = (e: PointerEvent) => {
    start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
  };
  const onPointerUp = (e: PointerEvent) => {
    const from = start.current;
    start.current = null;
    if (!from || from.id !== e.pointerId) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    // Sideways and far enough: a swipe. Left brings the next photo, as a page turns.
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) step(dx < 0 ? 1 : -1);
  };

  return (
    <Dialog open={photo != null} onOpenChange={(open) => !open && onClose()}>
      {photo && index != null && (
        <FullscreenDialogContent title={PHOTO_VIEWER.title} description={PHOTO_VIEWER.hint} onKeyDown={onKeyDown} onCloseAutoFocus={onCloseAutoFocus} data-testid="photo-viewer">
          <div className="flex min-w-0 items-center justify-between gap-2 px-3 py-3 sm:px-6">
            <p className="min-w-0 truncate text-sm font-semibold text-white sm:text-base" aria-live="polite" data-testid="photo-counter">
              {PHOTO_VIEWER.counter(index + 1, total)}
            </p>
            <div className="flex shrink-0 items-center gap-2">
              <Button asChild size="sm">
                <a href={photo.downloadUrl} download>
                  <Download className="h-4 w-4" aria-hidden="true" />
                  {PHOTO_VIEWER.download}
                </a>
              </Button>
              <DialogClose asChild>
                <Button variant="outline" size="icon" aria-label={PHOTO_VIEWER.close}>
                  <X className="h-5 w-5" aria-hidden="true" />
                </Button>
              </DialogClose>
            </div>
          </div>
          <div
            className="relative flex min-h-0 flex-1 touch-none select-none items-center justify-center px-2 pb-4 sm:px-16"
            onPointerDown={onPointerDown}
            onPointerUp={onPointerUp}
            onPointerCancel={() => (start.current = null)}
            data-testid="photo-stage"
          >
            <img
              key={photo.id}
              src={photo.url}
              alt={PHOTO_VIEWER.counter(index + 1, total)}
              className="max-h-full max-w-full object-contain"
              draggable={false}
              data-testid="photo-full"
            />
            {total > 1 && (
              <>
                <Button
                  variant="outline"
                  size="icon"
                  className="absolute left-2 top-1/2 -translate-y-1/2 bg-neutral-950/70 sm:left-4"
                  aria-label={PHOTO_VIEWER.previous}
                  onClick={() => step(-1)}
                >
                  <ChevronLeft className="h-6 w-6" aria-hidden="true" />
                </Button>
                <Button
                  variant="outline"
                  size="icon"
                  className="absolute right-2 top-1/2 -translate-y-1/2 bg-neutral-950/70 sm:right-4"
                  aria-label={PHOTO_VIEWER.next}
                  onClick={() => step(1)}
                >
                  <ChevronRight className="h-6 w-6" aria-hidden="true" />
                </Button>
              </>
            )}
          </div>
        </FullscreenDialogContent>
      )}
    </Dialog>
  );
}
