// Where the request's face matching stands, at the top of the review: "Matching…" with a spinner
// from approval until the job writes its result (the review refreshes itself meanwhile), then the
// result in plain words; before approval, that matching has not started.
import { FOOTAGE, REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { Spinner } from '../../ui/spinner';

export function MatchingState({ state }: { state: string | null }) {
  if (state === 'matching') {
    return (
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-neutral-700 bg-neutral-900 px-3 py-2 text-sm text-neutral-200" data-testid="matching-state">
        <span className="font-semibold text-white">
          <Spinner size="sm" label={FOOTAGE.matchStates.matching} />
        </span>
        <span>{FOOTAGE.matching}</span>
      </div>
    );
  }
  const text = state ? (FOOTAGE.matchStates[state] ?? state) : REVIEW.matchingNotStarted;
  const problem = state === 'failed' || state === 'no_consent' || state === 'no_reference';
  return (
    <p className={cn('mt-1 text-sm', problem && 'rounded-lg bg-yellow-950 px-3 py-2 text-yellow-100')} data-testid="matching-state">
      {text}
    </p>
  );
}
