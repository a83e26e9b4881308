// "Add athlete": the athlete's name, birthday, team and number with the registration's rules and
// texts; under 18 the guardian's agreement, under 13 the parent's name and consent (decision 0035),
// which the server records at once from the family's confirmed address.
import { useState } from 'react';
import { ADULT_AGE, CHILD_AGE } from '../../../common/constants';
import { FAMILY } from '../../../common/family-messages';
import { addAthleteSchema, ageOn, type AddAthlete } from '../../../common/schemas';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { AgeConsents } from '../../ui/age-consents';
import { addAthlete, showAthlete } from './api';
import type { PendingAthlete } from './pending-athlete';

const ageOf = (birthday: string) => (/^\d{4}-\d{2}-\d{2}$/.test(birthday) ? ageOn(birthday) : null);

export function AddAthleteDialog({ open, initial, onOpenChange }: { open: boolean; initial?: PendingAthlete | null; onOpenChange(open: boolean): void }) {
  const [age, setAge] = useState<number | null>(() => (initial ? ageOf(initial.birthday) : null));
  const [busy, setBusy] = useState(false);
  const form = useSchemaForm(async () => addAthleteSchema, async (values: AddAthlete) => {
    setBusy(true);
    try {
      const athlete = await addAthlete(values);
      notify.success(FAMILY.added(athlete.firstName), 6000);
      // The server now acts for the new athlete: their dashboard asks for their photo next.
      showAthlete();
    } catch (error) {
      setBusy(false);
      notify.error({ title: FAMILY.addTitle, description: (error as Error).message });
    }
  });
  const { errors } = form;
  const minor = age !== null && age < ADULT_AGE;
  const child = age !== null && age < CHILD_AGE;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={FAMILY.addTitle} description={FAMILY.addIntro} size="lg">
        <form {...form.props} aria-label={FAMILY.addTitle} className="flex flex-col gap-4">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label="First Name" error={errors.firstName}>
              <Input name="firstName" autoComplete="off" maxLength={60} defaultValue={initial?.firstName} />
            </Field>
            <Field label="Last Name" error={errors.lastName}>
              <Input name="lastName" autoComplete="off" maxLength={60} defaultValue={initial?.lastName} />
            </Field>
            <Field label="Birthday" error={errors.birthday}>
              <Input name="birthday" type="date" defaultValue={initial?.birthday} onChange={(e) => setAge(ageOf(e.target.value))} />
            </Field>
            <Field label="Jersey Number" optional error={errors.jerseyNumber}>
              <Input name="jerseyNumber" inputMode="numeric" maxLength={4} defaultValue={initial?.jerseyNumber} />
            </Field>
            <Field label="Team Name" error={errors.teamName} className="sm:col-span-2">
              <Input name="teamName" maxLength={100} defaultValue={initial?.teamName} />
            </Field>
          </div>
          <AgeConsents minor={minor} child={child} errors={errors} />
          <DialogFooter className="flex-col-reverse sm:flex-row">
            <Button type="button" variant="outline" className="w-full sm:w-auto" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
              {busy ? 'Adding...' : FAMILY.addSubmit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
