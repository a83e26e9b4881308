// /api/admin: only for active admins. The portal's routes (users, orders, uploads) join here.
import { Hono } from 'hono';
import { requireAdmin, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../http/deps';

export function adminRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>().use(requireAdmin(deps.auth, deps.db)).get('/whoami', (c) => {
    const viewer = c.var.viewer;
    return c.json({ userId: viewer.userId, email: viewer.email, name: viewer.name });
  });
}
