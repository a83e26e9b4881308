import { cn } from '../lib/cn';

/** The brand mark: a record dot inside a lens ring. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('h-8 w-8', className)}>
      <circle cx="32" cy="32" r="24" fill="none" stroke="currentColor" strokeWidth="6" />
      <circle cx="32" cy="32" r="9" className="fill-red-500" />
    </svg>
  );
}
