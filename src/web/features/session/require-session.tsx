// Client-side route guards. The server already redirected before sending the page; these cover
// navigation inside the app and a session that ends while the page is open.
import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { ACCESS_DENIED } from '../../../common/messages';
import { notify } from '../../lib/toast';
import { Spinner } from '../../ui/spinner';
import { useMe, type Me } from './use-me';

type SignedIn = Extract<Me, { profile: unknown }>;

function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-neutral-950">
      <Spinner />
    </div>
  );
}

export function RequireUser({ children }: { children: (me: SignedIn) => ReactNode }) {
  const me = useMe();
  if (me.isPending) return <FullPageSpinner />;
  if (!me.data?.user) return <Navigate to="/auth" replace />;
  return <>{children(me.data as SignedIn)}</>;
}

function DeniedRedirect() {
  useEffect(() => notify.error(ACCESS_DENIED), []);
  return <Navigate to="/dashboard" replace />;
}

export function RequireAdmin({ children }: { children: (me: SignedIn) => ReactNode }) {
  const me = useMe();
  if (me.isPending) return <FullPageSpinner />;
  if (!me.data?.user) return <Navigate to="/auth" replace />;
  if (!me.data.user.isAdmin) return <DeniedRedirect />;
  return <>{children(me.data as SignedIn)}</>;
}
