// Each screen's own <title>, set in the browser (usePageTitle) and written into the prerendered
// pages at build time, so a tab, a bookmark and a screen reader say where you are.
import { useEffect } from 'react';

const BRAND = 'Get It On Tape';

export const PAGE_TITLES = {
  '/': 'Youth sports highlight reels',
  '/about': 'About',
  '/contact': 'Contact',
  '/terms': 'Terms and Privacy Policy',
  '/auth': 'Sign in',
  '/auth/verify-email': 'Check your email',
  '/auth/two-factor': 'Enter your code',
  '/two-factor/setup': 'Set up your second factor',
  '/signup': 'Create your athlete profile',
  '/reset-password': 'Reset password',
  '/dashboard': 'Your dashboard',
  '/admin': 'Admin',
  '/admin/users': 'Users · Admin',
  '/admin/orders': 'Orders · Admin',
  '/admin/waiting-list': 'Waiting list · Admin',
  '/admin/footage': 'Footage · Admin',
  '/admin/requests': 'Review clips · Admin',
  '/admin/requests-queue': 'Requests · Admin',
  notFound: 'Page not found',
} as const;

export const fullTitle = (title: string) => (title === PAGE_TITLES['/'] ? `${BRAND}: ${title}` : `${title} · ${BRAND}`);

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = fullTitle(title);
  }, [title]);
}
