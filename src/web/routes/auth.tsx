// /auth: Sign In and Create Account tabs. A signed-in visitor is sent on at once.
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { CircleCheck } from 'lucide-react';
import { BRAND, EMAIL_ALREADY_CONFIRMED, LABELS, SECOND_FACTOR } from '../../common/messages';
import { ResendVerification } from '../features/auth/resend-verification';
import { SignInForm } from '../features/auth/sign-in-form';
import { SignUpForm } from '../features/auth/sign-up-form';
import { useMe } from '../features/session/session';
import { LogoMark } from '../ui/logo';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';

export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const me = useMe();
  const state = location.state as { email?: string; message?: string } | null;
  const email = params.get('email') ?? state?.email ?? '';
  const tab = params.get('tab') === 'signup' ? 'signup' : 'signin';
  usePageTitle(tab === 'signup' ? LABELS.createAccount : PAGE_TITLES['/auth']);

  // A verification link that failed (expired or already used) lands here with ?error=.
  const linkFailed = Boolean(params.get('error'));
  // A confirmation link opened again once the address was confirmed lands here with ?confirmed=already.
  const alreadyConfirmed = !linkFailed && params.get('confirmed') === 'already';

  // The forms show at once (the page arrives prerendered); someone signed in is sent on once known.
  if (me.data?.user) {
    const { isAdmin, secondFactor } = me.data.user;
    const next = secondFactor === 'enrol' ? SECOND_FACTOR.setupPath : secondFactor === 'verify' ? SECOND_FACTOR.promptPath : isAdmin ? '/admin' : '/dashboard';
    return <Navigate to={next} replace />;
  }

  return (
    <div className="flex min-h-dvh items-start justify-center px-4 pb-16 pt-28">
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center text-white">
          <LogoMark size="lg" />
          <h1 className="font-display text-4xl tracking-wider">{BRAND.name}</h1>
          {state?.message && <p className="text-sm text-neutral-300">{state.message}</p>}
        </div>
        {linkFailed && <ResendVerification defaultEmail={email} />}
        {alreadyConfirmed && (
          <section role="status" aria-labelledby="already-confirmed-title" className="mb-6 flex gap-3 rounded-xl border border-green-900 bg-green-950/40 p-5">
            <CircleCheck className="mt-0.5 h-5 w-5 shrink-0 text-green-400" aria-hidden="true" />
            <div>
              <h2 id="already-confirmed-title" className="font-semibold text-white">
                {EMAIL_ALREADY_CONFIRMED.title}
              </h2>
              <p className="mt-1 text-sm text-neutral-200">{EMAIL_ALREADY_CONFIRMED.description}</p>
            </div>
          </section>
        )}
        <div className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 shadow-xl">
          <Tabs
            value={tab}
            onValueChange={(v) => {
              const next = new URLSearchParams(params);
              if (v === 'signup') next.set('tab', 'signup');
              else next.delete('tab');
              setParams(next, { replace: true });
            }}
          >
            <TabsList className="mb-6" label="Sign in or create an account">
              <TabsTrigger value="signin">{LABELS.signIn}</TabsTrigger>
              <TabsTrigger value="signup">{LABELS.createAccount}</TabsTrigger>
            </TabsList>
            <TabsContent value="signin">
              <SignInForm defaultEmail={email} />
            </TabsContent>
            <TabsContent value="signup">
              <SignUpForm />
            </TabsContent>
          </Tabs>
        </div>
      </div>
    </div>
  );
}
