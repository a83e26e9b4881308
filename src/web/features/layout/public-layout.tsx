import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { setSigningOut, useMe } from '../session/session';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

export function PublicLayout() {
  // A finished sign-out ends here, on a public page (see use-sign-out.ts).
  const { signingOut, data } = useMe();
  const signedOut = data?.user === null;
  useEffect(() => {
    if (signingOut && signedOut) setSigningOut(false);
  }, [signingOut, signedOut]);
  return (
    <div className="flex min-h-dvh flex-col bg-neutral-950 text-neutral-200">
      <NavBar />
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
