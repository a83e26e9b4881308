// /auth/two-factor: the second step of an admin's sign-in (the authenticator's code or a recovery
// code), and where an admin's older session gives its code before the admin pages open.
import { Navigate } from 'react-router';
import { BRAND, SECOND_FACTOR } from '../../common/messages';
import { CodePrompt } from '../features/two-factor/code-prompt';
import { useMe } from '../features/session/session';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { LogoMark } from '../ui/logo';

export default function TwoFactorPromptPage() {
  usePageTitle(PAGE_TITLES['/auth/two-factor']);
  const me = useMe();
  const user = me.data?.user;
  if (user?.secondFactor === 'enrol') return <Navigate to={SECOND_FACTOR.setupPath} replace />;
  if (user && !user.secondFactor) return <Navigate to={user.isAdmin ? '/admin' : '/dashboard'} replace />;
  return (
    <div className="flex min-h-dvh items-start justify-center px-4 pb-16 pt-28">
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center text-white">
          <LogoMark size="lg" />
          <h1 className="font-display text-4xl tracking-wider">{BRAND.name}</h1>
        </div>
        <div className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 shadow-xl">
          <CodePrompt />
        </div>
      </div>
    </div>
  );
}
