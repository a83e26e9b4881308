import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { AUTH_TOAST_TITLES, DASHBOARD, LABELS, PROFILE } from '../../../common/messages';
import { profileEditSchema, type ProfileEdit, type ProfileEditInput } from '../../../common/schemas';
import type { ProfileDto } from '../../../server/profiles/service';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { UsStateSelect } from '../../ui/us-state-select';
import { Dialog, DialogContent } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { useEditProfile } from './api';

const toForm = (p: ProfileDto): ProfileEditInput => ({
  firstName: p.firstName,
  lastName: p.lastName,
  teamName: p.teamName ?? '',
  phone: p.phone ?? '',
  city: p.city ?? '',
  state: p.state ?? '',
  jerseyNumber: p.jerseyNumber == null ? '' : String(p.jerseyNumber),
});

export function EditProfileDialog({ profile, trigger }: { profile: ProfileDto; trigger: (open: () => void) => React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const edit = useEditProfile();
  const form = useForm<ProfileEditInput, unknown, ProfileEdit>({ resolver: zodResolver(profileEditSchema), defaultValues: toForm(profile) });

  useEffect(() => {
    if (open) form.reset(toForm(profile));
  }, [open, profile, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await edit.mutateAsync(values);
      notify.success(PROFILE.updated);
      setOpen(false);
    } catch (error) {
      notify.error({ title: AUTH_TOAST_TITLES.error, description: (error as Error).message || PROFILE.updateFailed });
    }
  });
  const { errors } = form.formState;

  return (
    <>
      {trigger(() => setOpen(true))}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title={LABELS.editProfile} description="Keep your athlete's details current so we can find them in the footage.">
          <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
            <Field label="First Name" error={errors.firstName?.message}>
              <Input {...form.register('firstName')} />
            </Field>
            <Field label="Last Name" error={errors.lastName?.message}>
              <Input {...form.register('lastName')} />
            </Field>
            <Field label="Team Name" optional error={errors.teamName?.message}>
              <Input {...form.register('teamName')} />
            </Field>
            <Field label="Jersey Number" optional error={errors.jerseyNumber?.message}>
              <Input inputMode="numeric" {...form.register('jerseyNumber')} />
            </Field>
            <Field label="Phone" optional error={errors.phone?.message}>
              <Input type="tel" {...form.register('phone')} />
            </Field>
            <Field label="City" optional error={errors.city?.message}>
              <Input {...form.register('city')} />
            </Field>
            <Field label="State" optional className="sm:col-span-2" error={errors.state?.message}>
              <UsStateSelect placeholder={DASHBOARD.notSpecified} {...form.register('state')} />
            </Field>
            <div className="flex justify-end gap-3 sm:col-span-2">
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={edit.isPending}>
                {edit.isPending ? 'Saving...' : 'Save Changes'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
