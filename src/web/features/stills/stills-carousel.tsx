// Your Photos: a looping carousel of the athlete's stills in their set order, each downloadable.
import { queryOptions, useQuery } from '@tanstack/react-query';
import useEmblaCarousel from 'embla-carousel-react';
import { ChevronLeft, ChevronRight, Download } from 'lucide-react';
import { DASHBOARD, MEDIA } from '../../../common/dashboard-messages';
import { api, unwrap } from '../../lib/api';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Spinner } from '../../ui/spinner';

export const stillsQuery = queryOptions({ queryKey: ['stills'], queryFn: () => unwrap(api.stills.$get()) });

export function StillsCarousel() {
  const stills = useQuery(stillsQuery);
  const [viewport, embla] = useEmblaCarousel({ loop: true, align: 'start' });
  return (
    <Card>
      <div className="mb-4 flex items-center justify-between gap-3">
        <CardTitle>{DASHBOARD.cards.photos}</CardTitle>
        {stills.data && stills.data.length > 1 && (
          <div className="flex gap-2">
            <Button variant="outline" size="icon" aria-label="Previous photo" onClick={() => embla?.scrollPrev()}>
              <ChevronLeft className="h-5 w-5" />
            </Button>
            <Button variant="outline" size="icon" aria-label="Next photo" onClick={() => embla?.scrollNext()}>
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
        <div className="overflow-hidden" ref={viewport}>
          <ul className="flex">
            {stills.data.map((s, i) => (
              <li key={s.id} className="min-w-0 flex-[0_0_85%] pr-4 sm:flex-[0_0_50%]">
                <figure className="overflow-hidden rounded-lg border border-neutral-800 bg-neutral-950">
                  <img src={s.url} alt={`Photo ${i + 1}`} className="aspect-[4/3] w-full object-cover" loading="lazy" />
                  <figcaption className="flex items-center justify-between p-3 text-sm text-neutral-400">
                    <span>Photo {i + 1}</span>
                    <a href={s.downloadUrl} download className="inline-flex items-center gap-1 text-red-400 hover:underline">
                      <Download className="h-4 w-4" aria-hidden="true" /> Download
                    </a>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
