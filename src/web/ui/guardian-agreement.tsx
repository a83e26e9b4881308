// The parent's or guardian's agreement for an athlete under 18: one checkbox, worded the same on
// the full registration and on the dashboard's "finish your athlete's profile" step.
import { Link } from 'react-router';
import { GUARDIAN_AGREEMENT } from '../../common/messages';

export function GuardianAgreement({ error, className }: { error?: string; className?: string }) {
  return (
    <div className={className}>
      <label className="flex items-start gap-3 rounded-md border border-neutral-700 bg-neutral-900 p-4 text-sm text-neutral-200">
        <input
          name="guardianConsent"
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 accent-red-600"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'guardian-consent-error' : undefined}
        />
        <span>
          {GUARDIAN_AGREEMENT.before}{' '}
          <Link to="/terms" className="text-red-400 underline underline-offset-4 hover:text-red-300">
            {GUARDIAN_AGREEMENT.link}
          </Link>{' '}
          {GUARDIAN_AGREEMENT.after}
        </span>
      </label>
      {error && (
        <p id="guardian-consent-error" role="alert" className="mt-1.5 text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
