// The reel builder's admin calls: events and games, footage, and matching a request again.
import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../../lib/api-error';
import { useAdminMutation } from '../admin/api';

export interface AdminGame {
  id: string;
  label: string;
  court: string | null;
  startsAt: string | null;
  archived: boolean;
}
export interface AdminEvent {
  id: string;
  name: string;
  location: string;
  dates: string;
  /** First and last day (YYYY-MM-DD); null for an event made before days were dates. */
  startsOn: string | null;
  endsOn: string | null;
  /** How its reels are made; footage uploaded makes them from footage whatever this says. */
  reelSource: 'footage' | 'hand';
  /** Sample data from `npm run seed:demo`. */
  demo: boolean;
  archived: boolean;
  games: AdminGame[];
}
export interface Footage {
  id: string;
  gameId: string;
  camera: string;
  originalName: string | null;
  sizeBytes: number;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  indexState: string;
  indexProgress: number;
  indexError: string | null;
  indexStats: Record<string, number> | null;
  /** Seconds to add to this camera's time for the game's clock. */
  syncOffsetS: number;
  /** reference, audio, admin, no_audio or not_found; null until the game's sound has been compared. */
  syncSource: string | null;
  /** The retention policy (YYYY-MM-DD the file goes), null while a request made for the event keeps it. */
  deletesOn?: string | null;
  keptForRequest?: boolean;
}
export const useAdminEvents = () => useQuery({ queryKey: ['admin', 'events'], queryFn: () => requestJson<AdminEvent[]>('/api/admin/events') });

export const useEventFootage = (eventId: string | undefined) =>
  useQuery({
    queryKey: ['admin', 'footage', eventId],
    queryFn: () => requestJson<Footage[]>(`/api/admin/events/${encodeURIComponent(eventId!)}/footage`),
    enabled: Boolean(eventId),
    // Live updates refresh it; a slow poll covers a dropped stream while something is indexing.
    refetchInterval: (query) => (query.state.data?.some((f) => f.indexState === 'indexing' || f.indexState === 'queued') ? 5000 : false),
  });

export interface EventFields {
  name: string;
  location: string;
  startsOn: string;
  endsOn: string | null;
  reelSource: 'footage' | 'hand';
}
export const useCreateEvent = () => useAdminMutation((json: EventFields) => requestJson<{ id: string }>('/api/admin/events', { method: 'POST', json }));
export const useUpdateEvent = () =>
  useAdminMutation(({ id, ...json }: { id: string; archived?: boolean } & Partial<EventFields>) => requestJson(`/api/admin/events/${encodeURIComponent(id)}`, { method: 'PATCH', json }));
export const useRenameCamera = () => useAdminMutation(({ id, camera }: { id: string; camera: string }) => requestJson<Footage>(`/api/admin/footage/${id}`, { method: 'PATCH', json: { camera } }));
export const useAddGame = () =>
  useAdminMutation(({ eventId, ...json }: { eventId: string; label: string; court?: string | null; startsAt?: string | null }) =>
    requestJson<{ id: string }>(`/api/admin/events/${encodeURIComponent(eventId)}/games`, { method: 'POST', json }),
  );
export const useUpdateGame = () =>
  useAdminMutation(({ id, ...json }: { id: string; archived?: boolean; label?: string; court?: string | null; startsAt?: string | null }) => requestJson(`/api/admin/games/${encodeURIComponent(id)}`, { method: 'PATCH', json }));
export const useReindex = () => useAdminMutation((id: string) => requestJson(`/api/admin/footage/${id}/reindex`, { method: 'POST' }));
export const useDeleteFootage = () => useAdminMutation((id: string) => requestJson(`/api/admin/footage/${id}`, { method: 'DELETE' }));
export const useMatchAgain = () => useAdminMutation((requestId: string) => requestJson(`/api/admin/requests/${requestId}/match`, { method: 'POST' }));
/** An admin's offset for a camera, or null to let the sound decide again. */
export const useSetOffset = () =>
  useAdminMutation(({ id, offsetS }: { id: string; offsetS: number | null }) => requestJson<Footage>(`/api/admin/footage/${id}/offset`, { method: 'PUT', json: { offsetS } }));
