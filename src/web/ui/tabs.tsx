// Tabs with the WAI-ARIA tabs pattern: one tab in the tab order, arrow keys (and Home/End) move
// between tabs and select them, each panel labelled by its tab. Small enough for the first script
// of the sign-in page.
import { createContext, useContext, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn';

interface TabsState {
  value: string;
  select(value: string): void;
  idFor(part: 'tab' | 'panel', value: string): string;
}
const TabsContext = createContext<TabsState | null>(null);
const useTabs = () => useContext(TabsContext)!;

export function Tabs({ value, onValueChange, children }: { value: string; onValueChange(value: string): void; children: ReactNode }) {
  const base = useId();
  const state: TabsState = { value, select: onValueChange, idFor: (part, v) => `${base}-${part}-${v}` };
  return <TabsContext.Provider value={state}>{children}</TabsContext.Provider>;
}

export function TabsList({ className, children, label }: { className?: string; children: ReactNode; label?: string }) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    const tabs = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length]!;
    target.focus();
    target.click();
  };
  return (
    <div ref={list} role="tablist" aria-label={label} onKeyDown={onKeyDown} className={cn('grid grid-cols-2 rounded-lg bg-neutral-950 p-1', className)}>
      {children}
    </div>
  );
}

export function TabsTrigger({ value, children }: { value: string; children: ReactNode }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idFor('tab', value)}
      aria-selected={selected}
      aria-controls={selected ? tabs.idFor('panel', value) : undefined}
      tabIndex={selected ? 0 : -1}
      data-state={selected ? 'active' : 'inactive'}
      onClick={() => tabs.select(value)}
      className={cn(
        'rounded-md px-3 py-2 text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500',
        selected ? 'bg-neutral-800 text-white' : 'text-neutral-300 hover:text-white',
      )}
    >
      {children}
    </button>
  );
}

export function TabsContent({ value, children }: { value: string; children: ReactNode }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div role="tabpanel" id={tabs.idFor('panel', value)} aria-labelledby={tabs.idFor('tab', value)} tabIndex={0} className="focus-visible:outline-none">
      {children}
    </div>
  );
}
