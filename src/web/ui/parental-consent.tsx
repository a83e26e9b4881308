// The parent's consent for an athlete under 13 (decision 0035): the parent's own name and a
// checkbox under the notice, worded the same on the full registration and on the dashboard's
// "finish your athlete's profile" step. The server records it from the confirmed address.
import { PARENTAL_CONSENT } from '../../common/parental-consent-messages';
import { Field, Input } from './form-controls';

export function ParentalConsent({ errors, className }: { errors: { parentName?: string; parentalConsent?: string }; className?: string }) {
  return (
    <fieldset className={`flex flex-col gap-3 rounded-md border border-neutral-700 bg-neutral-900 p-4 text-sm text-neutral-200 ${className ?? ''}`} data-testid="parental-consent">
      <legend className="px-1 font-semibold text-white">{PARENTAL_CONSENT.title}</legend>
      <p id="parental-notice" className="text-neutral-300">
        {PARENTAL_CONSENT.notice}
      </p>
      <Field label={PARENTAL_CONSENT.parentName} error={errors.parentName} className="sm:max-w-md">
        <Input name="parentName" autoComplete="name" maxLength={120} />
      </Field>
      <div>
        <label className="flex items-start gap-3">
          <input
            name="parentalConsent"
            type="checkbox"
            className="mt-0.5 h-5 w-5 shrink-0 accent-red-600"
            aria-invalid={errors.parentalConsent ? true : undefined}
            aria-describedby={errors.parentalConsent ? 'parental-consent-error' : 'parental-notice'}
          />
          <span>{PARENTAL_CONSENT.label}</span>
        </label>
        {errors.parentalConsent && (
          <p id="parental-consent-error" role="alert" className="mt-1.5 text-sm text-red-400">
            {errors.parentalConsent}
          </p>
        )}
      </div>
    </fieldset>
  );
}
