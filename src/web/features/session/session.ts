// Who is signed in, as the server sees it: one small store shared by every screen (the public
// pages read it without loading the query library). It loads once, again when the window
// regains focus after a while, and whenever a screen asks (after sign-in, a profile change).
import { useSyncExternalStore } from 'react';
import type { InferResponseType } from 'hono/client';
import type { hc } from 'hono/client';
import type { ApiType } from '../../../server/app';
import { requestJson } from '../../lib/api-error';

type Client = ReturnType<typeof hc<ApiType>>;
export type Me = InferResponseType<Client['account']['me']['$get']>;

/** Who an admin is, while they view the site as this user; null otherwise. */
export function impersonationOf(me: Me | undefined): { adminEmail: string; endsAt: string } | null {
  return me && 'impersonation' in me ? me.impersonation : null;
}

export interface SessionState {
  isPending: boolean;
  data: Me | undefined;
  /** True while signing out: signed-in screens stop asking the server for data. */
  signingOut: boolean;
}

const STALE_MS = 30_000;
let state: SessionState = { isPending: true, data: undefined, signingOut: false };
let loadedAt = 0;
let inflight: Promise<Me> | null = null;
const listeners = new Set<() => void>();
const SERVER_STATE: SessionState = { isPending: true, data: undefined, signingOut: false };

function set(next: Partial<SessionState>) {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/** Asks the server who is signed in, and tells every screen. */
export function refreshSession(): Promise<Me> {
  inflight ??= requestJson<Me>('/api/account/me')
    .then((me) => {
      loadedAt = Date.now();
      set({ isPending: false, data: me, ...(me.user ? { signingOut: false } : {}) });
      return me;
    })
    .catch((error: Error) => {
      // Offline: keep what we knew; a first load settles as signed out.
      if (state.isPending) set({ isPending: false, data: { user: null } });
      throw error;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** The session ended (signed out, or the server said so). */
export function endSession(): void {
  loadedAt = Date.now();
  set({ isPending: false, data: { user: null } });
}

export function setSigningOut(signingOut: boolean): void {
  set({ signingOut });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.addEventListener('focus', onFocus);
  }
  if (state.isPending && !inflight) void refreshSession().catch(() => {});
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('focus', onFocus);
  };
}

function onFocus() {
  if (Date.now() - loadedAt > STALE_MS) void refreshSession().catch(() => {});
}

/** The signed-in user and profile summary; `isPending` until the server has answered once. */
export function useMe(): SessionState {
  return useSyncExternalStore(subscribe, () => state, () => SERVER_STATE);
}
