// What an athlete's age asks of the parent, the same on the registration, the "finish your
// athlete's profile" step and "Add athlete": under 18 the guardian's agreement; under 13 the
// parent's name and consent (decision 0035); 13 to 17 the parent's own name, optional, so the
// mails greet them (decision 0036).
import { PARENTAL_CONSENT } from '../../common/parental-consent-messages';
import { Field, Input } from './form-controls';
import { GuardianAgreement } from './guardian-agreement';
import { ParentalConsent } from './parental-consent';

export function AgeConsents({
  minor,
  child,
  errors,
  className,
}: {
  minor: boolean;
  child: boolean;
  errors: { guardianConsent?: string; parentName?: string; parentalConsent?: string };
  className?: string;
}) {
  if (!minor) return null;
  return (
    <>
      <GuardianAgreement className={className} error={errors.guardianConsent} />
      {child ? (
        <ParentalConsent className={className} errors={errors} />
      ) : (
        <Field label={PARENTAL_CONSENT.parentName} hint={PARENTAL_CONSENT.holderHint} optional error={errors.parentName} className={`sm:max-w-md ${className ?? ''}`}>
          <Input name="parentName" autoComplete="name" maxLength={120} />
        </Field>
      )}
    </>
  );
}
