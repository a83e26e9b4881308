// /auth: Sign In and Create Account tabs. A signed-in visitor is sent on at once.
import { useEffect } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { BRAND, LABELS, VERIFY_LINK_INVALID } from '../../common/messages';
import { SignInForm } from '../features/auth/sign-in-form';
import { SignUpForm } from '../features/auth/sign-up-form';
import { useMe } from '../features/session/use-me';
import { notify } from '../lib/toast';
import { LogoMark } from '../ui/logo';
import { Spinner } from '../ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';

export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const me = useMe();
  const state = location.state as { email?: string; message?: string } | null;
  const email = params.get('email') ?? state?.email ?? '';
  const tab = params.get('tab') === 'signup' ? 'signup' : 'signin';

  // A verification link that failed (expired or already used) lands here with ?error=.
  useEffect(() => {
    if (params.get('error')) {
      notify.error(VERIFY_LINK_INVALID);
    }
  }, [params]);

  if (me.isPending) {
    return (
      <div className="flex min-h-dvh items-center justify-center pt-16">
        <Spinner />
      </div>
    );
  }
  if (me.data?.user) return <Navigate to={me.data.user.isAdmin ? '/admin' : '/dashboard'} replace />;

  return (
    <div className="flex min-h-dvh items-start justify-center px-4 pb-16 pt-28">
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center text-white">
          <LogoMark className="h-14 w-14" />
          <h1 className="font-display text-4xl tracking-wider">{BRAND.name}</h1>
          {state?.message && <p className="text-sm text-neutral-300">{state.message}</p>}
        </div>
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
            <TabsList className="mb-6">
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
