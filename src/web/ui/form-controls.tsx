// Inputs styled once, plus a Field wrapper that ties a label, a control and its error together.
import { useId, type ComponentProps, type ReactElement, cloneElement } from 'react';
import { cn } from '../lib/cn';

// Red means "something is wrong" here: a focused field is marked in light grey, and only a field
// with an error is red, focused or not.
const controlClass =
  'w-full rounded-md border border-neutral-700 bg-neutral-900 px-3 py-2.5 text-base text-white placeholder:text-neutral-500 focus:border-neutral-300 focus:outline-none focus:ring-2 focus:ring-neutral-300/40 disabled:opacity-60 aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus:ring-red-500/40';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(controlClass, 'h-11', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(controlClass, 'min-h-32', className)} {...props} />;
}

export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(controlClass, 'h-11 appearance-auto', className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('text-sm font-medium text-neutral-200', className)} {...props} />;
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: string;
  optional?: boolean;
  className?: string;
  children: ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }>;
}

export function Field({ label, error, hint, optional, className, children }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>
        {label}
        {optional && <span className="font-normal text-neutral-400"> (optional)</span>}
      </Label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error || hint ? messageId : undefined,
      })}
      {error ? (
        <p id={messageId} role="alert" className="text-sm text-red-400">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-xs text-neutral-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
