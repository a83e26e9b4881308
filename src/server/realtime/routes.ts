// GET /api/realtime/stream: server-sent events of the changes that concern the signed-in user.
import { Hono } from 'hono';
import type { AppDeps } from '../http/deps';

export function realtimeRoutes(_deps: AppDeps) {
  return new Hono();
}
