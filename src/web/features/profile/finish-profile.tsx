// "Finish your athlete's profile": an account made with the quick sign-up gives the athlete's
// birthday and, under 18, a parent's or guardian's agreement, with the full registration's rules
// and texts, before face matching or a reel request (the server refuses both until then).
import { useState } from 'react';
import { ADULT_AGE, CHILD_AGE } from '../../../common/constants';
import { FINISH_PROFILE } from '../../../common/dashboard-messages';
import { ageOn, athleteAgeSchema, type AthleteAge } from '../../../common/schemas';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Field, Input } from '../../ui/form-controls';
import { AgeConsents } from '../../ui/age-consents';
import { useFinishAthleteProfile } from './api';

const isMinorOn = (birthday: string) => /^\d{4}-\d{2}-\d{2}$/.test(birthday) && ageOn(birthday) < ADULT_AGE;
const isChildOn = (birthday: string) => /^\d{4}-\d{2}-\d{2}$/.test(birthday) && ageOn(birthday) < CHILD_AGE;

export function FinishProfileCard() {
  const finish = useFinishAthleteProfile();
  const [isMinor, setIsMinor] = useState(false);
  const [isChild, setIsChild] = useState(false);
  const form = useSchemaForm(async () => athleteAgeSchema, async (values: AthleteAge) => {
    try {
      await finish.mutateAsync(values);
      notify.success(FINISH_PROFILE.saved);
    } catch (error) {
      notify.error({ title: FINISH_PROFILE.title, description: (error as Error).message });
    }
  });
  const { errors } = form;
  return (
    <Card className="mb-8 border-red-900/70" aria-labelledby="finish-profile-title" data-testid="finish-profile">
      <CardTitle id="finish-profile-title" className="mb-1">
        {FINISH_PROFILE.title}
      </CardTitle>
      <p className="mb-5 max-w-3xl text-sm text-neutral-300">{FINISH_PROFILE.intro}</p>
      <form {...form.props} aria-label={FINISH_PROFILE.title} className="flex max-w-3xl flex-col gap-4">
        <Field label="Birthday" className="sm:max-w-64" error={errors.birthday}>
          <Input name="birthday" type="date" autoComplete="bday" onChange={(e) => {
            setIsMinor(isMinorOn(e.target.value));
            setIsChild(isChildOn(e.target.value));
          }} />
        </Field>
        <AgeConsents minor={isMinor} child={isChild} errors={errors} />
        <Button type="submit" className="sm:self-start sm:px-10" disabled={finish.isPending}>
          {finish.isPending ? FINISH_PROFILE.saving : FINISH_PROFILE.save}
        </Button>
      </form>
    </Card>
  );
}
