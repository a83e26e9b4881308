import { Link, useNavigate } from 'react-router';
import { TIMING } from '../../../common/constants';
import { AUTH_TOAST_TITLES, LABELS, SIGNUP_SUCCESS } from '../../../common/messages';
import type { SimpleSignUpValues } from '../../../common/schemas';
import { requestJson } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';

export function SignUpForm() {
  const navigate = useNavigate();
  const signUp = useAction((values: SimpleSignUpValues) => requestJson('/api/account/sign-up', { method: 'POST', json: values }), {
    onSuccess: (_data, values) => {
      notify.success(SIGNUP_SUCCESS, TIMING.signupConfirmToast);
      setTimeout(() => navigate('/auth/verify-email', { state: { email: values.email } }), TIMING.simpleSignupRedirect);
    },
    onError: (error) => notify.error({ title: AUTH_TOAST_TITLES.signUp, description: error.message }),
  });
  const form = useSchemaForm(() => import('../../../common/schemas').then((m) => m.simpleSignUpSchema), signUp.run);

  return (
    <form {...form.props} aria-label={LABELS.createAccount} className="flex flex-col gap-4">
      <Field label="Full Name" error={form.errors.fullName}>
        <Input name="fullName" autoComplete="name" />
      </Field>
      <Field label="Email" error={form.errors.email}>
        <Input name="email" type="email" autoComplete="email" inputMode="email" />
      </Field>
      <Field label="Password" error={form.errors.password} hint="At least 6 characters.">
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <p className="text-xs text-neutral-400">
        By creating an account you agree to our{' '}
        <Link to="/terms" className="text-red-400 underline underline-offset-4 hover:text-red-300">
          Terms and Privacy Policy
        </Link>
        .
      </p>
      <Button type="submit" size="lg" disabled={signUp.isPending || signUp.isSuccess}>
        {signUp.isPending ? 'Creating account...' : LABELS.createAccount}
      </Button>
      <p className="text-center text-sm text-neutral-400">
        Want to set up the full athlete profile now?{' '}
        <Link to="/signup" className="font-semibold text-red-400 underline underline-offset-4 hover:text-red-300">
          Complete registration
        </Link>
      </p>
    </form>
  );
}
