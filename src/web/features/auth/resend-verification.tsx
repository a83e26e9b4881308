// Shown on /auth when a confirmation link failed (expired, or already used): says so, and sends
// a new link to the address typed here.
import { AUTH_TOAST_TITLES, VERIFICATION_RESENT, VERIFY_LINK_INVALID } from '../../../common/messages';
import { requestJson } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';

export function ResendVerification({ defaultEmail }: { defaultEmail?: string }) {
  const resend = useAction(
    ({ email }: { email: string }) =>
      requestJson('/api/auth/send-verification-email', { method: 'POST', json: { email, callbackURL: '/dashboard?verified=1' } }),
    {
      onSuccess: () => notify.success(VERIFICATION_RESENT, 8000),
      onError: (error) => notify.error({ title: AUTH_TOAST_TITLES.error, description: error.message }),
    },
  );
  const form = useSchemaForm(() => import('../../../common/schemas').then((m) => m.resendVerificationSchema), resend.run);
  return (
    <section role="alert" aria-labelledby="resend-title" className="mb-6 rounded-xl border border-red-900 bg-red-950/40 p-5">
      <h2 id="resend-title" className="font-semibold text-white">
        {VERIFY_LINK_INVALID.title}
      </h2>
      <p className="mt-1 text-sm text-neutral-200">{VERIFY_LINK_INVALID.description}</p>
      {resend.isSuccess ? (
        <p className="mt-4 text-sm text-green-300">{VERIFICATION_RESENT.description}</p>
      ) : (
        <form {...form.props} aria-label="Send a new confirmation link" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field label="Email" error={form.errors.email} className="flex-1">
            <Input name="email" type="email" autoComplete="email" inputMode="email" defaultValue={defaultEmail} />
          </Field>
          <Button type="submit" className="sm:mt-7" disabled={resend.isPending}>
            Send a New Link
          </Button>
        </form>
      )}
    </section>
  );
}
