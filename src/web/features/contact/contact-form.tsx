// "MESSAGE US": stored on the server first, then mailed to the team with an auto-reply.
import { CONTACT } from '../../../common/messages';
import type { ContactValues } from '../../../common/schemas';
import { requestJson } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input, Textarea } from '../../ui/form-controls';

export function ContactForm() {
  const send = useAction((values: ContactValues) => requestJson('/api/contact', { method: 'POST', json: values }), {
    onSuccess: () => {
      notify.success(CONTACT.success);
      form.reset();
    },
    onError: () => {
      notify.error(CONTACT.failure);
      window.alert(CONTACT.failureAlert);
    },
  });
  const form = useSchemaForm(() => import('../../../common/schemas').then((m) => m.contactSchema), send.run);
  const { errors } = form;
  return (
    <form {...form.props} aria-label={CONTACT.formTitle} className="grid gap-4 sm:grid-cols-2">
      <Field label="First Name" error={errors.firstName}>
        <Input name="firstName" autoComplete="given-name" />
      </Field>
      <Field label="Last Name" error={errors.lastName}>
        <Input name="lastName" autoComplete="family-name" />
      </Field>
      <Field label="Email" error={errors.email}>
        <Input name="email" type="email" autoComplete="email" inputMode="email" />
      </Field>
      <Field label="Phone" optional error={errors.phone}>
        <Input name="phone" type="tel" autoComplete="tel" />
      </Field>
      <Field label="Subject" className="sm:col-span-2" error={errors.subject}>
        <Input name="subject" />
      </Field>
      <Field label="Message" className="sm:col-span-2" error={errors.message}>
        <Textarea name="message" rows={6} />
      </Field>
      <Button type="submit" size="lg" className="sm:col-span-2" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
