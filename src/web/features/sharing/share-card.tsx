// Share with family (issue 34, item 2): for each delivered reel, a private link for relatives
// with no account. How long it works (30 days unless chosen) and whether the photos go with it
// are chosen before it is made; its address is shown once, with a Copy button; the links made
// say how often they were opened and can be turned off. Nothing shows before a reel is delivered.
import { Check, Copy, Link2, Share2 } from 'lucide-react';
import { useState } from 'react';
import { SHARE } from '../../../common/dashboard-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Field, Input, NativeSelect } from '../../ui/form-controls';
import { useRequests } from '../requests/api';
import { useCreateShareLink, useRevokeShareLink, useShareLinks } from './api';

const DAY_CHOICES = [7, 30, 90] as const;
const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });

export function ShareCard({ familyOnly }: { familyOnly: boolean }) {
  const requests = useRequests();
  const delivered = requests.data?.filter((r) => r.status === 'delivered' && r.paid) ?? [];
  const links = useShareLinks(delivered.length > 0);
  if (!delivered.length) return null;
  return (
    <Card data-testid="share-card">
      <CardTitle className="mb-1 flex items-center gap-2">
        <Link2 className="h-5 w-5 text-red-500" aria-hidden="true" />
        {SHARE.title}
      </CardTitle>
      <p className="mb-4 text-sm text-neutral-300">{SHARE.intro}</p>
      <div className="flex flex-col gap-6">
        {delivered.map((request) => (
          <ReelLinks
            key={request.id}
            requestId={request.id}
            event={delivered.length > 1 ? request.event : null}
            links={links.data?.filter((l) => l.requestId === request.id) ?? []}
            familyOnly={familyOnly}
          />
        ))}
      </div>
    </Card>
  );
}

type Link = NonNullable<ReturnType<typeof useShareLinks>['data']>[number];

function ReelLinks({ requestId, event, links, familyOnly }: { requestId: string; event: string | null; links: Link[]; familyOnly: boolean }) {
  const create = useCreateShareLink();
  const revoke = useRevokeShareLink();
  const [days, setDays] = useState(30);
  const [includePhotos, setIncludePhotos] = useState(false);
  const [made, setMade] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const make = () =>
    create.mutate(
      { requestId, days, includePhotos },
      {
        onSuccess: (link) => {
          setMade(link.url);
          setCopied(false);
        },
        onError: (error) => notify.error({ title: SHARE.title, description: error.message || SHARE.failed }),
      },
    );
  const copy = async () => {
    if (!made) return;
    await navigator.clipboard?.writeText(made).catch(() => undefined);
    setCopied(true);
  };

  return (
    <section aria-label={event ?? SHARE.title} className="flex flex-col gap-3">
      {event && <h3 className="font-semibold text-white">{event}</h3>}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label={SHARE.validFor} className="sm:w-40">
          <NativeSelect value={days} onChange={(e) => setDays(Number(e.target.value))} disabled={familyOnly}>
            {DAY_CHOICES.map((n) => (
              <option key={n} value={n}>
                {SHARE.days(n)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <label className="flex min-h-11 items-center gap-3 text-sm text-white">
          <input type="checkbox" className="h-5 w-5 accent-red-600" checked={includePhotos} onChange={(e) => setIncludePhotos(e.target.checked)} disabled={familyOnly} />
          {SHARE.includePhotos}
        </label>
        <Button onClick={make} disabled={create.isPending || familyOnly} className="sm:ml-auto">
          {create.isPending ? SHARE.making : SHARE.make}
        </Button>
      </div>
      {familyOnly && <p className="text-sm text-yellow-100">{SHARE.familyOnly}</p>}
      {made && (
        <div className="flex flex-col gap-2 rounded-lg border border-green-800 bg-green-950/30 p-3" data-testid="share-made">
          <p className="text-sm text-green-200" role="status">
            {SHARE.created}
          </p>
          <div className="flex gap-2">
            <Input readOnly value={made} aria-label={SHARE.linkLabel} onFocus={(e) => e.currentTarget.select()} className="min-w-0 flex-1 font-mono text-xs" data-testid="share-url" />
            <Button variant="outline" onClick={copy} aria-label={copied ? SHARE.copied : SHARE.copy}>
              {copied ? <Check className="h-4 w-4" aria-hidden="true" /> : <Copy className="h-4 w-4" aria-hidden="true" />}
              <span className="hidden sm:inline">{copied ? SHARE.copied : SHARE.copy}</span>
            </Button>
            {/* A phone's own share sheet (messages, mail), where the browser has one. */}
            {canShare && (
              <Button variant="outline" onClick={() => void navigator.share({ title: SHARE.title, url: made }).catch(() => undefined)} aria-label={SHARE.send}>
                <Share2 className="h-4 w-4" aria-hidden="true" />
              </Button>
            )}
          </div>
        </div>
      )}
      {links.length === 0 ? (
        <p className="text-sm text-neutral-400">{SHARE.none}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {links.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-neutral-800 px-3 py-2 text-sm" data-testid="share-link" data-state={link.state}>
              <span className="min-w-0 text-neutral-200">
                <span className="font-semibold text-white">{link.includePhotos ? SHARE.withPhotos : SHARE.reelOnly}</span>
                {' · '}
                {link.state === 'revoked' ? SHARE.revoked : link.state === 'expired' ? SHARE.expired(day(link.expiresAt)) : SHARE.expires(day(link.expiresAt))}
                {' · '}
                <span data-testid="share-opened">{SHARE.opened(link.openCount)}</span>
              </span>
              {link.state === 'active' && (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={revoke.isPending || familyOnly}
                  onClick={() =>
                    revoke.mutate(link.id, {
                      onSuccess: () => notify.success(SHARE.revokedToast),
                      onError: (error) => notify.error({ title: SHARE.title, description: error.message }),
                    })
                  }
                >
                  {SHARE.revoke}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
