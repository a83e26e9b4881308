// Who a session cookie belongs to, remembered for a few seconds. Without it every signed-in
// request pays better-auth's session lookup plus the admin and second-factor checks: several
// database round trips, most of a small request's cost (issue 23).
//
// Revocation is not weakened: the database tells every instance when a session, a user, an admin
// row or a passed second factor changes (migration 0012's triggers NOTIFY on the event bus's
// channel as topic 'sessions', realtime/bus.ts), and each instance forgets that user's entries at once. A notice
// can be lost (the listening connection down during a database restart), so no entry lives
// longer than SESSION_CACHE_SECONDS (5 by default): that is the bound, stated in the README and
// tested in test/integration/session-cache.test.ts.
import { createHash } from 'node:crypto';
import type { Auth } from './auth';
import type { Viewer } from './session';

/** Enough for a tournament evening's families on one instance; the oldest entry goes first. */
const MAX_ENTRIES = 20_000;

/** better-auth's session cookie, with the __Secure- prefix on https. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

interface Entry {
  viewer: Viewer;
  until: number;
}

export class ViewerCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts the notices: a lookup that began before one does not store what it found. */
  private epoch = 0;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key of the request's session cookie (a hash: no token is kept in memory), or null. */
  static keyOf(headers: Headers): string | null {
    const token = headers.get('cookie')?.match(SESSION_COOKIE)?.[1];
    return token ? createHash('sha256').update(token).digest('base64url') : null;
  }

  get(key: string): Viewer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.viewer;
    this.entries.delete(key);
    return undefined;
  }

  /** Taken before a lookup and given back to set(). */
  get generation(): number {
    return this.epoch;
  }

  set(key: string, viewer: Viewer, generation: number): void {
    // A session revoked while it was being looked up is not remembered as valid.
    if (generation !== this.epoch) return;
    // An admin between sign-in and the second factor is about to change state: always asked afresh.
    if (this.ttlMs <= 0 || viewer.adminSecondFactor) return;
    const until = Math.min(this.now() + this.ttlMs, viewer.sessionExpiresAt.getTime());
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { viewer, until });
  }

  /** Drops every entry of the user, and every view-as session the user started as an admin. */
  forgetUser(userId: string): void {
    this.epoch++;
    for (const [key, entry] of this.entries) {
      if (entry.viewer.userId === userId || entry.viewer.impersonatedBy === userId) this.entries.delete(key);
    }
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

// One cache per better-auth instance, so getViewer(auth, …) finds it wherever it is called.
const caches = new WeakMap<Auth, ViewerCache>();

/**
 * Puts a cache in front of `auth`'s session lookups. `onSessionNotice` hands over the users whose
 * sessions the database says changed (the event bus's 'sessions' notices, wired in server.ts).
 */
export function cacheViewers(auth: Auth, onSessionNotice: (forget: (userId: string) => void) => void, ttlMs: number): ViewerCache {
  const cache = new ViewerCache(ttlMs);
  onSessionNotice((userId) => cache.forgetUser(userId));
  caches.set(auth, cache);
  return cache;
}

export const viewerCacheOf = (auth: Auth): ViewerCache | undefined => caches.get(auth);
