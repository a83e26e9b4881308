import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { TIMING } from '../../../common/constants';
import { AUTH_TOAST_TITLES, SIGNUP_SUCCESS } from '../../../common/messages';
import { simpleSignUpSchema, type SimpleSignUpInput, type SimpleSignUpValues } from '../../../common/schemas';
import { api, unwrap } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';

export function SignUpForm() {
  const navigate = useNavigate();
  const form = useForm<SimpleSignUpInput, unknown, SimpleSignUpValues>({
    resolver: zodResolver(simpleSignUpSchema),
    defaultValues: { fullName: '', email: '', password: '' },
  });

  const signUp = useMutation({
    mutationFn: (values: SimpleSignUpValues) => unwrap(api.account['sign-up'].$post({ json: values })),
    onSuccess: (_data, values) => {
      notify.success(SIGNUP_SUCCESS, TIMING.signupConfirmToast);
      setTimeout(
        () => navigate('/auth/verify-email', { state: { email: values.email.trim().toLowerCase() } }),
        TIMING.simpleSignupRedirect,
      );
    },
    onError: (error: Error) => notify.error({ title: AUTH_TOAST_TITLES.signUp, description: error.message }),
  });

  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => signUp.mutate(v))} className="flex flex-col gap-4">
      <Field label="Full Name" error={errors.fullName?.message}>
        <Input autoComplete="name" {...form.register('fullName')} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Field label="Password" error={errors.password?.message} hint="At least 6 characters.">
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </Field>
      <p className="text-xs text-neutral-400">
        By creating an account you agree to our{' '}
        <Link to="/terms" className="text-red-400 underline-offset-4 hover:underline">
          Terms and Privacy Policy
        </Link>
        .
      </p>
      <Button type="submit" size="lg" disabled={signUp.isPending || signUp.isSuccess}>
        {signUp.isPending ? 'Creating account...' : 'CREATE ACCOUNT'}
      </Button>
      <p className="text-center text-sm text-neutral-400">
        Want to set up the full athlete profile now?{' '}
        <Link to="/signup" className="font-semibold text-red-400 underline-offset-4 hover:underline">
          Complete registration
        </Link>
      </p>
    </form>
  );
}
