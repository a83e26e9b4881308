// How long "View as User" lasts, in one place for the plugin that starts it (impersonation.ts),
// the lookup that enforces it (session.ts) and the family's list of visits (audit/log.ts).
export const IMPERSONATION_SECONDS = 60 * 60;

/** When a view-as session ends: its expiry, and never later than an hour after it started. */
export function viewAsEndsAt(session: { createdAt: Date | string; expiresAt: Date | string }): Date {
  const started = new Date(session.createdAt).getTime();
  return new Date(Math.min(new Date(session.expiresAt).getTime(), started + IMPERSONATION_SECONDS * 1000));
}
