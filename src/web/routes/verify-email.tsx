// The e-mail confirmation notice shown after sign-up.
import { CircleCheck, MailCheck, TriangleAlert } from 'lucide-react';
import { Link, Navigate, useLocation } from 'react-router';
import { VERIFY_EMAIL } from '../../common/messages';
import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

/** An address that may wrap only before "@" and after dots, never mid-word (unless it must). */
function breakable(email: string) {
  return email.split(/(?=@)|(?<=\.)/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

export default function VerifyEmailPage() {
  usePageTitle(PAGE_TITLES['/auth/verify-email']);
  const location = useLocation();
  const state = location.state as { email?: string; faceMatching?: { ok: boolean; text: string } } | null;
  const email = state?.email;
  if (!email) return <Navigate to="/auth" replace />;
  // After registering with face matching on: whether the headshot can be used, and what to do if not.
  const faceMatching = state?.faceMatching;

  return (
    <div className="flex min-h-dvh items-start justify-center px-4 pb-16 pt-28">
      <div className="w-full max-w-lg rounded-xl border border-neutral-800 bg-neutral-900/70 p-8 text-center shadow-xl">
        <MailCheck className="mx-auto h-14 w-14 text-red-500" aria-hidden="true" />
        <h1 className="mt-4 font-display text-4xl uppercase tracking-wide text-white">{VERIFY_EMAIL.title}</h1>
        <p className="mt-3 text-neutral-300">
          We sent a confirmation link to <strong className="text-white [overflow-wrap:anywhere]">{breakable(email)}</strong>
        </p>
        <ol className="mt-6 space-y-3 text-left">
          {VERIFY_EMAIL.steps.map((step, i) => (
            <li key={step} className="flex gap-3">
              <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-red-600 text-sm font-bold text-white">
                {i + 1}
              </span>
              <span className="pt-0.5 text-neutral-200">{step}</span>
            </li>
          ))}
        </ol>
        <p className="mt-6 text-sm text-neutral-400">{VERIFY_EMAIL.expiry}</p>
        {faceMatching && (
          <p
            className={cn('mt-6 flex items-start gap-2 rounded-md px-3 py-2 text-left text-sm', faceMatching.ok ? 'bg-neutral-800/60 text-neutral-200' : 'bg-yellow-950 text-yellow-100')}
            data-testid="headshot-state"
          >
            {faceMatching.ok ? <CircleCheck className="mt-0.5 h-4 w-4 shrink-0 text-green-400" aria-hidden="true" /> : <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />}
            <span>{faceMatching.text}</span>
          </p>
        )}
        <Button asChild size="lg" className="mt-8 w-full">
          <Link to={`/auth?email=${encodeURIComponent(email)}`}>{VERIFY_EMAIL.back}</Link>
        </Button>
      </div>
    </div>
  );
}
