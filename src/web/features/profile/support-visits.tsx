// When our support team viewed this account ("View as User"): the family can always see it.
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { api, unwrap } from '../../lib/api';
import { JUST_LOADED_MS } from '../../lib/freshness';
import { Card, CardTitle } from '../../ui/card';

export const SUPPORT_VISITS_KEY = ['profile', 'support-visits'];

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' });
const minutes = (from: string, to: string) => Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));

export function SupportVisits() {
  const visits = useQuery({ queryKey: SUPPORT_VISITS_KEY, queryFn: () => unwrap(api.profile['support-visits'].$get()), staleTime: JUST_LOADED_MS });
  if (!visits.data?.length) return null;
  return (
    <Card>
      <CardTitle className="mb-3 flex items-center gap-2">
        <ShieldCheck className="h-5 w-5 text-red-500" aria-hidden="true" />
        Support Visits
      </CardTitle>
      <p className="mb-3 text-sm text-neutral-300">Times our support team viewed your account to help you.</p>
      <ul className="flex flex-col gap-1.5 text-sm text-neutral-200" data-testid="support-visits">
        {visits.data.map((v) => (
          <li key={v.startedAt}>
            {when(v.startedAt)}
            {/* Every visit ends (Exit, its hour, or the admin's access removed) and says when. */}
            {v.endedAt ? ` · ended ${time(v.endedAt)} (${minutes(v.startedAt, v.endedAt)} min)` : ' · going on now'}
          </li>
        ))}
      </ul>
    </Card>
  );
}
