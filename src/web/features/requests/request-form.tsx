// Request a Highlight Reel: an event, and games when the event lists them. After a successful
// submit the form locks; it stays locked, showing what was asked for, while a request is open.
import { useState, type FormEvent } from 'react';
import { DASHBOARD, REQUEST } from '../../../common/dashboard-messages';
import { PRICES } from '../../../common/prices';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Spinner } from '../../ui/spinner';
import { useProfile } from '../profile/api';
import { useEvents, useRequests, useSubmitRequest } from './api';

export function RequestForm() {
  const events = useEvents();
  const requests = useRequests();
  const submit = useSubmitRequest();
  const profile = useProfile();
  const [chosen, setEventId] = useState('');
  const [games, setGames] = useState<string[]>([]);

  const openRequest = requests.data?.find((r) => r.status !== 'delivered');
  const locked = Boolean(openRequest) || submit.isSuccess;
  // The event named at registration is chosen already, until the family picks another or has asked for it.
  const fromRegistration = profile.data?.registrationEventId;
  const preselected =
    fromRegistration && events.data?.some((e) => e.id === fromRegistration) && !requests.data?.some((r) => r.eventId === fromRegistration) ? fromRegistration : '';
  const eventId = chosen || preselected;
  // While a request is open the form shows that request: its event and its games.
  const shownEventId = openRequest?.eventId ?? eventId;
  const event = events.data?.find((e) => e.id === shownEventId);
  const shownGames = openRequest ? (event?.games.filter((g) => openRequest.games.includes(g.label)).map((g) => g.id) ?? []) : games;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!eventId) return notify.error(REQUEST.eventRequired);
    if (event && event.games.length > 0 && games.length === 0) return notify.error(REQUEST.gamesRequired);
    try {
      await submit.mutateAsync({ eventId, games });
      notify.success(REQUEST.submitted);
    } catch (error) {
      notify.error({ title: REQUEST.failedTitle, description: (error as Error).message || REQUEST.failedFallback });
    }
  };

  return (
    <Card>
      <CardTitle className="mb-1">{DASHBOARD.cards.request}</CardTitle>
      <p className="mb-5 text-sm text-neutral-400">{REQUEST.formIntro}</p>
      {events.isPending || requests.isPending ? (
        <Spinner />
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <fieldset disabled={locked} className="flex flex-col gap-4">
            <div role="radiogroup" aria-label="Event" className="flex flex-col gap-2">
              <p className="text-sm font-medium text-neutral-200">Event</p>
              {events.data?.length === 0 && (
                <p className="text-sm text-neutral-400" data-testid="request-no-events">
                  {REQUEST.noEvents}
                </p>
              )}
              {events.data?.map((ev) => {
                const checked = shownEventId === ev.id;
                return (
                  <label
                    key={ev.id}
                    className={cn(
                      'flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2.5 text-sm',
                      checked ? 'border-red-500 bg-red-950/20' : 'border-neutral-800 bg-neutral-950/50 hover:border-neutral-600',
                      locked && 'cursor-default',
                    )}
                  >
                    <input
                      type="radio"
                      name="event"
                      value={ev.id}
                      className="mt-1 h-4 w-4 accent-red-600"
                      checked={checked}
                      onChange={() => {
                        setEventId(ev.id);
                        setGames([]);
                      }}
                    />
                    <span>
                      <span className="block font-semibold text-white">
                        {ev.name}
                        {ev.demo && (
                          <span className="ml-2 rounded bg-yellow-900/60 px-1.5 py-0.5 align-middle text-xs font-normal text-yellow-100" title={REQUEST.demoHint}>
                            {REQUEST.demo}
                          </span>
                        )}
                      </span>
                      <span className="block text-neutral-400">
                        {ev.location} · {ev.dates}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
            {event && event.games.length > 0 && (
              <div role="group" aria-label="Games" className="flex flex-col gap-2">
                <p className="text-sm font-medium text-neutral-200">Games</p>
                {event.games.map((g) => (
                  <label key={g.id} className="flex items-start gap-3 rounded-md border border-neutral-800 bg-neutral-950/50 px-3 py-2 text-sm hover:border-neutral-600">
                    <input
                      type="checkbox"
                      className="mt-0.5 h-4 w-4 accent-red-600"
                      checked={shownGames.includes(g.id)}
                      onChange={(e) => setGames((prev) => (e.target.checked ? [...prev, g.id] : prev.filter((x) => x !== g.id)))}
                    />
                    <span>{g.label}</span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>
          {!locked && event && (
            <p className="text-sm text-neutral-300" data-testid="request-reel-source" data-source={event.reelsFrom}>
              {event.reelsFrom === 'footage' ? REQUEST.fromFootage : REQUEST.byHand}
            </p>
          )}
          {!locked && (
            <p className="text-sm text-neutral-400" data-testid="request-price">
              {PRICES.requestForm}
            </p>
          )}
          <Button type="submit" disabled={locked || submit.isPending || events.data?.length === 0}>
            {locked ? DASHBOARD.requestSubmitted : submit.isPending ? 'Submitting...' : 'Submit Request'}
          </Button>
          {openRequest && (
            <p className="text-sm text-neutral-300" data-testid="open-request">
              Your request for <span className="text-white">{openRequest.event}</span> is{' '}
              {openRequest.status === 'pending'
                ? 'with our team.'
                : openRequest.paid
                  ? 'paid: your reel is on its way.'
                  : openRequest.reel.fromFootage && openRequest.reel.state !== 'preview'
                    ? 'being prepared.'
                    : 'ready to purchase.'}
            </p>
          )}
        </form>
      )}
    </Card>
  );
}
