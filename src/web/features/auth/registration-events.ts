// GET /api/account/events: the events the provider runs, for the registration's Event list.
// Public and small, so it is fetched directly (the public pages do not load the query library).
import { useEffect, useState } from 'react';
import type { RegistrationEventOption } from '../../../server/events/queries';
import { requestJson } from '../../lib/api-error';

/** The events to offer; empty until loaded, and if they cannot be loaded ("Other" still works). */
export function useRegistrationEvents(): RegistrationEventOption[] {
  const [events, setEvents] = useState<RegistrationEventOption[]>([]);
  useEffect(() => {
    let cancelled = false;
    requestJson<RegistrationEventOption[]>('/api/account/events').then(
      (list) => void (cancelled || setEvents(list)),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return events;
}
