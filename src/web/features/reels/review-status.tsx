// Where the request's reel stands, beside the review's title: ready for review, rendering (with
// its progress, live), rendered and hidden until paid, delivered. The server works it out from
// the request's status, its latest render and the payment (reels/review.ts reviewStage).
import { REVIEW } from '../../../common/admin-messages';
import { cn } from '../../lib/cn';
import type { Review } from './api';

const TONE: Record<string, string> = {
  rendering: 'border-sky-700 bg-sky-950 text-sky-100',
  render_failed: 'border-red-700 bg-red-950 text-red-100',
  rendered_unpaid: 'border-yellow-700 bg-yellow-950 text-yellow-100',
  rendered: 'border-green-700 bg-green-950 text-green-100',
  delivered: 'border-green-700 bg-green-950 text-green-100',
};

export function ReviewStatus({ review }: { review: Review }) {
  const { stage } = review.request;
  const render = review.render;
  const progress = stage === 'rendering' && render?.state === 'rendering' ? ` · ${render.progress}%` : '';
  return (
    <p role="status" className={cn('rounded-full border px-3 py-1 text-sm font-semibold', TONE[stage] ?? 'border-neutral-700 bg-neutral-900 text-neutral-100')} data-testid="review-status">
      <span className="sr-only">{REVIEW.stage}: </span>
      {(REVIEW.stages[stage] ?? stage) + progress}
    </p>
  );
}
