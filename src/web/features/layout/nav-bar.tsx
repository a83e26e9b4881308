// The fixed top bar of the public pages: brand, HOME/ABOUT/CONTACT on large screens, a
// full-screen overlay menu below 768px that closes on every route change.
import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { BRAND, NAV } from '../../../common/messages';
import { cn } from '../../lib/cn';
import { Button } from '../../ui/button';
import { LogoMark } from '../../ui/logo';
import { useMe } from '../session/session';
import { useSignOut } from '../session/use-sign-out';

const LINKS = [
  { to: '/', label: NAV.home },
  { to: '/about', label: NAV.about },
  { to: '/contact', label: NAV.contact },
] as const;

function AuthButtons({ stacked }: { stacked?: boolean }) {
  const { data, isPending } = useMe();
  const signOut = useSignOut();
  const signedIn = Boolean(data?.user);
  const size = stacked ? 'lg' : 'sm';
  return (
    // Until the server has said who is signed in, the buttons hold their place unseen.
    <div className={cn('flex gap-3', stacked && 'w-full flex-col', isPending && 'invisible')}>
      {signedIn ? (
        <>
          <Button asChild variant="outline" size={size}>
            <Link to={data?.user?.isAdmin ? '/admin' : '/dashboard'}>{NAV.dashboard}</Link>
          </Button>
          <Button size={size} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            {NAV.logout}
          </Button>
        </>
      ) : (
        <>
          <Button asChild variant="outline" size={size}>
            <Link to="/auth">{NAV.login}</Link>
          </Button>
          <Button asChild size={size}>
            <Link to="/auth?tab=signup">{NAV.signUp}</Link>
          </Button>
        </>
      )}
    </div>
  );
}

export function NavBar() {
  const [open, setOpen] = useState(false);
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname, location.search]);
  useEffect(() => {
    document.body.style.overflow = open ? 'hidden' : '';
    return () => {
      document.body.style.overflow = '';
    };
  }, [open]);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-white/10 bg-neutral-950/80 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 md:px-8">
        <Link to="/" className="flex items-center gap-2 text-white">
          <LogoMark />
          <span className="font-display text-xl tracking-wider">{BRAND.name}</span>
        </Link>
        <ul className="hidden items-center gap-8 md:flex">
          {LINKS.map((l) => (
            <li key={l.to}>
              <NavLink
                to={l.to}
                end
                className={({ isActive }) =>
                  cn(
                    'text-sm font-semibold tracking-widest',
                    isActive ? 'text-white underline decoration-red-500 decoration-2 underline-offset-8' : 'text-neutral-300 hover:text-white',
                  )
                }
              >
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="hidden md:block">
          <AuthButtons />
        </div>
        <button
          type="button"
          className="rounded-md p-2 text-white md:hidden"
          aria-label={open ? 'Close menu' : 'Open menu'}
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <X className="h-7 w-7" /> : <Menu className="h-7 w-7" />}
        </button>
      </nav>
      {open && (
        <div id="mobile-menu" className="fixed inset-0 top-16 z-40 flex h-[calc(100dvh-4rem)] flex-col bg-neutral-950 px-6 py-10 md:hidden">
          <ul className="flex flex-col gap-6">
            {LINKS.map((l) => (
              <li key={l.to}>
                <NavLink
                  to={l.to}
                  end
                  className={({ isActive }) =>
                    cn('font-display text-4xl tracking-wider', isActive ? 'text-red-500' : 'text-white hover:text-neutral-300')
                  }
                >
                  {({ isActive }) => (
                    <span className="flex items-center gap-3">
                      {isActive && <span className="h-8 w-1.5 rounded-full bg-red-500" aria-hidden="true" />}
                      {l.label}
                    </span>
                  )}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-auto">
            <AuthButtons stacked />
          </div>
        </div>
      )}
    </header>
  );
}
