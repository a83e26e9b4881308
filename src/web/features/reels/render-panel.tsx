// Render: the spotlight choice, the button, live progress, and what the family has now.
import { useState } from 'react';
import { Clapperboard } from 'lucide-react';
import { REVIEW } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { type Review, useRender } from './api';

export function RenderPanel({ review }: { review: Review }) {
  const render = useRender(review.request.id);
  const [spotlight, setSpotlight] = useState(review.render?.spotlight ?? true);
  const current = review.render;
  const running = current?.state === 'queued' || current?.state === 'rendering';
  const accepted = review.clips.filter((c) => c.decision === 'accepted').length;
  return (
    <section aria-labelledby="render-title" className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-4">
      <h2 id="render-title" className="mb-3 font-semibold text-white">
        {REVIEW.render}
      </h2>
      <label className="mb-3 flex items-start gap-2 text-sm text-neutral-200">
        <input type="checkbox" className="mt-0.5 h-4 w-4 accent-red-600" checked={spotlight} onChange={(e) => setSpotlight(e.target.checked)} />
        {REVIEW.spotlight}
      </label>
      <Button
        disabled={running || render.isPending || accepted === 0}
        onClick={() =>
          render.mutate(
            { spotlight },
            { onSuccess: () => notify.success({ title: REVIEW.renderStarted, description: '' }), onError: (e) => notify.error({ title: REVIEW.failed, description: e.message }) },
          )
        }
      >
        <Clapperboard className="h-4 w-4" aria-hidden="true" />
        {current ? REVIEW.renderAgain : REVIEW.render}
      </Button>
      {accepted === 0 && <p className="mt-2 text-sm text-neutral-300">{REVIEW.renderNeedsClips}</p>}
      {current && (
        <div className="mt-4 text-sm" aria-live="polite">
          <p className="text-neutral-200" data-testid="render-state">
            {REVIEW.renderStates[current.state] ?? current.state}
            {current.state === 'rendering' && current.stage ? ` · ${REVIEW.renderStages[current.stage] ?? current.stage} · ${current.progress}%` : ''}
          </p>
          {running && (
            <div className="mt-2 h-1.5 overflow-hidden rounded bg-neutral-800" role="progressbar" aria-label={REVIEW.renderStates.rendering} aria-valuenow={current.progress} aria-valuemin={0} aria-valuemax={100}>
              <div className="h-full bg-red-500 transition-all" style={{ width: `${current.progress}%` }} />
            </div>
          )}
          {current.error && <p className="mt-1 text-red-300">{current.error}</p>}
        </div>
      )}
      {review.outputs.length > 0 && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-white">{REVIEW.outputs}</h3>
          <ul className="mt-1 text-sm text-neutral-300">
            {review.outputs.map((o) => (
              <li key={o.id}>
                {o.durationSeconds ? (
                  <a className="text-red-400 underline-offset-4 hover:underline" href={`/api/videos/${o.id}/stream`} target="_blank" rel="noreferrer">
                    {REVIEW.videoTypes[o.videoType] ?? o.videoType}
                  </a>
                ) : (
                  (REVIEW.videoTypes[o.videoType] ?? o.videoType)
                )}
                {o.durationSeconds ? ` · ${o.durationSeconds.toFixed(1)} s` : ''} · {o.isVisible ? REVIEW.outputVisible : REVIEW.outputHidden}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
