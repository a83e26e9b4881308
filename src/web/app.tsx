// The route table. Public pages are in the main bundle; the dashboard, admin and the rarely
// visited pages are split off and loaded on demand.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, RouterProvider, ScrollRestoration } from 'react-router';
import { Toaster } from 'sonner';
import { TIMING } from '../common/constants';
import { AUTH_REQUIRED } from '../common/messages';
import { ApiRequestError } from './lib/api';
import { notify } from './lib/toast';
import { PublicLayout } from './features/layout/public-layout';
import HomePage from './routes/home';

const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

const router = createBrowserRouter([
  {
    Component: Root,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, Component: HomePage },
          { path: 'about', lazy: lazyPage(() => import('./routes/about')) },
          { path: 'contact', lazy: lazyPage(() => import('./routes/contact')) },
          { path: 'terms', lazy: lazyPage(() => import('./routes/terms')) },
          { path: 'auth', lazy: lazyPage(() => import('./routes/auth')) },
          { path: 'auth/verify-email', lazy: lazyPage(() => import('./routes/verify-email')) },
          { path: 'signup', lazy: lazyPage(() => import('./routes/signup')) },
          { path: 'reset-password', lazy: lazyPage(() => import('./routes/reset-password')) },
          { path: '*', lazy: lazyPage(() => import('./routes/not-found')) },
        ],
      },
      { path: 'dashboard', lazy: lazyPage(() => import('./routes/dashboard')) },
      { path: 'admin', lazy: lazyPage(() => import('./routes/admin')) },
    ],
  },
]);

/**
 * A session that ended while a signed-in screen was open (expired, signed out in another tab,
 * revoked by a password reset): say so once and go to sign-in.
 */
function onApiError(error: unknown) {
  if (!(error instanceof ApiRequestError) || error.status !== 401) return;
  if (!/^\/(dashboard|admin)/.test(window.location.pathname)) return;
  notify.error(AUTH_REQUIRED);
  queryClient.setQueryData(['me'], { user: null });
  void router.navigate('/auth', { replace: true });
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: {
      // A 4xx answer will not change on retry; a network error or a 5xx may.
      retry: (count, error) => count < 1 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
    },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster
        theme="dark"
        position="top-center"
        visibleToasts={1}
        duration={TIMING.toastDefault}
        closeButton
        richColors
      />
    </QueryClientProvider>
  );
}
