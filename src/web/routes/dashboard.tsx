// /dashboard: the athlete's home once signed in. (Reels, photos and requests come with the
// dashboard issue; this shows the profile and the session.)
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ACCESS_DENIED, SIGN_OUT_FAILED_DASHBOARD } from '../../common/messages';
import { AppHeader } from '../features/layout/app-header';
import { RequireUser } from '../features/session/require-session';
import { useSignOut } from '../features/session/use-sign-out';
import { notify } from '../lib/toast';
import { Button } from '../ui/button';
import { Card, CardTitle } from '../ui/card';

const NOT_SPECIFIED = 'Not specified';

export default function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const signOut = useSignOut(SIGN_OUT_FAILED_DASHBOARD);

  // The server sends non-admins who open /admin here with ?denied=admin.
  useEffect(() => {
    if (params.get('denied') === 'admin') {
      notify.error(ACCESS_DENIED);
      const next = new URLSearchParams(params);
      next.delete('denied');
      setParams(next, { replace: true });
    }
  }, [params, setParams]);

  return (
    <RequireUser>
      {({ user, profile }) => {
        const fullName = [profile?.firstName, profile?.lastName].filter(Boolean).join(' ') || user.name;
        const rows: Array<[string, string | number | null | undefined]> = [
          ['Name', fullName],
          ['Email', user.email],
          ['Username', profile?.username],
          ['Team', profile?.teamName],
          ['Jersey Number', profile?.jerseyNumber],
          ['Phone', profile?.phone],
          ['City', profile?.city],
          ['State', profile?.state],
        ];
        return (
          <div className="min-h-dvh bg-neutral-950 text-neutral-200">
            <AppHeader />
            <main className="mx-auto max-w-7xl px-4 py-10 md:px-8">
              <p className="text-sm font-semibold uppercase tracking-[0.3em] text-red-400">Dashboard</p>
              <h1 className="mt-2 font-display text-5xl uppercase tracking-wide text-white">{fullName}</h1>
              <p className="mt-1 text-neutral-400">
                {[profile?.teamName, profile?.jerseyNumber != null ? `#${profile.jerseyNumber}` : null].filter(Boolean).join(' · ') ||
                  'Welcome to your athlete dashboard.'}
              </p>
              <div className="mt-8 grid gap-6 md:grid-cols-2">
                <Card>
                  <CardTitle className="mb-4">Your Profile</CardTitle>
                  <dl className="divide-y divide-neutral-800">
                    {rows.map(([label, value]) => (
                      <div key={label} className="flex justify-between gap-4 py-2.5">
                        <dt className="text-neutral-400">{label}</dt>
                        <dd className={value == null || value === '' ? 'text-neutral-500 italic' : 'text-white'}>
                          {value == null || value === '' ? NOT_SPECIFIED : value}
                        </dd>
                      </div>
                    ))}
                  </dl>
                </Card>
              </div>
              <Button variant="outline" className="mt-10 w-full md:hidden" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
                Sign Out
              </Button>
            </main>
          </div>
        );
      }}
    </RequireUser>
  );
}
