// Request a Highlight Reel: an event, and games when the event lists them. After a successful
// submit the form locks; it stays locked, showing what was asked for, while a request is open.
// "Ask for another event" opens it again for an event not asked for yet: a family can have open
// requests for several events at once (issue 34, item 1), each listed with how it stands.
import { useState, type FormEvent } from 'react';
import { DASHBOARD, REQUEST } from '../../../common/dashboard-messages';
import { PRICES } from '../../../common/prices';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Field, Input, NativeSelect } from '../../ui/form-controls';
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
  const [adding, setAdding] = useState(false);
  // At an event with rosters: the athlete's team and shirt number, from the profile until changed.
  const [team, setTeam] = useState<string | null>(null);
  const [number, setNumber] = useState<string | null>(null);

  // Newest first (the server's order): the locked form shows the latest.
  const openRequests = requests.data?.filter((r) => r.status !== 'delivered') ?? [];
  const openRequest = adding ? undefined : openRequests[0];
  const openEventIds = new Set(openRequests.map((r) => r.eventId));
  const locked = Boolean(openRequest) || (submit.isSuccess && !adding);
  const canAddAnother = locked && Boolean(events.data?.some((e) => !openEventIds.has(e.id)));
  // The event named at registration is chosen already, until the family picks another or has asked for it.
  const fromRegistration = profile.data?.registrationEventId;
  const preselected =
    fromRegistration && events.data?.some((e) => e.id === fromRegistration) && !requests.data?.some((r) => r.eventId === fromRegistration) ? fromRegistration : '';
  const eventId = chosen || preselected;
  // While a request is open the form shows that request: its event and its games.
  const shownEventId = openRequest?.eventId ?? eventId;
  const event = events.data?.find((e) => e.id === shownEventId);
  const shownGames = openRequest ? (event?.games.filter((g) => openRequest.games.includes(g.label)).map((g) => g.id) ?? []) : games;
  const teams = event?.teams ?? [];
  const profileTeam = teams.find((t) => t.toLowerCase() === (profile.data?.teamName ?? '').trim().toLowerCase()) ?? '';
  const shownTeam = openRequest ? (openRequest.team ?? '') : (team ?? profileTeam);
  const shownNumber = openRequest ? String(openRequest.jerseyNumber ?? '') : (number ?? (profile.data?.jerseyNumber != null ? String(profile.data.jerseyNumber) : ''));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!eventId) return notify.error(REQUEST.eventRequired);
    if (event && event.games.length > 0 && games.length === 0) return notify.error(REQUEST.gamesRequired);
    const roster = teams.length > 0 ? { team: shownTeam || null, jerseyNumber: shownNumber.trim() === '' ? null : Number(shownNumber) } : {};
    try {
      await submit.mutateAsync({ eventId, games, ...roster });
      setAdding(false);
      setEventId('');
      setGames([]);
      setTeam(null);
      setNumber(null);
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
                // Asked for already: not again while that request is open.
                const taken = !locked && openEventIds.has(ev.id);
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
                      disabled={taken}
                      onChange={() => {
                        setEventId(ev.id);
                        setGames([]);
                      }}
                    />
                    <span>
                      <span className="block font-semibold text-white">
                        {ev.name}
                        {taken && <span className="ml-2 rounded bg-neutral-800 px-1.5 py-0.5 align-middle text-xs font-normal text-neutral-200">{REQUEST.requested}</span>}
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
          {event && teams.length > 0 && (
            <fieldset className="flex flex-col gap-3" disabled={locked} data-testid="request-team">
              <legend className="mb-1 text-xs text-neutral-400">{REQUEST.teamHint}</legend>
              <div className="grid grid-cols-[minmax(0,1fr)_7rem] gap-3">
                <Field label={REQUEST.team}>
                  <NativeSelect value={shownTeam} onChange={(e) => setTeam(e.target.value)}>
                    <option value="">—</option>
                    {teams.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field label={REQUEST.number}>
                  <Input inputMode="numeric" maxLength={4} value={shownNumber} onChange={(e) => setNumber(e.target.value)} />
                </Field>
              </div>
            </fieldset>
          )}
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
          {canAddAnother && (
            <Button type="button" variant="outline" onClick={() => setAdding(true)} data-testid="request-another">
              {REQUEST.another}
            </Button>
          )}
          {adding && (
            <Button type="button" variant="ghost" onClick={() => setAdding(false)}>
              {REQUEST.cancelAnother}
            </Button>
          )}
          {openRequests.length > 0 && (
            <ul className="flex flex-col gap-1.5" aria-label={REQUEST.openRequests}>
              {openRequests.map((r) => (
                <li key={r.id} className="text-sm text-neutral-300" data-testid="open-request">
                  Your request for <span className="text-white">{r.event}</span> is{' '}
                  {r.status === 'pending'
                    ? REQUEST.states.pending
                    : r.paid
                      ? REQUEST.states.paid
                      : r.reel.fromFootage && r.reel.state !== 'preview'
                        ? REQUEST.states.preparing
                        : REQUEST.states.ready}
                </li>
              ))}
            </ul>
          )}
        </form>
      )}
    </Card>
  );
}
