// The short sign-up on the home page: saved as a homepage sign-up, then carried into the full
// registration page so nothing is typed twice.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { AUTH_TOAST_TITLES, HOMEPAGE_SIGNUP } from '../../../common/messages';
import { homepageSignupSchema, type HomepageSignupInput, type HomepageSignupValues } from '../../../common/schemas';
import { api, unwrap } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';

export function HomepageSignupForm() {
  const navigate = useNavigate();
  const form = useForm<HomepageSignupInput, unknown, HomepageSignupValues>({
    resolver: zodResolver(homepageSignupSchema),
    defaultValues: { firstName: '', lastName: '', email: '' },
  });
  const save = useMutation({
    mutationFn: (values: HomepageSignupValues) => unwrap(api.account['homepage-signups'].$post({ json: values })),
    onSuccess: (_r, values) => {
      notify.success(HOMEPAGE_SIGNUP.saved);
      navigate('/signup', {
        state: { firstName: values.firstName.trim(), lastName: values.lastName.trim(), email: values.email.trim().toLowerCase() },
      });
    },
    onError: (error: Error) => notify.error({ title: AUTH_TOAST_TITLES.error, description: error.message }),
  });
  const { errors } = form.formState;
  return (
    <form
      noValidate
      aria-label="Get started"
      onSubmit={form.handleSubmit((v) => save.mutate(v))}
      className="grid gap-4 md:grid-cols-[1fr_1fr_1.4fr_auto] md:items-end"
    >
      <Field label="First name" error={errors.firstName?.message}>
        <Input autoComplete="given-name" {...form.register('firstName')} />
      </Field>
      <Field label="Last name" error={errors.lastName?.message}>
        <Input autoComplete="family-name" {...form.register('lastName')} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Button type="submit" size="md" className="h-11" disabled={save.isPending}>
        GET STARTED
      </Button>
    </form>
  );
}
