// The full athlete registration: every field of the spec, an optional headshot, and the
// spec's outcomes (confirmation needed, account exists, username taken).
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { ADULT_AGE, HEADSHOT_MAX_BYTES, REGISTRATION_EVENTS, TIMING } from '../../../common/constants';
import {
  AUTH_ERRORS,
  AUTH_TOAST_TITLES,
  FILE_TOO_LARGE_5MB,
  HEADSHOT_FAILED,
  INVALID_FILE_TYPE,
  SIGNUP_CONFIRM,
} from '../../../common/messages';
import { ageOn, registrationSchema, type RegistrationInput, type Registration } from '../../../common/schemas';
import { ApiRequestError, isNetworkError } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { UsStateSelect } from '../../ui/us-state-select';
import { Field, Input, NativeSelect } from '../../ui/form-controls';

export interface RegistrationPrefill {
  firstName?: string;
  lastName?: string;
  email?: string;
}

async function submitRegistration(values: RegistrationInput, headshot: File | null) {
  const body = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') body.append(key, String(value));
  }
  if (headshot) body.append('headshot', headshot);
  let res: Response;
  try {
    res = await fetch('/api/account/register', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new ApiRequestError(AUTH_ERRORS.failedToFetchFullSignup, 0, 'NETWORK');
  }
  const json = (await res.json().catch(() => null)) as
    | { userId: string; headshotSaved: boolean | null }
    | { code: string; message: string; title?: string }
    | null;
  if (!res.ok || !json || !('userId' in json)) {
    const err = json && 'code' in json ? json : null;
    throw new ApiRequestError(err?.message ?? AUTH_ERRORS.generic, res.status, err?.code ?? 'ERROR', err?.title);
  }
  return json;
}

export function RegistrationForm({ prefill }: { prefill: RegistrationPrefill }) {
  const navigate = useNavigate();
  const [headshot, setHeadshot] = useState<File | null>(null);
  const [headshotError, setHeadshotError] = useState<string>();
  const form = useForm<RegistrationInput, unknown, Registration>({
    resolver: zodResolver(registrationSchema),
    defaultValues: {
      firstName: prefill.firstName ?? '',
      lastName: prefill.lastName ?? '',
      email: prefill.email ?? '',
      username: '',
      password: '',
      birthday: '',
      state: '' as RegistrationInput['state'],
      city: '',
      phoneNumber: '',
      teamName: '',
      event: '',
      jerseyNumber: '',
      guardianConsent: false,
    },
  });
  const birthday = form.watch('birthday');
  const isMinor = /^\d{4}-\d{2}-\d{2}$/.test(birthday) && ageOn(birthday) < ADULT_AGE;

  const register = useMutation({
    mutationFn: (values: Registration) => submitRegistration(values, headshot),
    onSuccess: (result, values) => {
      if (result.headshotSaved === false) console.warn(HEADSHOT_FAILED);
      notify.success(SIGNUP_CONFIRM, TIMING.signupConfirmToast);
      const email = values.email.trim().toLowerCase();
      setTimeout(() => navigate('/auth/verify-email', { state: { email } }), TIMING.confirmationRedirect);
    },
    onError: (error: Error) => {
      const e = error instanceof ApiRequestError ? error : null;
      const email = form.getValues('email').trim().toLowerCase();
      if (e?.code === 'ACCOUNT_EXISTS') {
        notify.error({ title: e.title ?? AUTH_TOAST_TITLES.signUp, description: e.message });
        navigate(`/auth?email=${encodeURIComponent(email)}`);
        return;
      }
      if (e?.code === 'USER_ALREADY_EXISTS') {
        notify.error({ title: AUTH_TOAST_TITLES.signUp, description: AUTH_ERRORS.alreadyRegisteredFullSignup });
        setTimeout(() => navigate(`/auth?email=${encodeURIComponent(email)}`), TIMING.alreadyRegisteredRedirect);
        return;
      }
      if (e?.code === 'USERNAME_TAKEN') {
        form.setError('username', { message: e.message });
        notify.error({ title: e.title ?? AUTH_TOAST_TITLES.signUp, description: e.message });
        return;
      }
      const description = isNetworkError(error) ? AUTH_ERRORS.failedToFetchFullSignup : error.message;
      notify.error({ title: AUTH_TOAST_TITLES.signUp, description });
    },
  });

  const onHeadshot = (file: File | undefined) => {
    setHeadshotError(undefined);
    if (!file) return setHeadshot(null);
    if (!file.type.startsWith('image/')) {
      setHeadshot(null);
      return setHeadshotError(INVALID_FILE_TYPE.description);
    }
    if (file.size > HEADSHOT_MAX_BYTES) {
      setHeadshot(null);
      return setHeadshotError(FILE_TOO_LARGE_5MB.description);
    }
    setHeadshot(file);
  };

  const { errors } = form.formState;
  const done = register.isSuccess;
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => register.mutate(v))} className="grid gap-5 md:grid-cols-2">
      <Field label="First Name" error={errors.firstName?.message}>
        <Input autoComplete="given-name" {...form.register('firstName')} />
      </Field>
      <Field label="Last Name" error={errors.lastName?.message}>
        <Input autoComplete="family-name" {...form.register('lastName')} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Field label="Username" error={errors.username?.message}>
        <Input autoComplete="username" {...form.register('username')} />
      </Field>
      <Field label="Password" error={errors.password?.message} hint="At least 6 characters.">
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </Field>
      <Field label="Birthday" error={errors.birthday?.message}>
        <Input type="date" autoComplete="bday" {...form.register('birthday')} />
      </Field>
      <Field label="State" error={errors.state?.message}>
        <UsStateSelect placeholder="Select a state" {...form.register('state')} />
      </Field>
      <Field label="City" error={errors.city?.message}>
        <Input autoComplete="address-level2" {...form.register('city')} />
      </Field>
      <Field label="Phone Number" optional error={errors.phoneNumber?.message}>
        <Input type="tel" autoComplete="tel" {...form.register('phoneNumber')} />
      </Field>
      <Field label="Team Name" error={errors.teamName?.message}>
        <Input {...form.register('teamName')} />
      </Field>
      <Field label="Event" error={errors.event?.message}>
        <NativeSelect {...form.register('event')}>
          <option value="">Select an event</option>
          {REGISTRATION_EVENTS.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Jersey Number" optional error={errors.jerseyNumber?.message}>
        <Input inputMode="numeric" {...form.register('jerseyNumber')} />
      </Field>
      <Field
        label="Headshot"
        optional
        className="md:col-span-2"
        error={headshotError}
        hint="A clear, front-facing photo of the athlete's face helps us find them in the footage. It stays private."
      >
        <Input
          type="file"
          accept="image/*"
          className="h-auto py-2 file:mr-4 file:rounded file:border-0 file:bg-neutral-800 file:px-3 file:py-1.5 file:text-white"
          onChange={(e) => onHeadshot(e.target.files?.[0])}
        />
      </Field>
      {isMinor && (
        <div className="md:col-span-2">
          <label className="flex items-start gap-3 rounded-md border border-neutral-700 bg-neutral-900 p-4 text-sm text-neutral-200">
            <input
              type="checkbox"
              className="mt-0.5 h-5 w-5 shrink-0 accent-red-600"
              aria-invalid={errors.guardianConsent ? true : undefined}
              aria-describedby={errors.guardianConsent ? 'guardian-consent-error' : undefined}
              {...form.register('guardianConsent')}
            />
            <span>
              I am this athlete's parent or legal guardian, and I agree to the{' '}
              <Link to="/terms" className="text-red-400 hover:underline">
                Terms and Privacy Policy
              </Link>{' '}
              on their behalf. Athletes under 18 need a parent's or guardian's agreement.
            </span>
          </label>
          {errors.guardianConsent?.message && (
            <p id="guardian-consent-error" role="alert" className="mt-1.5 text-sm text-red-400">
              {errors.guardianConsent.message}
            </p>
          )}
        </div>
      )}
      <div className="flex flex-col gap-3 md:col-span-2">
        <p className="text-xs text-neutral-400">
          By registering you agree to our{' '}
          <Link to="/terms" className="text-red-400 hover:underline">
            Terms and Privacy Policy
          </Link>
          . Athletes must be at least 13; under 18, a parent or guardian registers with them.
        </p>
        <Button type="submit" size="lg" disabled={register.isPending || done}>
          {register.isPending ? 'Creating your account...' : done ? 'Check your email' : 'CREATE ACCOUNT'}
        </Button>
        <p className="text-center text-sm text-neutral-400">
          Already have an account?{' '}
          <Link to="/auth" className="font-semibold text-red-400 hover:underline">
            Sign in
          </Link>
        </p>
      </div>
    </form>
  );
}
