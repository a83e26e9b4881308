import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AthleteAge, ProfileEdit } from '../../../common/schemas';
import type { ProfileDto } from '../../../server/profiles/service';
import { api, unwrap } from '../../lib/api';
import { JUST_LOADED_MS } from '../../lib/freshness';
import { uploadForm } from '../../lib/upload';
import { refreshSession } from '../session/session';

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: () => unwrap(api.profile.$get()),
  staleTime: JUST_LOADED_MS,
});

export function useProfile() {
  return useQuery(profileQuery);
}

/** The face matching card's state (profile/face-matching.tsx), under the profile's key. */
export const FACE_MATCHING_KEY = ['profile', 'face-matching'];

function useProfileMutation<V>(fn: (v: V) => Promise<ProfileDto>, opts: { faceMatchingChanges?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQuery.queryKey, profile);
      // A new headshot was checked for a face on the server: the card says what it found at once.
      if (opts.faceMatchingChanges) void queryClient.invalidateQueries({ queryKey: FACE_MATCHING_KEY });
      void refreshSession().catch(() => {});
    },
  });
}

export const useEditProfile = () => useProfileMutation((values: ProfileEdit) => unwrap(api.profile.$patch({ json: values })));

/** The quick sign-up's "finish your athlete's profile" step: birthday and, under 18, the guardian's agreement. */
export const useFinishAthleteProfile = () => useProfileMutation((values: AthleteAge) => unwrap(api.profile.athlete.$put({ json: values })));

export const useCompleteTutorial = () => useProfileMutation(() => unwrap(api.profile.tutorial.$post()));

/** Withdraws the parent's consent for an athlete under 13: face matching goes off with its data. */
export const useWithdrawParentalConsent = () => useProfileMutation(() => unwrap(api.profile['parental-consent'].$delete()), { faceMatchingChanges: true });

export const useSaveAvatar = () =>
  useProfileMutation(({ avatar, original }: { avatar: Blob; original: File | null }) => {
    const form = new FormData();
    form.append('avatar', avatar, 'avatar.jpg');
    if (original) form.append('original', original);
    return uploadForm<ProfileDto>('/api/profile/avatar', 'POST', form);
  }, { faceMatchingChanges: true });

export const useSaveBanner = () =>
  useProfileMutation((banner: File) => {
    const form = new FormData();
    form.append('banner', banner);
    return uploadForm<ProfileDto>('/api/profile/banner', 'POST', form);
  });
