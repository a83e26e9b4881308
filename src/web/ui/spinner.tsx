import { cn } from '../lib/cn';

export function Spinner({ size = 'md', label }: { size?: 'sm' | 'md'; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <span className={cn('animate-spin rounded-full border-2 border-neutral-600 border-t-red-500', size === 'sm' ? 'h-4 w-4' : 'h-5 w-5')} />
      {label ? <span>{label}</span> : <span className="sr-only">Loading</span>}
    </span>
  );
}
