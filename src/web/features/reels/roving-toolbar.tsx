// A row of buttons that is one tab stop: Tab enters at the button used last, the arrow keys (and
// Home, End) move between them. Keeps a clip card in the reel to a few tab stops, so the next
// clip's trim fields are near (WAI-ARIA toolbar pattern).
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export function RovingToolbar({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const buttons = () => [...(ref.current?.querySelectorAll<HTMLElement>('button') ?? [])];
  // After every render exactly one button is in the tab order.
  useLayoutEffect(() => {
    const list = buttons();
    const at = Math.min(active, list.length - 1);
    list.forEach((b, i) => (b.tabIndex = i === at ? 0 : -1));
  });
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label={label}
      className={className}
      onFocus={(e) => {
        const at = buttons().indexOf(e.target as HTMLElement);
        if (at >= 0) setActive(at);
      }}
      onKeyDown={(e) => {
        const list = buttons();
        const at = list.indexOf(document.activeElement as HTMLElement);
        if (at < 0) return;
        const next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 }[e.key];
        if (next === undefined) return;
        e.preventDefault();
        list[(next + list.length) % list.length]!.focus();
      }}
    >
      {children}
    </div>
  );
}
