/** The brand mark: a record dot inside a lens ring. */
export function LogoMark({ size = 'md' }: { size?: 'md' | 'lg' }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={size === 'lg' ? 'h-14 w-14' : 'h-8 w-8'}>
      <circle cx="32" cy="32" r="24" fill="none" stroke="currentColor" strokeWidth="6" />
      <circle cx="32" cy="32" r="9" className="fill-red-500" />
    </svg>
  );
}
