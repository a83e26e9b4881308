// Request a Highlight Reel: an event, and games when the event lists them. After a successful
// submit the form locks; it stays locked while a request for that event is open.
import { useState, type FormEvent } from 'react';
import { DASHBOARD, REQUEST } from '../../../common/messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Field, NativeSelect } from '../../ui/form-controls';
import { Spinner } from '../../ui/spinner';
import { useEvents, useRequests, useSubmitRequest } from './api';

export function RequestForm() {
  const events = useEvents();
  const requests = useRequests();
  const submit = useSubmitRequest();
  const [eventId, setEventId] = useState('');
  const [games, setGames] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);

  const event = events.data?.find((e) => e.id === eventId);
  const openRequest = requests.data?.find((r) => r.status !== 'delivered');
  const locked = submitted || Boolean(openRequest);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!eventId) return notify.error(REQUEST.eventRequired);
    if (event && event.games.length > 0 && games.length === 0) return notify.error(REQUEST.gamesRequired);
    try {
      await submit.mutateAsync({ eventId, games });
      setSubmitted(true);
      notify.success(REQUEST.submitted);
    } catch (error) {
      notify.error({ title: REQUEST.failedTitle, description: (error as Error).message || REQUEST.failedFallback });
    }
  };

  return (
    <Card>
      <CardTitle className="mb-1">{DASHBOARD.cards.request}</CardTitle>
      <p className="mb-5 text-sm text-neutral-400">Pick the event and the games your athlete played. Reels take 7-10 business days.</p>
      {events.isPending ? (
        <Spinner />
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <fieldset disabled={locked} className="flex flex-col gap-4 disabled:opacity-60">
            <Field label="Event">
              <NativeSelect
                value={eventId}
                onChange={(e) => {
                  setEventId(e.target.value);
                  setGames([]);
                }}
              >
                <option value="">Select an event</option>
                {events.data?.map((ev) => (
                  <option key={ev.id} value={ev.id}>
                    {ev.name} · {ev.location} · {ev.dates}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {event && event.games.length > 0 && (
              <div role="group" aria-label="Games" className="flex flex-col gap-2">
                <p className="text-sm font-medium text-neutral-200">Games</p>
                {event.games.map((g) => (
                  <label key={g.id} className="flex items-start gap-3 rounded-md border border-neutral-800 bg-neutral-950/50 px-3 py-2 text-sm hover:border-neutral-600">
                    <input
                      type="checkbox"
                      className="mt-0.5 h-4 w-4 accent-red-600"
                      checked={games.includes(g.id)}
                      onChange={(e) => setGames((prev) => (e.target.checked ? [...prev, g.id] : prev.filter((x) => x !== g.id)))}
                    />
                    <span>{g.label}</span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>
          <Button type="submit" disabled={locked || submit.isPending}>
            {locked ? DASHBOARD.requestSubmitted : submit.isPending ? 'Submitting...' : 'Submit Request'}
          </Button>
          {openRequest && (
            <p className="text-sm text-neutral-400">
              Your request for <span className="text-white">{openRequest.event}</span> is{' '}
              {openRequest.status === 'pending' ? 'with our team.' : 'ready to purchase.'}
            </p>
          )}
        </form>
      )}
    </Card>
  );
}
