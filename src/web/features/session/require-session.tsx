// The signed-in screens: who may see them (the server already redirected before sending the
// page; this covers navigation inside the app and a session that ends while a page is open),
// and the query cache their data lives in.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { ACCESS_DENIED, AUTH_REQUIRED, SECOND_FACTOR } from '../../../common/messages';
import { ApiRequestError } from '../../lib/api-error';
import { navigateTo } from '../../lib/navigation';
import { notify } from '../../lib/toast';
import { Spinner } from '../../ui/spinner';
import { endSession, useMe, type Me } from './session';
import { onBeforeSignOut } from './use-sign-out';

type SignedIn = Extract<Me, { profile: unknown }>;

/**
 * A session that ended while a signed-in screen was open (expired, signed out in another tab,
 * revoked by a password reset): say so once and go to sign-in.
 */
function onApiError(error: unknown) {
  if (!(error instanceof ApiRequestError) || error.status !== 401) return;
  if (!/^\/(dashboard|admin)/.test(window.location.pathname)) return;
  queryClient.clear();
  endSession();
  notify.error(AUTH_REQUIRED);
  navigateTo('/auth', { replace: true });
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: {
      // A 4xx answer will not change on retry; a network error or a 5xx may.
      retry: (count, error) => count < 1 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
    },
  },
});

function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-neutral-950 text-neutral-300">
      <Spinner label={label} />
    </div>
  );
}

function SignedInScreen({ children }: { children: ReactNode }) {
  // Before the session ends: nothing in flight, nothing cached for the next person at this screen.
  useEffect(
    () =>
      onBeforeSignOut(async () => {
        await new Promise((r) => setTimeout(r, 0)); // the screen has unmounted its queries
        await queryClient.cancelQueries();
        queryClient.clear();
      }),
    [],
  );
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export function RequireUser({ children }: { children: (me: SignedIn) => ReactNode }) {
  const me = useMe();
  if (me.signingOut) return <FullPageSpinner label="Signing out..." />;
  if (me.isPending) return <FullPageSpinner />;
  if (!me.data?.user) return <Navigate to="/auth" replace />;
  return <SignedInScreen>{children(me.data as SignedIn)}</SignedInScreen>;
}

function DeniedRedirect() {
  useEffect(() => notify.error(ACCESS_DENIED), []);
  return <Navigate to="/dashboard" replace />;
}

export function RequireAdmin({ children }: { children: (me: SignedIn) => ReactNode }) {
  const me = useMe();
  if (me.signingOut) return <FullPageSpinner label="Signing out..." />;
  if (me.isPending) return <FullPageSpinner />;
  if (!me.data?.user) return <Navigate to="/auth" replace />;
  // An admin whose session has not passed the second factor: to enrolment or to the code prompt.
  if (me.data.user.secondFactor) return <Navigate to={me.data.user.secondFactor === 'enrol' ? SECOND_FACTOR.setupPath : SECOND_FACTOR.promptPath} replace />;
  if (!me.data.user.isAdmin) return <DeniedRedirect />;
  return <SignedInScreen>{children(me.data as SignedIn)}</SignedInScreen>;
}
