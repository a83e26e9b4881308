// "MESSAGE US": stored on the server first, then mailed to the team with an auto-reply.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { CONTACT } from '../../../common/messages';
import { contactSchema, type ContactInput, type ContactValues } from '../../../common/schemas';
import { api, unwrap } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input, Textarea } from '../../ui/form-controls';

const EMPTY: ContactInput = { firstName: '', lastName: '', email: '', phone: '', subject: '', message: '' };

export function ContactForm() {
  const form = useForm<ContactInput, unknown, ContactValues>({ resolver: zodResolver(contactSchema), defaultValues: EMPTY });
  const send = useMutation({
    mutationFn: (values: ContactValues) => unwrap(api.contact.$post({ json: values })),
    onSuccess: () => {
      notify.success(CONTACT.success);
      form.reset(EMPTY);
    },
    onError: () => {
      notify.error(CONTACT.failure);
      window.alert(CONTACT.failureAlert);
    },
  });
  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => send.mutate(v))} className="grid gap-4 sm:grid-cols-2">
      <Field label="First Name" error={errors.firstName?.message}>
        <Input autoComplete="given-name" {...form.register('firstName')} />
      </Field>
      <Field label="Last Name" error={errors.lastName?.message}>
        <Input autoComplete="family-name" {...form.register('lastName')} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Field label="Phone" optional error={errors.phone?.message}>
        <Input type="tel" autoComplete="tel" {...form.register('phone')} />
      </Field>
      <Field label="Subject" className="sm:col-span-2" error={errors.subject?.message}>
        <Input {...form.register('subject')} />
      </Field>
      <Field label="Message" className="sm:col-span-2" error={errors.message?.message}>
        <Textarea rows={6} {...form.register('message')} />
      </Field>
      <Button type="submit" size="lg" className="sm:col-span-2" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'SEND MESSAGE'}
      </Button>
    </form>
  );
}
