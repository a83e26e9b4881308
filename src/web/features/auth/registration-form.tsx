// The full athlete registration: every field of the spec, an optional headshot with the choice of
// face matching next to it, the age rule
// (13 and over; under 18 with a parent's or guardian's agreement), and the spec's outcomes
// (confirmation needed, account exists, username taken).
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ADULT_AGE, CHILD_AGE, HEADSHOT_MAX_BYTES, HEADSHOT_SHRINK, OTHER_EVENT, TIMING } from '../../../common/constants';
import { AUTH_ERRORS, AUTH_TOAST_TITLES, HEADSHOT_ADVICE, HEADSHOT_FAILED, HEADSHOT_SHRINKING, INVALID_FILE_TYPE, LABELS, SIGNUP_CONFIRM } from '../../../common/messages';
import { FACE_MATCHING, FILE_TOO_LARGE_10MB } from '../../../common/dashboard-messages';
import { ageOn, registrationSchema, type Registration } from '../../../common/schemas';
import { ApiRequestError, errorFrom, isNetworkError } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
import { notify } from '../../lib/toast';
import { shrinkImage } from '../../lib/shrink-image';
import { checkImageFile } from '../../lib/upload';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input, NativeSelect } from '../../ui/form-controls';
import { AgeConsents } from '../../ui/age-consents';
import { ImageDropZone } from '../../ui/image-drop-zone';
import { UsStateSelect } from '../../ui/us-state-select';
import { useRegistrationEvents } from './registration-events';
import { anotherAthleteNote } from '../../../common/family-messages';
import { keepPendingAthlete } from '../family/pending-athlete';

export interface RegistrationPrefill {
  firstName?: string;
  lastName?: string;
  email?: string;
}

async function submitRegistration(values: Registration, headshot: File | null) {
  const body = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '' && value !== false) body.append(key, String(value));
  }
  if (headshot) body.append('headshot', headshot);
  let res: Response;
  try {
    res = await fetch('/api/account/register', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new ApiRequestError(AUTH_ERRORS.failedToFetchFullSignup, 0, 'NETWORK');
  }
  if (!res.ok) throw await errorFrom(res);
  return (await res.json()) as {
    userId: string;
    headshotSaved: boolean | null;
    /** Whether the headshot can be used for face matching, and what to do if not (null: nothing to say). */
    faceMatching: { consent: boolean; pending?: boolean; headshot: 'usable' | 'unusable' | 'missing' | 'off'; message: string | null };
  };
}

const isMinorOn = (birthday: string) => /^\d{4}-\d{2}-\d{2}$/.test(birthday) && ageOn(birthday) < ADULT_AGE;
const isChildOn = (birthday: string) => /^\d{4}-\d{2}-\d{2}$/.test(birthday) && ageOn(birthday) < CHILD_AGE;

export function RegistrationForm({ prefill }: { prefill: RegistrationPrefill }) {
  const navigate = useNavigate();
  const [headshot, setHeadshot] = useState<File | null>(null);
  const [headshotError, setHeadshotError] = useState<string>();
  const [isMinor, setIsMinor] = useState(false);
  const [isChild, setIsChild] = useState(false);
  /** While a large headshot is scaled down the form waits; only the latest pick counts. */
  const [shrinking, setShrinking] = useState(false);
  const latestPick = useRef<File | null>(null);
  const events = useRegistrationEvents();

  const register = useAction((values: Registration) => submitRegistration(values, headshot), {
    onSuccess: (result, values) => {
      if (result.headshotSaved === false) console.warn(HEADSHOT_FAILED);
      notify.success(SIGNUP_CONFIRM, TIMING.signupConfirmToast);
      // The confirmation page also says whether the headshot can be used for face matching.
      const faceMatching = result.faceMatching?.message ? { ok: result.faceMatching.headshot === 'usable' || Boolean(result.faceMatching.pending), text: result.faceMatching.message } : undefined;
      setTimeout(() => navigate('/auth/verify-email', { state: { email: values.email, faceMatching } }), TIMING.confirmationRedirect);
    },
    onError: (error) => {
      const e = error instanceof ApiRequestError ? error : null;
      const email = form.value('email').trim().toLowerCase();
      if (e?.code === 'ACCOUNT_EXISTS') {
        notify.error({ title: e.title ?? AUTH_TOAST_TITLES.signUp, description: e.message });
        // Most often a parent registering a second child: signed in, "Add athlete" opens with it.
        keepPendingAthlete({
          firstName: form.value('firstName'),
          lastName: form.value('lastName'),
          birthday: form.value('birthday'),
          teamName: form.value('teamName'),
          jerseyNumber: form.value('jerseyNumber'),
        });
        // The spec's toast stays the one toast; the way on is said on the sign-in page.
        navigate(`/auth?email=${encodeURIComponent(email)}`, { state: { message: anotherAthleteNote(form.value('firstName')) } });
        return;
      }
      if (e?.code === 'USER_ALREADY_EXISTS') {
        notify.error({ title: AUTH_TOAST_TITLES.signUp, description: AUTH_ERRORS.alreadyRegisteredFullSignup });
        setTimeout(() => navigate(`/auth?email=${encodeURIComponent(email)}`), TIMING.alreadyRegisteredRedirect);
        return;
      }
      if (e?.code === 'USERNAME_TAKEN') {
        form.setError('username', e.message);
        notify.error({ title: e.title ?? AUTH_TOAST_TITLES.signUp, description: e.message });
        return;
      }
      const description = isNetworkError(error) ? AUTH_ERRORS.failedToFetchFullSignup : error.message;
      notify.error({ title: AUTH_TOAST_TITLES.signUp, description });
    },
  });
  const form = useSchemaForm(async () => registrationSchema, register.run);

  const onHeadshot = (file: File | null) => {
    latestPick.current = file;
    setHeadshotError(undefined);
    setShrinking(false);
    if (!file) return setHeadshot(null);
    const problem = checkImageFile(file, HEADSHOT_MAX_BYTES);
    if (problem === 'type') {
      setHeadshot(null);
      return setHeadshotError(INVALID_FILE_TYPE.description);
    }
    if (!problem) return setHeadshot(file);
    // Over the limit: a photo straight from a phone or camera. Scale it down here rather than refuse it.
    setHeadshot(null);
    setShrinking(true);
    void shrinkImage(file, HEADSHOT_SHRINK)
      .then((small) => (small.size <= HEADSHOT_MAX_BYTES ? small : null), () => null)
      .then((small) => {
        if (latestPick.current !== file) return; // another photo was picked meanwhile
        setShrinking(false);
        if (small) setHeadshot(small);
        else setHeadshotError(FILE_TOO_LARGE_10MB.description);
      });
  };

  const { errors } = form;
  const done = register.isSuccess;
  return (
    <form {...form.props} aria-label="Create your athlete profile" className="grid gap-5 md:grid-cols-2">
      <Field label="First Name" error={errors.firstName}>
        <Input name="firstName" autoComplete="given-name" defaultValue={prefill.firstName} />
      </Field>
      <Field label="Last Name" error={errors.lastName}>
        <Input name="lastName" autoComplete="family-name" defaultValue={prefill.lastName} />
      </Field>
      <Field label="Email" error={errors.email}>
        <Input name="email" type="email" autoComplete="email" inputMode="email" defaultValue={prefill.email} />
      </Field>
      <Field label="Username" error={errors.username}>
        <Input name="username" autoComplete="username" />
      </Field>
      <Field label="Password" error={errors.password} hint="At least 6 characters.">
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <Field label="Birthday" error={errors.birthday}>
        <Input name="birthday" type="date" autoComplete="bday" onChange={(e) => {
            setIsMinor(isMinorOn(e.target.value));
            setIsChild(isChildOn(e.target.value));
          }} />
      </Field>
      <Field label="State" error={errors.state}>
        <UsStateSelect name="state" placeholder="Select a state" defaultValue="" />
      </Field>
      <Field label="City" error={errors.city}>
        <Input name="city" autoComplete="address-level2" />
      </Field>
      <Field label="Phone Number" optional error={errors.phoneNumber}>
        <Input name="phoneNumber" type="tel" autoComplete="tel" />
      </Field>
      <Field label="Team Name" error={errors.teamName}>
        <Input name="teamName" />
      </Field>
      <Field label="Event" error={errors.event}>
        <NativeSelect name="event" defaultValue="">
          <option value="">Select an event</option>
          {events.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
          <option value={OTHER_EVENT.value}>{OTHER_EVENT.label}</option>
        </NativeSelect>
      </Field>
      <Field label="Jersey Number" optional error={errors.jerseyNumber}>
        <Input name="jerseyNumber" inputMode="numeric" />
      </Field>
      <ImageDropZone
        label="Headshot"
        optional
        className="md:col-span-2"
        advice={HEADSHOT_ADVICE}
        file={headshot}
        onFile={onHeadshot}
        error={headshotError}
      />
      {shrinking && (
        <p role="status" className="-mt-3 text-sm text-neutral-300 md:col-span-2">
          {HEADSHOT_SHRINKING}
        </p>
      )}
      <div className="rounded-md border border-neutral-700 bg-neutral-900 p-4 text-sm text-neutral-200 md:col-span-2">
        <label className="flex items-start gap-3">
          <input name="faceMatchConsent" type="checkbox" className="mt-0.5 h-5 w-5 shrink-0 accent-red-600" aria-describedby="face-match-explanation" />
          <span>
            <span className="font-semibold text-white">{FACE_MATCHING.consentLabel}</span> {FACE_MATCHING.optionalNote}
          </span>
        </label>
        <p id="face-match-explanation" className="mt-2 pl-8 text-neutral-300">
          {FACE_MATCHING.explanation}
        </p>
      </div>
      <AgeConsents minor={isMinor} child={isChild} errors={errors} className="md:col-span-2" />
      <div className="flex flex-col gap-3 md:col-span-2">
        <p className="text-xs text-neutral-400">
          By registering you agree to our{' '}
          <Link to="/terms" className="text-red-400 underline underline-offset-4 hover:text-red-300">
            Terms and Privacy Policy
          </Link>
          . Under 18, a parent or guardian registers with the athlete; under 13, with their consent.
        </p>
        <Button type="submit" size="lg" disabled={register.isPending || done || shrinking}>
          {register.isPending ? 'Creating your account...' : done ? 'Check your email' : LABELS.createAccount}
        </Button>
        <p className="text-center text-sm text-neutral-400">
          Already have an account?{' '}
          <Link to="/auth" className="font-semibold text-red-400 underline underline-offset-4 hover:text-red-300">
            Sign in
          </Link>
        </p>
      </div>
    </form>
  );
}
