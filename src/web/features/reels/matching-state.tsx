// Where the request's face matching stands, at the top of the review: "Matching…" with a spinner
// from approval until the job writes its result (the review refreshes itself meanwhile), then the
// result in plain words; before approval, that matching has not started.
import { FOOTAGE, REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import { Spinner } from '../../ui/spinner';

export interface UnsearchedCamera {
  footageId: string;
  game: string;
  camera: string;
  indexState: string;
  reason: string | null;
}

export function MatchingState({ state, unsearched = [] }: { state: string | null; unsearched?: UnsearchedCamera[] }) {
  return (
    <>
      <MatchingLine state={state} />
      {/* Matching saw only the indexed cameras: the others are named, with why, whatever it found. */}
      {unsearched.length > 0 && (
        <div className="mt-2 rounded-lg bg-yellow-950 px-3 py-2 text-sm text-yellow-100" data-testid="unsearched-cameras">
          <p className="font-semibold">{FOOTAGE.unsearchedTitle(unsearched.length)}</p>
          <ul className="mt-1 list-disc pl-5">
            {unsearched.map((c) => (
              <li key={c.footageId}>{FOOTAGE.unsearchedCamera(c.game, c.camera, FOOTAGE.states[c.indexState] ?? c.indexState, c.reason)}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

function MatchingLine({ state }: { state: string | null }) {
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
