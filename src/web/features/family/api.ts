// The family's athletes (decision 0036): the list for the switcher, switching, adding and removing.
// Switching changes whose dashboard every part of the page shows, so the page starts afresh.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AddAthlete } from '../../../common/schemas';
import { api, unwrap } from '../../lib/api';
import { requestJson } from '../../lib/api-error';
import { JUST_LOADED_MS } from '../../lib/freshness';

export const familyQuery = queryOptions({
  queryKey: ['family'],
  queryFn: () => unwrap(api.family.$get()),
  staleTime: JUST_LOADED_MS,
});

export const useFamily = () => useQuery(familyQuery);

/** Reloads the dashboard for the athlete the server now acts for (its cookie is set), at `hash` if given. */
const showAthlete = (hash = '') => window.location.assign(`/dashboard${hash}`);

export async function switchAthlete(athleteId: string, hash = ''): Promise<void> {
  await unwrap(api.family.active.$put({ json: { athleteId } }));
  showAthlete(hash);
}

export async function addAthlete(values: AddAthlete): Promise<{ firstName: string }> {
  const { athlete } = await unwrap(api.family.athletes.$post({ json: values }));
  return athlete;
}

export async function removeAthlete(athleteId: string, password: string): Promise<void> {
  await requestJson<{ erased: boolean }>(`/api/family/athletes/${encodeURIComponent(athleteId)}/erase`, { method: 'POST', json: { password, understood: true } });
}

export { showAthlete };
