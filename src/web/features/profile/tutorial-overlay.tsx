// The two-step first-run tutorial: a spotlight on the profile photo, then on Edit Profile.
// Completing it is stored on the server for the user (not only in this browser).
import { useLayoutEffect, useState } from 'react';
import { TUTORIAL } from '../../../common/messages';
import { Button } from '../../ui/button';
import { useCompleteTutorial } from './api';

const TARGETS = ['avatar', 'edit-profile'] as const;

function useTargetRect(target: string) {
  const [rect, setRect] = useState<DOMRect | null>(null);
  useLayoutEffect(() => {
    const measure = () => {
      const el = [...document.querySelectorAll<HTMLElement>(`[data-tutorial="${target}"]`)].find((e) => e.offsetParent !== null);
      el?.scrollIntoView({ block: 'center' });
      setRect(el ? el.getBoundingClientRect() : null);
    };
    measure();
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [target]);
  return rect;
}

export function TutorialOverlay() {
  const [step, setStep] = useState(0);
  const complete = useCompleteTutorial();
  const rect = useTargetRect(TARGETS[step]!);
  const last = step === TUTORIAL.steps.length - 1;
  const content = TUTORIAL.steps[step]!;
  const pad = 8;
  const cardTop = rect ? Math.min(rect.bottom + 16, window.innerHeight - 220) : window.innerHeight / 3;
  const cardLeft = rect ? Math.max(16, Math.min(rect.left, window.innerWidth - 336)) : 16;

  return (
    <div className="fixed inset-0 z-50" role="dialog" aria-modal="true" aria-labelledby="tutorial-title">
      {rect ? (
        <div
          className={`pointer-events-none absolute ring-4 ring-red-500 transition-all duration-300 ${step === 0 ? 'rounded-full' : 'rounded-2xl'}`}
          style={{
            top: rect.top - pad,
            left: rect.left - pad,
            width: rect.width + pad * 2,
            height: rect.height + pad * 2,
            boxShadow: '0 0 0 9999px rgba(0,0,0,0.75)',
          }}
        />
      ) : (
        <div className="absolute inset-0 bg-black/75" />
      )}
      <div className="absolute w-80 rounded-xl border border-neutral-700 bg-neutral-900 p-5 shadow-2xl" style={{ top: cardTop, left: cardLeft }}>
        <p className="text-xs font-semibold uppercase tracking-widest text-red-400">
          Step {step + 1} of {TUTORIAL.steps.length}
        </p>
        <h2 id="tutorial-title" className="mt-1 text-lg font-bold text-white">
          {content.title}
        </h2>
        <p className="mt-2 text-sm text-neutral-300">{content.text}</p>
        <div className="mt-4 flex justify-end">
          {last ? (
            <Button size="sm" onClick={() => complete.mutate()} disabled={complete.isPending}>
              {TUTORIAL.done}
            </Button>
          ) : (
            <Button size="sm" onClick={() => setStep((s) => s + 1)}>
              {TUTORIAL.next}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
