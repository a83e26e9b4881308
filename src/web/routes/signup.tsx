// The full registration page. Prefilled from the homepage sign-up (navigation state); shows
// whether the service can be reached before the athlete types everything in.
import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { CONNECTION_STATUS } from '../../common/messages';
import { RegistrationForm, type RegistrationPrefill } from '../features/auth/registration-form';
import { useMe } from '../features/session/session';
import { requestJson } from '../lib/api-error';
import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

type Status = 'checking' | 'connected' | 'failed';

function useConnectionStatus(): Status {
  const [status, setStatus] = useState<Status>('checking');
  useEffect(() => {
    let cancelled = false;
    const check = (triesLeft: number): Promise<void> =>
      requestJson('/api/health').then(
        () => void (cancelled || setStatus('connected')),
        () => (triesLeft > 0 ? check(triesLeft - 1) : void (cancelled || setStatus('failed'))),
      );
    void check(1);
    return () => {
      cancelled = true;
    };
  }, []);
  return status;
}

function ConnectionStatus({ status, onContinue }: { status: Status; onContinue?: () => void }) {
  return (
    <div role="status" className="mb-6 flex flex-wrap items-center gap-3 text-sm">
      <span
        className={cn(
          'h-2.5 w-2.5 rounded-full',
          status === 'checking' && 'animate-pulse bg-yellow-400',
          status === 'connected' && 'bg-green-500',
          status === 'failed' && 'bg-red-500',
        )}
      />
      <span className="text-neutral-300">{CONNECTION_STATUS[status]}</span>
      {status === 'failed' && onContinue && (
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
  const status = useConnectionStatus();
  const [continued, setContinued] = useState(false);
  const prefill = (location.state ?? {}) as RegistrationPrefill;

  if (me.data?.user) return <Navigate to="/dashboard" replace />;

  return (
    <div className="mx-auto max-w-3xl px-4 pb-20 pt-28">
      <h1 className="font-display text-4xl uppercase tracking-wide text-white md:text-5xl">Create your athlete profile</h1>
      <p className="mb-6 mt-3 text-neutral-300">
        Tell us who to look for. We use the headshot and jersey number to find your athlete in every camera angle.
      </p>
      <ConnectionStatus status={status} onContinue={continued ? undefined : () => setContinued(true)} />
      {status === 'failed' && !continued ? (
        <p className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 text-neutral-300">
          We could not reach our servers. Check your connection, or continue anyway and we will try again when you submit.
        </p>
      ) : (
        <div className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 shadow-xl">
          <RegistrationForm prefill={prefill} />
        </div>
      )}
      <p className="mt-6 text-center text-xs text-neutral-400">
        <Link to="/terms" className="hover:text-white">Terms and Privacy Policy</Link>
      </p>
    </div>
  );
}
