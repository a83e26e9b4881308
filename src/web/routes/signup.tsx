// The full registration page. Prefilled from the homepage sign-up (navigation state). The form
// shows at once; only when our server cannot be reached does the page say so first, with a way
// to go on anyway (no "checking" or "connected" light: it told people nothing they needed).
import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { CONNECTION_STATUS } from '../../common/messages';
import { RegistrationForm, type RegistrationPrefill } from '../features/auth/registration-form';
import { useMe } from '../features/session/session';
import { requestJson } from '../lib/api-error';
import { Button } from '../ui/button';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

/** True once the server has failed to answer twice. */
function useConnectionFailed(): boolean {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    const check = (triesLeft: number): Promise<void> =>
      requestJson('/api/health').then(
        () => undefined,
        () => (triesLeft > 0 ? check(triesLeft - 1) : void (cancelled || setFailed(true))),
      );
    void check(1);
    return () => {
      cancelled = true;
    };
  }, []);
  return failed;
}

function ConnectionFailed({ onContinue }: { onContinue?: () => void }) {
  return (
    <div role="status" className="mb-6 flex flex-wrap items-center gap-3 text-sm">
      <span className="h-2.5 w-2.5 rounded-full bg-red-500" aria-hidden="true" />
      <span className="text-neutral-300">{CONNECTION_STATUS.failed}</span>
      {onContinue && (
        <Button size="sm" variant="outline" onClick={onContinue}>
          {CONNECTION_STATUS.continueAnyway}
        </Button>
      )}
    </div>
  );
}

export default function SignupPage() {
  usePageTitle(PAGE_TITLES['/signup']);
  const me = useMe();
  const location = useLocation();
  const failed = useConnectionFailed();
  const [continued, setContinued] = useState(false);
  const prefill = (location.state ?? {}) as RegistrationPrefill;

  if (me.data?.user) return <Navigate to="/dashboard" replace />;

  return (
    <div className="mx-auto max-w-3xl px-4 pb-20 pt-28">
      <h1 className="font-display text-4xl uppercase tracking-wide text-white md:text-5xl">Create your athlete profile</h1>
      <p className="mb-6 mt-3 text-neutral-300">
        Tell us who to look for. We use the headshot and jersey number to find your athlete in every camera angle.
      </p>
      {failed && <ConnectionFailed onContinue={continued ? undefined : () => setContinued(true)} />}
      {failed && !continued && (
        <p className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 text-neutral-300">
          We could not reach our servers. Check your connection, or continue anyway and we will try again when you submit.
        </p>
      )}
      {/* Hidden, not removed, while the notice shows: whatever was typed already stays. */}
      <div hidden={failed && !continued} className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 shadow-xl">
        <RegistrationForm prefill={prefill} />
      </div>
      <p className="mt-6 text-center text-xs text-neutral-400">
        <Link to="/terms" className="hover:text-white">Terms and Privacy Policy</Link>
      </p>
    </div>
  );
}
