// /admin: reached only by active admins (checked on the server before this page is sent, and
// again here for in-app navigation). The portal itself comes with the admin issue.
import { ShieldCheck } from 'lucide-react';
import { AppHeader } from '../features/layout/app-header';
import { RequireAdmin } from '../features/session/require-session';
import { Card, CardTitle } from '../ui/card';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

export default function AdminPage() {
  usePageTitle(PAGE_TITLES['/admin']);
  return (
    <RequireAdmin>
      {({ user }) => (
        <div className="min-h-dvh bg-neutral-950 text-neutral-200">
          <AppHeader />
          <main className="mx-auto max-w-7xl px-4 py-10 md:px-8">
            <h1 className="font-display text-5xl uppercase tracking-wide text-white">Admin Portal</h1>
            <Card className="mt-8 max-w-xl">
              <CardTitle className="mb-2 flex items-center gap-2">
                <ShieldCheck className="h-6 w-6 text-red-500" aria-hidden="true" />
                Signed in as admin
              </CardTitle>
              <p data-testid="admin-identity">
                {user.name} · <span className="text-white">{user.email}</span>
              </p>
            </Card>
          </main>
        </div>
      )}
    </RequireAdmin>
  );
}
