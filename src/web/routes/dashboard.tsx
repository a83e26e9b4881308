// /dashboard: the athlete's home. Composes the profile, request, reels and photos features.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ACCESS_DENIED, EMAIL_ALREADY_CONFIRMED, EMAIL_CONFIRMED, LABELS, SIGN_OUT_FAILED_DASHBOARD } from '../../common/messages';
import { CHECKOUT, PROFILE } from '../../common/dashboard-messages';
import { useDashboardArrival } from '../features/dashboard/arrival';
import { AppHeader } from '../features/layout/app-header';
import { useOrderBySession } from '../features/orders/api';
import { OrderSummary } from '../features/orders/order-summary';
import { useProfile } from '../features/profile/api';
import { ProfileCard } from '../features/profile/profile-card';
import { SupportVisits } from '../features/profile/support-visits';
import { CloseAccount } from '../features/profile/close-account';
import { ProfileHeader } from '../features/profile/profile-header';
import { TutorialOverlay, tutorialSteps } from '../features/profile/tutorial-overlay';
import { FaceMatchingCard } from '../features/profile/face-matching';
import { AthleteSwitcher } from '../features/family/athlete-switcher';
import { FinishProfileCard } from '../features/profile/finish-profile';
import { useLiveUpdates } from '../features/realtime/use-live-updates';
import { PurchaseReel } from '../features/requests/purchase-dialog';
import { RequestForm } from '../features/requests/request-form';
import { ImpersonationBanner } from '../features/session/impersonation-banner';
import { RequireUser } from '../features/session/require-session';
import { impersonationOf, useMe } from '../features/session/session';
import { useSignOut } from '../features/session/use-sign-out';
import { StillsCarousel } from '../features/stills/stills-carousel';
import { ShareCard } from '../features/sharing/share-card';
import { VideoList } from '../features/videos/video-list';
import { notify } from '../lib/toast';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

/**
 * What the address bar brings back to the dashboard, read once and then removed from it:
 * ?denied=admin (the server's admin guard), ?verified=1 (the confirmation link), and the
 * checkout return ?checkout=…&session_id=…. A success is only announced for an order of this
 * user that the server knows; the URL alone proves nothing.
 */
function useReturnToasts() {
  const [params, setParams] = useSearchParams();
  const [arrival] = useState(() => ({
    checkout: params.get('checkout'),
    sessionId: params.get('session_id'),
    denied: params.get('denied'),
    verified: params.get('verified'),
  }));
  const order = useOrderBySession(arrival.sessionId);
  useEffect(() => {
    if (arrival.denied === 'admin') notify.error(ACCESS_DENIED);
    // ?verified=already: a confirmation link opened again while signed in (auth/routes.ts).
    if (arrival.verified === 'already') notify.info({ title: EMAIL_ALREADY_CONFIRMED.title, description: EMAIL_ALREADY_CONFIRMED.signedIn });
    else if (arrival.verified) notify.success(EMAIL_CONFIRMED);
    if (arrival.checkout === 'cancel') notify.info(CHECKOUT.cancel, 5000);
    const next = new URLSearchParams(params);
    for (const key of ['denied', 'verified', 'checkout', 'session_id']) next.delete(key);
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // "Payment Successful!" once the provider has confirmed it to the server, not before.
  const confirmed = arrival.checkout === 'success' && order.data?.status === 'completed';
  useEffect(() => {
    if (confirmed) notify.success(CHECKOUT.success, 6000);
  }, [confirmed]);
  return order.data;
}

function LoadingDashboard() {
  return (
    <div className="flex min-h-[60dvh] items-center justify-center">
      <Spinner label="Loading your dashboard..." />
    </div>
  );
}

/** Waits for the dashboard's data to arrive in one request before its parts ask for theirs. */
function DashboardArrival() {
  const ready = useDashboardArrival();
  return ready ? <Dashboard /> : <LoadingDashboard />;
}

function Dashboard() {
  const profile = useProfile();
  const signOut = useSignOut(SIGN_OUT_FAILED_DASHBOARD);
  const order = useReturnToasts();
  const me = useMe();
  const live = useLiveUpdates(me.data?.user?.id);
  const impersonating = Boolean(impersonationOf(me.data));
  // An admin's own account, second factor passed or not: the provider's, not a family's.
  const adminAccount = Boolean(me.data?.user?.isAdmin || me.data?.user?.secondFactor);

  if (profile.isPending) return <LoadingDashboard />;
  if (profile.isError) {
    return (
      <p role="alert" className="p-10 text-center text-red-400">
        {PROFILE.loadFailed}
      </p>
    );
  }
  const p = profile.data;
  // Not while an admin views the site as the athlete (the spec skips it then).
  const showTutorial = !p.avatarUrl && !p.tutorialCompleted && !impersonating && !adminAccount;
  return (
    <>
      {/* Which of the family's athletes this dashboard is: above their header, on every width. */}
      <div className="mx-auto max-w-7xl px-4 pt-4 md:px-8">
        <AthleteSwitcher familyOnly={impersonating} />
      </div>
      <ProfileHeader profile={p} />
      <main className="mx-auto max-w-7xl px-4 pb-16 pt-8 md:px-8" data-live={live ? 'connected' : 'offline'}>
        {order && <OrderSummary order={order} />}
        {/* A quick sign-up gives the birthday (and a guardian's agreement) before matching or requests;
            an admin's own account is the provider's, not a family's, and is never asked for one. */}
        {!p.athleteProfileComplete && !impersonating && !adminAccount && <FinishProfileCard />}
        {/* The open request's reel: Purchase, its preview, or what is happening before that. */}
        <div className="mb-8">
          <PurchaseReel athleteName={p.firstName} />
        </div>
        {/* One column on a phone; minmax(0, 1fr) and min-w-0 so no card's content can widen the page. */}
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
            <VideoList />
            <StillsCarousel />
            <ShareCard familyOnly={impersonating} />
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            <RequestForm />
            <ProfileCard profile={p} familyOnly={impersonating} />
            <FaceMatchingCard hasHeadshot={Boolean(p.avatarUrl)} familyOnly={impersonating} />
            <SupportVisits />
          </div>
        </div>
        <Button variant="outline" className="mt-10 w-full md:hidden" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          {LABELS.signOut}
        </Button>
        {/* The family's own act: not offered while an admin views the site as them. */}
        {!impersonating && <CloseAccount />}
      </main>
      {showTutorial && <TutorialOverlay steps={tutorialSteps(p)} />}
    </>
  );
}

export default function DashboardPage() {
  usePageTitle(PAGE_TITLES['/dashboard']);
  return (
    <RequireUser>
      {() => (
        <div className="min-h-dvh bg-neutral-950 text-neutral-200">
          <AppHeader />
          <ImpersonationBanner />
          <DashboardArrival />
        </div>
      )}
    </RequireUser>
  );
}
