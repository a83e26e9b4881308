// The top bar of the signed-in screens (dashboard, admin).
import { LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { BRAND, LABELS, SIGN_OUT_FAILED_DASHBOARD } from '../../../common/messages';
import { Button } from '../../ui/button';
import { LogoMark } from '../../ui/logo';
import { useSignOut } from '../session/use-sign-out';

export function AppHeader({ children }: { children?: React.ReactNode }) {
  const signOut = useSignOut(SIGN_OUT_FAILED_DASHBOARD);
  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-neutral-950/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 md:px-8">
        <Link to="/" className="flex items-center gap-2 text-white">
          <LogoMark />
          <span className="font-display text-xl tracking-wider">{BRAND.name}</span>
        </Link>
        <div className="flex items-center gap-3">
          {children}
          <div className="hidden md:block">
            <Button variant="outline" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              <LogOut className="h-4 w-4" aria-hidden="true" />
              {LABELS.signOut}
            </Button>
          </div>
        </div>
      </div>
    </header>
  );
}
