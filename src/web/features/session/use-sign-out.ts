// Signing out: the signed-in screens stop fetching first (so nothing asks the server with a
// session that is ending), then the session ends on the server, then the spec's toast and home.
import { AUTH_ERRORS, AUTH_TOAST_TITLES, SIGNED_OUT } from '../../../common/messages';
import { ApiRequestError } from '../../lib/api-error';
import { navigateTo } from '../../lib/navigation';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { endSession, setSigningOut } from './session';

/** Run by the signed-in screens before the session ends (their query cache cancels and clears). */
const beforeSignOut = new Set<() => Promise<void> | void>();
export function onBeforeSignOut(fn: () => Promise<void> | void): () => void {
  beforeSignOut.add(fn);
  return () => void beforeSignOut.delete(fn);
}

/** The signed-in screens stop fetching and step aside (before a sign-out, or once the account is gone). */
export async function leaveSignedInScreens(): Promise<void> {
  setSigningOut(true);
  for (const fn of beforeSignOut) await fn();
}

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
  const action = useAction(
    async () => {
      await leaveSignedInScreens();
      try {
        await signOutRequest();
      } catch (error) {
        setSigningOut(false);
        throw error;
      }
    },
    {
      // The screen that asked may be gone by now (signed-in screens step aside while signing
      // out), so the app-wide navigator takes the user home.
      // Still "signing out" until the home page is up (public-layout.tsx), so the signed-in screen,
      // shown while home loads, does not send the user to sign-in instead.
      onSuccess: () => {
        navigateTo('/');
        endSession();
        notify.success(SIGNED_OUT);
      },
      onError: (error) => notify.error({ title: AUTH_TOAST_TITLES.error, description: failureText ?? error.message }),
    },
  );
  return { mutate: () => action.run(undefined), isPending: action.isPending };
}
