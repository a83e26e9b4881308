// The route table and the providers around it. The same tree is rendered in the browser and,
// for the public pages, at build time (prerender.tsx), so each page arrives as finished HTML that
// the browser then hydrates. Pages are split into their own chunks; a page's chunk loads while
// its prerendered HTML is already on screen.
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Route, Routes, useLocation, useNavigate, useNavigationType } from 'react-router';
import { setNavigator } from './lib/navigation';
import { Toasts } from './lib/toast';
import { PublicLayout } from './features/layout/public-layout';

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

const HomePage = page(() => import('./routes/home'));
const AboutPage = page(() => import('./routes/about'));
const ContactPage = page(() => import('./routes/contact'));
const TermsPage = page(() => import('./routes/terms'));
const AuthPage = page(() => import('./routes/auth'));
const VerifyEmailPage = page(() => import('./routes/verify-email'));
const TwoFactorPromptPage = page(() => import('./routes/two-factor-prompt'));
const TwoFactorSetupPage = page(() => import('./routes/two-factor-setup'));
const SignupPage = page(() => import('./routes/signup'));
const ResetPasswordPage = page(() => import('./routes/reset-password'));
const NotFoundPage = page(() => import('./routes/not-found'));
const DashboardPage = page(() => import('./routes/dashboard'));
const AdminArea = page(() => import('./routes/admin-area'));
const AdminPortalPage = page(() => import('./routes/admin'));
const AdminUsersPage = page(() => import('./routes/admin-users'));
const AdminOrdersPage = page(() => import('./routes/admin-orders'));
const AdminRequestsPage = page(() => import('./routes/admin-requests'));
const AdminWaitingListPage = page(() => import('./routes/admin-waiting-list'));
const AdminFootagePage = page(() => import('./routes/admin-footage'));
const AdminRequestReviewPage = page(() => import('./routes/admin-request-review'));

/** A new page starts at the top; going back keeps the browser's own scroll position. */
function ScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, type]);
  return null;
}

/** Lets code outside components (the query cache's error handler) navigate. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => setNavigator(navigate), [navigate]);
  return null;
}

export function AppRoutes() {
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<HomePage />} />
          <Route path="about" element={<AboutPage />} />
          <Route path="contact" element={<ContactPage />} />
          <Route path="terms" element={<TermsPage />} />
          <Route path="auth" element={<AuthPage />} />
          <Route path="auth/verify-email" element={<VerifyEmailPage />} />
          <Route path="auth/two-factor" element={<TwoFactorPromptPage />} />
          <Route path="signup" element={<SignupPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="two-factor/setup" element={<TwoFactorSetupPage />} />
        <Route path="admin" element={<AdminArea />}>
          <Route index element={<AdminPortalPage />} />
          <Route path="users" element={<AdminUsersPage />} />
          <Route path="orders" element={<AdminOrdersPage />} />
          <Route path="waiting-list" element={<AdminWaitingListPage />} />
          <Route path="footage" element={<AdminFootagePage />} />
          <Route path="requests" element={<AdminRequestsPage />} />
          <Route path="requests/:id" element={<AdminRequestReviewPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

/** Everything inside the router: providers, routes, toasts. */
export function App() {
  return (
    <>
      <ScrollToTop />
      <NavigatorBridge />
      <AppRoutes />
      <Toasts />
    </>
  );
}
