// Toasts as the spec has them: a title and a description, one visible at a time, 5 s by default.
// The toast library loads with the first toast, so pages that never show one never load it.
import { createElement, lazy, Suspense, useSyncExternalStore } from 'react';
import { TIMING } from '../../common/constants';
import type { ToastText } from '../../common/messages';

type Kind = 'success' | 'info' | 'error';

let wanted = false;
const listeners = new Set<() => void>();
const loadSonner = () => import('sonner');

function show(kind: Kind, text: ToastText, duration?: number) {
  if (!wanted) {
    wanted = true;
    for (const l of listeners) l();
  }
  void loadSonner().then(({ toast }) => {
    // One toast at a time: the one before goes, rather than waiting hidden and coming back once
    // this one closes (an error shown again after the step it was about had succeeded).
    toast.dismiss();
    const options = { description: text.description, duration };
    if (kind === 'success') toast.success(text.title, options);
    else if (kind === 'error') toast.error(text.title, options);
    else toast(text.title, options);
  });
}

export const notify = {
  success: (text: ToastText, duration?: number) => show('success', text, duration),
  info: (text: ToastText, duration?: number) => show('info', text, duration),
  /** The spec's "destructive" toast. */
  error: (text: ToastText, duration?: number) => show('error', text, duration),
};

const Toaster = lazy(() =>
  loadSonner().then(({ Toaster: T }) => ({
    default: () =>
      createElement(T, {
        theme: 'dark',
        position: 'top-center',
        visibleToasts: 1,
        duration: TIMING.toastDefault,
        closeButton: true,
        richColors: true,
        // The product's type: the title stands out, the description reads as body text.
        style: { fontFamily: 'var(--font-sans)' },
        toastOptions: { classNames: { title: 'font-semibold! text-[0.95rem]!', description: 'font-normal! text-sm! opacity-90!' } },
      }),
  })),
);

/** The toast area: mounted once the first toast is asked for. */
export function Toasts() {
  const show = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => wanted,
    () => false,
  );
  return show ? createElement(Suspense, { fallback: null }, createElement(Toaster)) : null;
}
