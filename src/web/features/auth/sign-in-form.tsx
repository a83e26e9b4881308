import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { TIMING } from '../../../common/constants';
import {
  AUTH_TOAST_TITLES,
  EMAIL_REQUIRED,
  LABELS,
  RESET_EMAIL_SENT,
  WELCOME_BACK,
} from '../../../common/messages';
import { signInSchema, type SignInInput, type SignInValues } from '../../../common/schemas';
import { authCall, authClient } from '../../lib/auth-client';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import { meQuery } from '../session/use-me';

export function SignInForm({ defaultEmail }: { defaultEmail?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: defaultEmail ?? '', password: '' },
  });

  const signIn = useMutation({
    mutationFn: (values: SignInValues) =>
      authCall(authClient.signIn.email({ email: values.email, password: values.password })),
    onSuccess: async () => {
      const me = await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
      notify.success(WELCOME_BACK);
      navigate(me.user?.isAdmin ? '/admin' : '/dashboard', { replace: true });
    },
    onError: (error: Error) => notify.error({ title: AUTH_TOAST_TITLES.signIn, description: error.message }),
  });

  const reset = useMutation({
    mutationFn: (email: string) =>
      authCall(authClient.requestPasswordReset({ email, redirectTo: '/reset-password' })),
    onSuccess: () => notify.success(RESET_EMAIL_SENT, TIMING.resetEmailToast),
    onError: (error: Error) => notify.error({ title: AUTH_TOAST_TITLES.error, description: error.message }),
  });

  const forgotPassword = () => {
    const email = form.getValues('email').trim();
    if (!email) {
      notify.error(EMAIL_REQUIRED);
      form.setFocus('email');
      return;
    }
    reset.mutate(email);
  };

  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => signIn.mutate(v))} className="flex flex-col gap-4">
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Field label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...form.register('password')} />
      </Field>
      <div className="flex justify-end">
        <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={forgotPassword} disabled={reset.isPending}>
          {LABELS.forgotPassword}
        </Button>
      </div>
      <Button type="submit" size="lg" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in...' : 'SIGN IN'}
      </Button>
    </form>
  );
}
