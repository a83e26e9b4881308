import { useState } from 'react';
import { AUTH_TOAST_TITLES, LABELS } from '../../../common/messages';
import { DASHBOARD, PROFILE } from '../../../common/dashboard-messages';
import { profileEditSchema, type ProfileEdit } from '../../../common/schemas';
import type { ProfileDto } from '../../../server/profiles/service';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { UsStateSelect } from '../../ui/us-state-select';
import { useEditProfile } from './api';

function EditProfileForm({ profile, onDone }: { profile: ProfileDto; onDone: () => void }) {
  const edit = useEditProfile();
  const form = useSchemaForm(async () => profileEditSchema, async (values: ProfileEdit) => {
    try {
      await edit.mutateAsync(values);
      notify.success(PROFILE.updated);
      onDone();
    } catch (error) {
      notify.error({ title: AUTH_TOAST_TITLES.error, description: (error as Error).message || PROFILE.updateFailed });
    }
  });
  const { errors } = form;
  return (
    <form {...form.props} aria-label={LABELS.editProfile} className="grid gap-4 sm:grid-cols-2">
      <Field label="First Name" error={errors.firstName}>
        <Input name="firstName" defaultValue={profile.firstName} />
      </Field>
      <Field label="Last Name" error={errors.lastName}>
        <Input name="lastName" defaultValue={profile.lastName} />
      </Field>
      <Field label="Team Name" optional error={errors.teamName}>
        <Input name="teamName" defaultValue={profile.teamName ?? ''} />
      </Field>
      <Field label="Jersey Number" optional error={errors.jerseyNumber}>
        <Input name="jerseyNumber" inputMode="numeric" defaultValue={profile.jerseyNumber ?? ''} />
      </Field>
      <Field label="Phone" optional error={errors.phone}>
        <Input name="phone" type="tel" defaultValue={profile.phone ?? ''} />
      </Field>
      <Field label="City" optional error={errors.city}>
        <Input name="city" defaultValue={profile.city ?? ''} />
      </Field>
      <Field label="State" optional className="sm:col-span-2" error={errors.state}>
        <UsStateSelect name="state" placeholder={DASHBOARD.notSpecified} defaultValue={profile.state ?? ''} />
      </Field>
      <DialogFooter className="sm:col-span-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function EditProfileDialog({ profile, trigger }: { profile: ProfileDto; trigger: (open: () => void) => React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {trigger(() => setOpen(true))}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title={LABELS.editProfile} description="Keep your athlete's details current so we can find them in the footage.">
          {/* Mounted when opened, so the fields start from the profile as it is now. */}
          {open && <EditProfileForm profile={profile} onDone={() => setOpen(false)} />}
        </DialogContent>
      </Dialog>
    </>
  );
}
