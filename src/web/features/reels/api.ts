// The review screen's calls: the request's clips, moments and render, and every change to them.
// Each change is saved on the server at once; live updates ('reel_review') refresh other admins.
import type { PersonReason } from '../../../server/people/decide';
import type { UnsearchedCamera } from './matching-state';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../lib/api-error';

export interface ReviewClip {
  id: string;
  footageId: string;
  gameId: string;
  camera: string;
  startS: number;
  endS: number;
  /** First and last sighting of the face and how many samples saw it (null: added by hand). */
  seenStartS: number | null;
  seenEndS: number | null;
  samples: number | null;
  distance: number;
  confidence: number;
  faceHeight: number;
  unsure: boolean;
  lookalike: boolean;
  /** athletes: whether it is the profile's number; null when the profile has none. */
  jersey: { number: number; athletes: boolean | null } | null;
  /** Why it was proposed where people were weighed (the shirt, the face, what was missing); null: by face alone. */
  reason: PersonReason | null;
  /** The athlete's box at each sample, [t, x, y, w, h]: the tracked person's, or the face's. */
  athlete: { of: 'person' | 'face'; boxes: number[][] };
  rank: number;
  decision: 'accepted' | 'rejected' | null;
  position: number | null;
  manual: boolean;
  /** A hand-added clip's search for the athlete's face (null for a found clip, whose tracks are the face). */
  faceSearch: 'looking' | 'found' | 'none' | null;
  thumbnailUrl: string | null;
}
export interface ReviewFootage {
  id: string;
  gameId: string;
  camera: string;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  indexState: string;
  /** Seconds to add to a time in this file for the game's clock (footage/sync.ts). */
  syncOffsetS: number;
  syncSource: string | null;
  streamUrl: string;
}
export interface Moment {
  gameId: string;
  /** On the game's clock (a clip's own times are its file's). */
  startS: number;
  endS: number;
  appearanceIds: string[];
  preferredId: string;
}
export interface Render {
  id: string;
  state: 'queued' | 'rendering' | 'ready' | 'failed';
  stage: string | null;
  progress: number;
  error: string | null;
  spotlight: boolean;
  createdAt: string;
  finishedAt: string | null;
  stats: Record<string, number> | null;
}
export interface RosterLink {
  team: string | null;
  jerseyNumber: number | null;
  rosterName: string | null;
  doubts: Array<'no_entry' | 'claimed_twice' | 'lookalike'>;
  confirmedAt: string | null;
}
export interface Review {
  request: {
    id: string;
    userId: string;
    status: string;
    event: string;
    eventId: string | null;
    games: string[];
    matchingState: string | null;
    lookalike: boolean;
    paid: boolean;
    stage: string;
    nothingFound: boolean;
    unsearched: UnsearchedCamera[];
    /** At an event with rosters (issue 35, item 1). */
    roster: RosterLink | null;
  };
  athlete: { name: string; teamName: string | null; jerseyNumber: number | null };
  games: Array<{ id: string; label: string }>;
  footage: ReviewFootage[];
  clips: ReviewClip[];
  moments: Moment[];
  render: Render | null;
  outputs: Array<{ id: string; videoType: string; durationSeconds: number | null; isVisible: boolean }>;
}

const base = (requestId: string) => `/api/admin/requests/${encodeURIComponent(requestId)}`;
const reviewKey = (requestId: string) => ['admin', 'review', requestId];

export const useReview = (requestId: string) =>
  useQuery({
    queryKey: reviewKey(requestId),
    queryFn: () => requestJson<Review>(`${base(requestId)}/review`),
    // Live updates refresh it; a slow poll covers a dropped stream while matching or rendering.
    refetchInterval: (query) => {
      const data = query.state.data;
      const busy = data?.request.matchingState === 'matching' || data?.render?.state === 'queued' || data?.render?.state === 'rendering' || data?.clips.some((c) => c.faceSearch === 'looking');
      return busy ? 2000 : false;
    },
  });

function useReviewMutation<V, R>(requestId: string, fn: (v: V) => Promise<R>, optimistic?: (review: Review, v: V) => Review) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onMutate: async (v: V) => {
      if (!optimistic) return;
      await queryClient.cancelQueries({ queryKey: reviewKey(requestId) });
      const before = queryClient.getQueryData<Review>(reviewKey(requestId));
      if (before) queryClient.setQueryData(reviewKey(requestId), optimistic(before, v));
      return { before };
    },
    onError: (_e, _v, context) => {
      const before = (context as { before?: Review } | undefined)?.before;
      if (before) queryClient.setQueryData(reviewKey(requestId), before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKey(requestId) }),
  });
}

/** The people tracked on a frame of a file, for the admin to point at the athlete (people/labels.ts). */
export interface FramePeople {
  footageId: string;
  t: number;
  width: number | null;
  height: number | null;
  people: Array<{ id: string; box: { x: number; y: number; w: number; h: number }; jerseyNumber: number | null; kit: string | null; label: 'athlete' | 'not' | null }>;
}

const momentQuery = (footageId: string, t: number) => `footageId=${encodeURIComponent(footageId)}&t=${t}`;
export const frameUrl = (requestId: string, footageId: string, t: number) => `${base(requestId)}/frame?${momentQuery(footageId, t)}`;

export const usePeopleAt = (requestId: string, footageId: string, t: number, enabled: boolean) =>
  useQuery({
    queryKey: [...reviewKey(requestId), 'people', footageId, t],
    queryFn: () => requestJson<FramePeople>(`${base(requestId)}/people?${momentQuery(footageId, t)}`),
    enabled,
  });

/** "This is the athlete" / "not the athlete" on a person: the labels and the review refresh (matching runs again). */
export const useLabelPerson = (requestId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ personId, athlete }: { personId: string; athlete: boolean }) =>
      requestJson<{ labelled: string[] }>(`${base(requestId)}/people/${encodeURIComponent(personId)}`, { method: 'PUT', json: { athlete } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKey(requestId) }),
  });
};

/** "This is their athlete": the admin confirms a doubtful roster link, and the family can buy the reel. */
export const useConfirmAthlete = (requestId: string) =>
  useReviewMutation(requestId, () => requestJson(`/api/admin/requests/${requestId}/confirm-athlete`, { method: 'POST' }));

export const useDecide = (requestId: string) =>
  useReviewMutation(
    requestId,
    ({ clipId, decision }: { clipId: string; decision: ReviewClip['decision'] }) =>
      requestJson(`${base(requestId)}/clips/${clipId}/decision`, { method: 'PUT', json: { decision } }),
    (review, { clipId, decision }) => {
      const last = Math.max(0, ...review.clips.map((c) => c.position ?? 0));
      return { ...review, clips: review.clips.map((c) => (c.id === clipId ? { ...c, decision, position: decision === 'accepted' ? (c.decision === 'accepted' ? c.position : last + 1) : null } : c)) };
    },
  );

export const useTrim = (requestId: string) =>
  useReviewMutation(requestId, ({ clipId, startS, endS }: { clipId: string; startS: number; endS: number }) =>
    requestJson<{ startS: number; endS: number }>(`${base(requestId)}/clips/${clipId}/span`, { method: 'PUT', json: { startS, endS } }),
  );

export const useAddClip = (requestId: string) =>
  useReviewMutation(requestId, (json: { footageId: string; startS: number; endS: number }) => requestJson<{ id: string; faceSearch: ReviewClip['faceSearch'] }>(`${base(requestId)}/clips`, { method: 'POST', json }));

export const useReorder = (requestId: string) =>
  useReviewMutation(
    requestId,
    (ids: string[]) => requestJson(`${base(requestId)}/clip-order`, { method: 'PUT', json: { ids } }),
    (review, ids) => ({ ...review, clips: review.clips.map((c) => (ids.includes(c.id) ? { ...c, position: ids.indexOf(c.id) + 1 } : c)) }),
  );

export const useRender = (requestId: string) =>
  useReviewMutation(requestId, (json: { spotlight: boolean }) => requestJson<{ id: string }>(`${base(requestId)}/render`, { method: 'POST', json }));
