// The admin area's frame: only active admins (checked on the server before the page is sent, and
// here for navigation inside the app), the top bar, and live updates for the admin lists.
import { Outlet } from 'react-router';
import { AppHeader } from '../features/layout/app-header';
import { useLiveUpdates } from '../features/realtime/use-live-updates';
import { RequireAdmin } from '../features/session/require-session';

function AdminFrame() {
  const live = useLiveUpdates();
  return (
    <div className="min-h-dvh bg-neutral-950 text-neutral-200">
      <AppHeader />
      <main className="mx-auto max-w-7xl px-4 py-8 md:px-8 md:py-10" data-live={live ? 'connected' : 'offline'}>
        <Outlet />
      </main>
    </div>
  );
}

export default function AdminArea() {
  return <RequireAdmin>{() => <AdminFrame />}</RequireAdmin>;
}
