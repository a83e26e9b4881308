import { Outlet } from 'react-router';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

export function PublicLayout() {
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
