// The short sign-up on the home page: saved as a homepage sign-up, then carried into the full
// registration page so nothing is typed twice.
import { useNavigate } from 'react-router';
import { AUTH_TOAST_TITLES, HOMEPAGE_SIGNUP } from '../../../common/messages';
import type { HomepageSignupValues } from '../../../common/schemas';
import { requestJson } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';

export function HomepageSignupForm() {
  const navigate = useNavigate();
  const save = useAction((values: HomepageSignupValues) => requestJson('/api/account/homepage-signups', { method: 'POST', json: values }), {
    onSuccess: (_r, values) => {
      notify.success(HOMEPAGE_SIGNUP.saved);
      navigate('/signup', { state: { firstName: values.firstName, lastName: values.lastName, email: values.email } });
    },
    onError: (error) => notify.error({ title: AUTH_TOAST_TITLES.error, description: error.message }),
  });
  const form = useSchemaForm(() => import('../../../common/schemas').then((m) => m.homepageSignupSchema), save.run);
  return (
    <form {...form.props} aria-label="Get started" className="grid gap-4 md:grid-cols-[1fr_1fr_1.4fr_auto] md:items-start">
      <Field label="First name" error={form.errors.firstName}>
        <Input name="firstName" autoComplete="given-name" />
      </Field>
      <Field label="Last name" error={form.errors.lastName}>
        <Input name="lastName" autoComplete="family-name" />
      </Field>
      <Field label="Email" error={form.errors.email}>
        <Input name="email" type="email" autoComplete="email" inputMode="email" />
      </Field>
      <Button type="submit" className="md:mt-7" disabled={save.isPending}>
        Get Started
      </Button>
    </form>
  );
}
