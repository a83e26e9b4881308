import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 focus-visible:ring-offset-neutral-950 disabled:pointer-events-none disabled:opacity-50',
  {
    variants: {
      variant: {
        primary: 'bg-red-600 text-white hover:bg-red-500',
        secondary: 'bg-white text-neutral-950 hover:bg-neutral-200',
        outline: 'border border-neutral-700 bg-transparent text-white hover:bg-neutral-900',
        ghost: 'bg-transparent text-neutral-200 hover:bg-neutral-900 hover:text-white',
        link: 'bg-transparent text-red-400 underline-offset-4 hover:underline',
      },
      // Buttons read as one family: upper case with tracking, whatever their label's case.
      size: {
        sm: 'h-9 px-3 text-sm uppercase tracking-wide',
        md: 'h-11 px-5 text-sm uppercase tracking-wide',
        lg: 'h-14 px-8 text-base uppercase tracking-wide',
        xl: 'h-14 px-10 text-lg uppercase tracking-widest',
        icon: 'h-10 w-10',
        /** A link-like button inside text (variant link). */
        inline: 'h-auto p-0 text-sm',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

export interface ButtonProps extends ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  asChild?: boolean;
}

export function Button({ className, variant, size, asChild, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : 'button';
  return <Comp className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
