import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AUTH_ERRORS, AUTH_TOAST_TITLES, SIGNED_OUT } from '../../../common/messages';
import { ApiRequestError } from '../../lib/api';
import { notify } from '../../lib/toast';

/** A plain call, so public pages need not load better-auth's client just for the nav bar. */
async function signOutRequest(): Promise<void> {
  const res = await fetch('/api/auth/sign-out', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  }).catch(() => null);
  if (!res) throw new ApiRequestError(AUTH_ERRORS.failedToFetch, 0, 'NETWORK');
  // Like the spec's client, an already-ended session (401/403/404) still counts as signed out.
  if (!res.ok && ![401, 403, 404].includes(res.status)) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new ApiRequestError(body?.message ?? AUTH_ERRORS.generic, res.status, 'SIGN_OUT_FAILED');
  }
}

/** Signs out, shows the spec's toast and goes home. `failureText` overrides the error text. */
export function useSignOut(failureText?: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOutRequest,
    onSuccess: async () => {
      queryClient.setQueryData(['me'], { user: null });
      await queryClient.invalidateQueries();
      notify.success(SIGNED_OUT);
      navigate('/');
    },
    onError: (error: Error) => {
      notify.error({ title: AUTH_TOAST_TITLES.error, description: failureText ?? error.message });
    },
  });
}
