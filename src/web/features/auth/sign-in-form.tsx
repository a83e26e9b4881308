import { useNavigate } from 'react-router';
import { TIMING } from '../../../common/constants';
import { AUTH_TOAST_TITLES, EMAIL_REQUIRED, LABELS, RESET_EMAIL_SENT, SECOND_FACTOR, WELCOME_BACK } from '../../../common/messages';
import type { SignInValues } from '../../../common/schemas';
import { requestJson } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import { refreshSession } from '../session/session';

export function SignInForm({ defaultEmail }: { defaultEmail?: string }) {
  const navigate = useNavigate();

  const signIn = useAction(
    (values: SignInValues) => requestJson<{ twoFactorRedirect?: boolean }>('/api/auth/sign-in/email', { method: 'POST', json: values }),
    {
      onSuccess: async (result) => {
        // An admin with a second factor: the session comes only after the code.
        if (result.twoFactorRedirect) return navigate(SECOND_FACTOR.promptPath);
        const me = await refreshSession();
        // An admin without one yet sets it up before anything else.
        if (me.user?.secondFactor === 'enrol') return navigate(SECOND_FACTOR.setupPath, { replace: true });
        notify.success(WELCOME_BACK);
        navigate(me.user?.isAdmin ? '/admin' : '/dashboard', { replace: true });
      },
      onError: (error) => notify.error({ title: AUTH_TOAST_TITLES.signIn, description: error.message }),
    },
  );

  const reset = useAction(
    (email: string) => requestJson('/api/auth/request-password-reset', { method: 'POST', json: { email, redirectTo: '/reset-password' } }),
    {
      onSuccess: () => notify.success(RESET_EMAIL_SENT, TIMING.resetEmailToast),
      onError: (error) => notify.error({ title: AUTH_TOAST_TITLES.error, description: error.message }),
    },
  );

  const form = useSchemaForm(() => import('../../../common/schemas').then((m) => m.signInSchema), signIn.run);

  const forgotPassword = () => {
    const email = form.value('email').trim();
    if (!email) {
      notify.error(EMAIL_REQUIRED);
      form.setError('email', EMAIL_REQUIRED.description);
      return;
    }
    reset.run(email);
  };

  return (
    <form {...form.props} aria-label={LABELS.signIn} className="flex flex-col gap-4">
      <Field label="Email" error={form.errors.email}>
        <Input name="email" type="email" autoComplete="email" inputMode="email" defaultValue={defaultEmail} />
      </Field>
      <Field label="Password" error={form.errors.password}>
        <Input name="password" type="password" autoComplete="current-password" />
      </Field>
      <div className="flex justify-end">
        <Button type="button" variant="link" size="inline" onClick={forgotPassword} disabled={reset.isPending}>
          {LABELS.forgotPassword}
        </Button>
      </div>
      <Button type="submit" size="lg" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in...' : LABELS.signIn}
      </Button>
    </form>
  );
}
