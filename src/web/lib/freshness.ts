/**
 * How long data the page has just received counts as fresh: a component mounting meanwhile shows
 * it without asking the server again. The dashboard's arrival fills its parts in one request
 * (features/dashboard/arrival.ts); live updates, polling and the page's own changes still refresh
 * them at once.
 */
export const JUST_LOADED_MS = 10_000;
