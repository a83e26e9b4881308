// The two-step first-run tutorial: a spotlight on the profile photo, then on Edit Profile.
// The spotlit control works through the spotlight (the rest of the page is blocked), and each
// step also offers its action itself. Focus moves into the tutorial and stays there; Escape
// ends it as Done does. Completing it is stored on the server for the user.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { TUTORIAL } from '../../../common/dashboard-messages';
import { Button } from '../../ui/button';
import { useCompleteTutorial } from './api';

const TARGETS = ['avatar', 'edit-profile'] as const;
/** The control each step's action presses: the photo picker, then Edit Profile. */
const ACTION_TARGETS = ['[data-tutorial="avatar"] [data-tutorial-action]', '[data-tutorial="edit-profile"] button'] as const;
const PAD = 8;

function visible(selector: string): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>(selector)].find((e) => e.offsetParent !== null);
}

/**
 * Where the spotlit control is on screen, followed every frame: scrolling, resizing, a layout
 * that shifts as pictures load, or a browser that moves the page without telling anyone all keep
 * the spotlight (and the way through it) on the control.
 */
function useTargetRect(target: string) {
  const [rect, setRect] = useState<DOMRect | null>(null);
  useLayoutEffect(() => {
    visible(`[data-tutorial="${target}"]`)?.scrollIntoView({ block: 'center' });
    let frame = 0;
    let last = '';
    const follow = () => {
      const next = visible(`[data-tutorial="${target}"]`)?.getBoundingClientRect() ?? null;
      const key = next ? `${next.top},${next.left},${next.width},${next.height}` : '';
      if (key !== last) {
        last = key;
        setRect(next);
      }
      frame = requestAnimationFrame(follow);
    };
    follow();
    return () => cancelAnimationFrame(frame);
  }, [target]);
  return rect;
}

/** Four panes around the spotlight: they block the page, the spotlight itself lets clicks through. */
function Blockers({ hole }: { hole: { top: number; left: number; width: number; height: number } | null }) {
  const pane = 'pointer-events-auto absolute';
  if (!hole) return <div className={`${pane} inset-0`} />;
  const right = hole.left + hole.width;
  const bottom = hole.top + hole.height;
  return (
    <>
      <div className={pane} style={{ top: 0, left: 0, right: 0, height: Math.max(0, hole.top) }} />
      <div className={pane} style={{ top: bottom, left: 0, right: 0, bottom: 0 }} />
      <div className={pane} style={{ top: hole.top, left: 0, width: Math.max(0, hole.left), height: hole.height }} />
      <div className={pane} style={{ top: hole.top, left: right, right: 0, height: hole.height }} />
    </>
  );
}

/**
 * The steps that ask for what the family has not given yet: a registration that took the team
 * and the jersey number is not asked for them again (issue 34, item 7).
 */
export function tutorialSteps(profile: { teamName: string | null; jerseyNumber: number | null }): number[] {
  return profile.teamName && profile.jerseyNumber !== null ? [0] : [0, 1];
}

export function TutorialOverlay({ steps = [0, 1] }: { steps?: number[] }) {
  const [shown, setShown] = useState(0);
  const step = steps[shown] ?? 0;
  const complete = useCompleteTutorial();
  const rect = useTargetRect(TARGETS[step]!);
  const card = useRef<HTMLDivElement>(null);
  const last = shown === steps.length - 1;
  const content = TUTORIAL.steps[step]!;
  const finish = () => {
    if (!complete.isPending) complete.mutate();
  };
  const hole = rect ? { top: rect.top - PAD, left: rect.left - PAD, width: rect.width + PAD * 2, height: rect.height + PAD * 2 } : null;
  const cardTop = rect ? Math.min(rect.bottom + 16, window.innerHeight - 240) : window.innerHeight / 3;
  const cardLeft = rect ? Math.max(16, Math.min(rect.left, window.innerWidth - 336)) : 16;

  // Focus moves into the tutorial at each step.
  useEffect(() => {
    card.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [shown]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      return finish();
    }
    if (e.key !== 'Tab') return;
    // Focus stays inside the tutorial card.
    const focusable = [...(card.current?.querySelectorAll<HTMLElement>('button:not([disabled])') ?? [])];
    const first = focusable[0];
    const lastEl = focusable[focusable.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      lastEl?.focus();
    } else if (!e.shiftKey && document.activeElement === lastEl) {
      e.preventDefault();
      first?.focus();
    }
  };

  const act = () => {
    visible(ACTION_TARGETS[step]!)?.click();
    // Editing the profile is the last step's whole point: the tutorial is done.
    if (last) finish();
  };

  return (
    <div className="pointer-events-none fixed inset-0 z-40" data-testid="tutorial">
      <Blockers hole={hole} />
      {hole ? (
        <div
          className={`pointer-events-none absolute ring-4 ring-red-500 transition-all duration-300 ${step === 0 ? 'rounded-full' : 'rounded-2xl'}`}
          style={{ ...hole, boxShadow: '0 0 0 9999px rgba(0,0,0,0.75)' }}
        />
      ) : (
        <div className="pointer-events-none absolute inset-0 bg-black/75" />
      )}
      <div
        ref={card}
        role="dialog"
        aria-modal="true"
        aria-labelledby="tutorial-title"
        aria-describedby="tutorial-text"
        onKeyDown={onKeyDown}
        className="pointer-events-auto absolute w-80 max-w-[calc(100vw-2rem)] rounded-xl border border-neutral-700 bg-neutral-900 p-5 shadow-2xl"
        style={{ top: cardTop, left: cardLeft }}
      >
        <p className="text-xs font-semibold uppercase tracking-widest text-red-400">
          Step {shown + 1} of {steps.length}
        </p>
        <h2 id="tutorial-title" className="mt-1 text-lg font-bold text-white">
          {content.title}
        </h2>
        <p id="tutorial-text" className="mt-2 text-sm text-neutral-300">
          {content.text}
        </p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button size="sm" variant="outline" onClick={act} data-autofocus>
            {TUTORIAL.actions[step]}
          </Button>
          {last ? (
            <Button size="sm" onClick={finish} disabled={complete.isPending}>
              {TUTORIAL.done}
            </Button>
          ) : (
            <Button size="sm" onClick={() => setShown((s) => s + 1)}>
              {TUTORIAL.next}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
