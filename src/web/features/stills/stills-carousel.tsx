// Your Photos: a looping carousel of the athlete's stills in their set order, each downloadable
// and opening full size in the photo viewer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import useEmblaCarousel from 'embla-carousel-react';
import { ChevronLeft, ChevronRight, Download } from 'lucide-react';
import { useRef, useState } from 'react';
import { DASHBOARD, MEDIA, PHOTO_VIEWER } from '../../../common/dashboard-messages';
import { api, unwrap } from '../../lib/api';
import { JUST_LOADED_MS } from '../../lib/freshness';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Spinner } from '../../ui/spinner';
import { PhotoViewer } from './photo-viewer';

export const stillsQuery = queryOptions({ queryKey: ['stills'], queryFn: () => unwrap(api.stills.$get()), staleTime: JUST_LOADED_MS });

export function StillsCarousel() {
  const stills = useQuery(stillsQuery);
  const [viewport, embla] = useEmblaCarousel({ loop: true, align: 'start' });
  const [viewing, setViewing] = useState<number | null>(null);
  const lastViewed = useRef(0);
  const thumbnails = useRef<Array<HTMLButtonElement | null>>([]);

  const open = (index: number) => {
    lastViewed.current = index;
    setViewing(index);
  };
  // Focus goes back to the thumbnail of the photo last shown, brought into view first.
  const returnFocus = (event: Event) => {
    event.preventDefault();
    embla?.scrollTo(lastViewed.current, true);
    thumbnails.current[lastViewed.current]?.focus({ preventScroll: true });
  };

  return (
    <Card className="min-w-0">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <CardTitle className="min-w-0">{DASHBOARD.cards.photos}</CardTitle>
        {stills.data && stills.data.length > 1 && (
          <div className="flex gap-2">
            <Button variant="outline" size="icon" aria-label={PHOTO_VIEWER.previous} onClick={() => embla?.scrollPrev()}>
              <ChevronLeft className="h-5 w-5" />
            </Button>
            <Button variant="outline" size="icon" aria-label={PHOTO_VIEWER.next} onClick={() => embla?.scrollNext()}>
              <ChevronRight className="h-5 w-5" />
            </Button>
          </div>
        )}
      </div>
      {stills.isPending ? (
        <Spinner label="Loading photos..." />
      ) : stills.isError ? (
        <p role="alert" className="text-red-400">{MEDIA.stillsLoadFailed}</p>
      ) : stills.data.length === 0 ? (
        <p className="text-neutral-400">Photo stills from your athlete's games will appear here.</p>
      ) : (
        <>
          <div className="overflow-hidden" ref={viewport} data-carousel>
            <ul className="flex">
              {stills.data.map((s, i) => (
                <li key={s.id} className="min-w-0 flex-[0_0_85%] pr-4 sm:flex-[0_0_50%]">
                  <figure className="overflow-hidden rounded-lg border border-neutral-800 bg-neutral-950">
                    <button
                      type="button"
                      ref={(el) => {
                        thumbnails.current[i] = el;
                      }}
                      onClick={() => open(i)}
                      className="block w-full cursor-zoom-in focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-red-500"
                      aria-label={PHOTO_VIEWER.open(i + 1)}
                    >
                      <img src={s.url} alt={`Photo ${i + 1}`} className="aspect-[4/3] w-full object-cover" loading="lazy" />
                    </button>
                    <figcaption className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 p-3 text-sm text-neutral-400">
                      <span>Photo {i + 1}</span>
                      {/* No file name of our own: the server names it for the family. */}
                      <a href={s.downloadUrl} download className="inline-flex items-center gap-1 text-red-400 hover:underline">
                        <Download className="h-4 w-4" aria-hidden="true" /> Download
                      </a>
                    </figcaption>
                  </figure>
                </li>
              ))}
            </ul>
          </div>
          <PhotoViewer
            photos={stills.data}
            index={viewing}
            onIndexChange={(i) => {
              lastViewed.current = i;
              setViewing(i);
            }}
            onClose={() => setViewing(null)}
            onCloseAutoFocus={returnFocus}
          />
        </>
      )}
    </Card>
  );
}
