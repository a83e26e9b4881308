// The dashboard's card for a reel made from the event's footage, before it is paid for (issue 22):
// what is happening while the athlete is looked for, what helps when nothing was found, and once
// rendered the watermarked preview with the Purchase button. The server decides the state.
import { Clapperboard, ImagePlus, LoaderCircle, ScanFace, SearchX } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { REEL_STATUS } from '../../../common/dashboard-messages';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';

export type ReelState = 'awaiting_footage' | 'finding' | 'not_found' | 'no_consent' | 'preview';

/** The ready-to-purchase mail links to the dashboard at this card. */
const ANCHOR = 'reel-preview';

export function ReelStatus({
  state,
  athleteName,
  previewUrl,
  camerasNotSearched = 0,
  anchor = true,
  children,
}: {
  state: ReelState | null;
  athleteName: string | null;
  previewUrl?: string | null;
  camerasNotSearched?: number;
  /** This card is where the ready-to-purchase mail's link lands (the first one, when there are several). */
  anchor?: boolean;
  children?: ReactNode;
}) {
  const name = athleteName?.trim() || REEL_STATUS.athleteFallback;
  const card = useRef<HTMLElement>(null);
  // The page's data arrives after the browser looked for #reel-preview: scroll to it once it is here.
  useEffect(() => {
    if (anchor && window.location.hash === `#${ANCHOR}`) card.current?.scrollIntoView({ block: 'start' });
  }, [anchor]);

  return (
    <Card ref={card} id={anchor ? ANCHOR : undefined} className="scroll-mt-20" data-testid="reel-status" data-state={state ?? 'finding'}>
      <CardTitle className="mb-3">{state === 'preview' ? REEL_STATUS.previewTitle : REEL_STATUS.title(name)}</CardTitle>
      {state === 'preview' && previewUrl ? (
        <div className="grid gap-5 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] md:items-center">
          <video
            src={previewUrl}
            controls
            playsInline
            preload="metadata"
            width={640}
            height={360}
            className="aspect-video w-full rounded-lg bg-black"
            aria-label={REEL_STATUS.previewLabel(name)}
            data-testid="reel-preview"
          />
          <div className="flex flex-col gap-4">
            <p className="text-sm text-neutral-300">{REEL_STATUS.previewCaption}</p>
            {children}
          </div>
        </div>
      ) : state === 'awaiting_footage' ? (
        <p className="flex items-start gap-3 text-sm text-neutral-200" role="status" data-testid="reel-awaiting-footage">
          <Clapperboard className="mt-0.5 h-5 w-5 shrink-0 text-neutral-400" aria-hidden="true" />
          <span>{REEL_STATUS.awaitingFootage(name)}</span>
        </p>
      ) : state === 'not_found' ? (
        <ReelAdvice icon={SearchX} testId="reel-not-found" text={REEL_STATUS.notFound(name)}>
          <ImagePlus className="h-4 w-4" aria-hidden="true" />
          {REEL_STATUS.addPhotos}
        </ReelAdvice>
      ) : state === 'no_consent' ? (
        <p className="flex items-start gap-3 text-sm text-neutral-200" role="status" data-testid="reel-no-consent">
          <ScanFace className="mt-0.5 h-5 w-5 shrink-0 text-neutral-400" aria-hidden="true" />
          <span>{REEL_STATUS.noConsent(name)}</span>
        </p>
      ) : (
        <p className="flex items-start gap-3 text-sm text-neutral-200" role="status" data-testid="reel-finding">
          <LoaderCircle className="mt-0.5 h-5 w-5 shrink-0 animate-spin text-red-500 motion-reduce:animate-none" aria-hidden="true" />
          <span>
            {REEL_STATUS.finding(name)}
            {camerasNotSearched > 0 && <span className="mt-1 block text-neutral-300" data-testid="reel-cameras-waiting">{REEL_STATUS.camerasNotSearched(camerasNotSearched)}</span>}
          </span>
        </p>
      )}
    </Card>
  );
}

/** What stops the reel, and a link to the face-matching card that helps. */
function ReelAdvice({ icon: Icon, testId, text, children }: { icon: typeof SearchX; testId: string; text: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-4">
      <p className="flex items-start gap-3 text-sm text-neutral-200" data-testid={testId}>
        <Icon className="mt-0.5 h-5 w-5 shrink-0 text-yellow-400" aria-hidden="true" />
        <span>{text}</span>
      </p>
      <Button asChild variant="outline" className="w-full md:w-auto md:self-start">
        <a href="#face-matching">{children}</a>
      </Button>
    </div>
  );
}
