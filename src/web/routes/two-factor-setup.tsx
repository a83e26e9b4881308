// /two-factor/setup: an admin enrols the second factor before the admin pages open (the server
// sends an admin without one here). Whether to show it is decided once, on arrival, so the
// recovery codes stay on screen after the confirmation makes the session an admin's.
import { useState } from 'react';
import { Navigate } from 'react-router';
import { SECOND_FACTOR_SETUP as TEXT } from '../../common/admin-messages';
import { SECOND_FACTOR } from '../../common/messages';
import { Enrolment } from '../features/two-factor/enrolment';
import { useMe, type Me } from '../features/session/session';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { LogoMark } from '../ui/logo';
import { Spinner } from '../ui/spinner';

function Gate({ user }: { user: NonNullable<Me['user']> }) {
  const [needsEnrolment] = useState(user.secondFactor === 'enrol');
  if (!needsEnrolment) return <Navigate to={user.secondFactor === 'verify' ? SECOND_FACTOR.promptPath : user.isAdmin ? '/admin' : '/dashboard'} replace />;
  return (
    <div className="flex min-h-dvh items-start justify-center bg-neutral-950 px-4 pb-16 pt-16 md:pt-24">
      <div className="w-full max-w-lg">
        <div className="mb-6 flex flex-col items-center gap-3 text-center text-white">
          <LogoMark size="lg" />
          <h1 className="font-display text-3xl tracking-wider md:text-4xl">{TEXT.title}</h1>
          <p className="text-sm text-neutral-300">{TEXT.intro}</p>
        </div>
        <div className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 shadow-xl">
          <Enrolment />
        </div>
      </div>
    </div>
  );
}

export default function TwoFactorSetupPage() {
  usePageTitle(PAGE_TITLES['/two-factor/setup']);
  const me = useMe();
  if (me.isPending) {
    return (
      <div className="flex min-h-dvh items-center justify-center bg-neutral-950 text-neutral-300">
        <Spinner />
      </div>
    );
  }
  if (!me.data?.user) return <Navigate to="/auth" replace />;
  return <Gate user={me.data.user} />;
}
