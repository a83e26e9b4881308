// /api/family: the family's athletes, which one the dashboard is on, adding one and removing one.
// Who: the signed-in account, on its own family only; an admin viewing the site as the family may
// switch between its athletes but not add or remove one (the family's own act).
import { Hono, type Context } from 'hono';
import { FAMILY } from '../../common/family-messages';
import { addAthleteSchema, firstIssue } from '../../common/schemas';
import { eraseAccount, eraseOwnAthlete } from '../accounts/erasure';
import { refuseUnconfirmedErasure } from '../accounts/erasure-consent';
import { refuseWhileImpersonating, requireUser, type ViewerEnv } from '../auth/session';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { addAthlete, FamilyRefused } from './athletes';
import { athleteCookie, familyAthletes } from './members';

export function familyRoutes(deps: AppDeps) {
  const { auth, db, config } = deps;
  const secure = config.baseUrl.startsWith('https://');
  const choose = (c: Context, athleteId: string) => c.header('Set-Cookie', athleteCookie(athleteId, secure), { append: true });

  return new Hono<ViewerEnv>()
    .use(requireUser(auth, db))
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      const { viewer } = c.var;
      return c.json({ athletes: await familyAthletes(db, viewer.accountId), activeId: viewer.userId });
    })
    .put('/active', async (c) => {
      const body = (await c.req.json().catch(() => null)) as { athleteId?: unknown } | null;
      const athleteId = typeof body?.athleteId === 'string' ? body.athleteId : '';
      const athletes = await familyAthletes(db, c.var.viewer.accountId);
      if (!athletes.some((a) => a.id === athleteId)) return apiError(c, 404, 'NOT_FOUND', FAMILY.notYourAthlete);
      choose(c, athleteId);
      return c.json({ activeId: athleteId });
    })
    .post('/athletes', refuseWhileImpersonating(FAMILY.familyOnly), async (c) => {
      const parsed = addAthleteSchema.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', firstIssue(parsed.error));
      try {
        const added = await addAthlete(deps, c.var.viewer.accountId, parsed.data);
        choose(c, added.id);
        return c.json({ athlete: added, activeId: added.id }, 201);
      } catch (error) {
        if (error instanceof FamilyRefused) return apiError(c, 409, error.code, error.message);
        throw error;
      }
    })
    // Erasing one added athlete: the holder's password, like closing the account (erasure.ts).
    .post('/athletes/:id/erase', refuseWhileImpersonating(FAMILY.familyOnly), async (c) => {
      const { viewer } = c.var;
      const athleteId = c.req.param('id');
      const athletes = await familyAthletes(db, viewer.accountId);
      const athlete = athletes.find((a) => a.id === athleteId);
      if (!athlete) return apiError(c, 404, 'NOT_FOUND', FAMILY.notYourAthlete);
      // The family's last athlete goes only with the account ("Close account").
      if (athletes.length < 2) return apiError(c, 409, 'ONLY_ATHLETE', FAMILY.onlyAthlete);
      const refused = await refuseUnconfirmedErasure(deps, c, viewer.accountId);
      if (refused) return refused;
      if (athlete.own) await eraseOwnAthlete(deps, viewer.accountId);
      else await eraseAccount(deps, athleteId, { kind: 'self' });
      // On to the family's first athlete left.
      const next = athletes.find((a) => a.id !== athleteId)!.id;
      choose(c, next);
      return c.json({ erased: true, activeId: next });
    });
}
