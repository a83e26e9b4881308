// A JSON answer the database has already written: sent as it is, typed for the web's client as
// `c.json` would type it (the text must be the JSON of a T; the query that writes it is pinned by
// its tests).
import type { Context, TypedResponse } from 'hono';

export function jsonText<T>(c: Context, text: string): TypedResponse<T, 200, 'json'> {
  return c.body(text, 200, { 'content-type': 'application/json' }) as unknown as TypedResponse<T, 200, 'json'>;
}
