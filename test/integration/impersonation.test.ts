// "View as User" (issue 8): an admin's session as the user, on the server, for an hour at most,
// every start, change and end in the audit log, and the admin's own session back on exit.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPERSONATION } from '../../src/common/admin-messages';
import { auditLog, session, userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let admin: User;
let secondAdmin: User;
let athlete: User;
let member: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  secondAdmin = await createVerifiedUser(app, { fullName: 'Sam Second' });
  await makeAdmin(app, admin.userId);
  await makeAdmin(app, secondAdmin.userId);
  athlete = await createVerifiedUser(app, { fullName: 'Ava Athlete' });
  member = await createVerifiedUser(app, { fullName: 'Mo Member' });
});
afterAll(async () => {
  await app?.close();
});

/** A browser's cookie jar: later Set-Cookie headers replace earlier cookies of the same name. */
function jar(...sources: Array<string | Response>): string {
  const cookies = new Map<string, string>();
  for (const source of sources) {
    const pairs =
      typeof source === 'string'
        ? source.split(';').map((p) => p.trim()).filter(Boolean)
        : source.headers.getSetCookie().map((c) => c.split(';')[0]!.trim());
    for (const pair of pairs) {
      const [name, ...value] = pair.split('=');
      if (value.join('=') === '') cookies.delete(name!);
      else cookies.set(name!, value.join('='));
    }
  }
  return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

type Me = { user: { id: string; email: string; isAdmin: boolean } | null; impersonation: { adminEmail: string; endsAt: string } | null };
const me = async (cookie: string) => jsonOf<Me>(await app.fetch('/api/account/me', { cookie }));
const start = (cookie: string | undefined, userId: string) => app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie, json: { userId } });
const stop = (cookie: string) => app.fetch('/api/auth/impersonation/stop', { method: 'POST', cookie });
const auditOf = (userId: string) => app.db.select().from(auditLog).where(eq(auditLog.subjectUserId, userId)).orderBy(auditLog.createdAt);

describe('view as user', () => {
  it('acts as the user, says so, records everything, and gives the admin their own session back', async () => {
    const started = await start(admin.cookie, athlete.userId);
    expect(started.status).toBe(200);
    expect(await jsonOf(started)).toMatchObject({ user: { id: athlete.userId, email: athlete.email } });
    const viewing = jar(admin.cookie, started);

    // The site as the athlete sees it, with the banner's facts.
    const seen = await me(viewing);
    expect(seen.user).toMatchObject({ id: athlete.userId, email: athlete.email, isAdmin: false });
    expect(seen.impersonation?.adminEmail).toBe(admin.email);
    const endsIn = Date.parse(seen.impersonation!.endsAt) - Date.now();
    expect(endsIn).toBeGreaterThan(55 * 60 * 1000);
    expect(endsIn).toBeLessThanOrEqual(60 * 60 * 1000);

    // A change made meanwhile is the athlete's data, and the admin's act in the log.
    const edit = await app.fetch('/api/profile', { method: 'PATCH', cookie: viewing, json: { firstName: 'Ava', lastName: 'Athlete', teamName: 'Set By Support' } });
    expect(edit.status).toBe(200);
    expect((await app.db.select().from(userProfiles).where(eq(userProfiles.id, athlete.userId)))[0]!.teamName).toBe('Set By Support');
    // Nothing of the admin area, even with the admin's own cookie still in the jar.
    expect((await app.fetch('/api/admin/stats', { cookie: viewing })).status).toBe(403);

    const stopped = await stop(viewing);
    expect(stopped.status).toBe(200);
    const back = jar(viewing, stopped);
    expect((await me(back)).user).toMatchObject({ id: admin.userId, isAdmin: true });
    expect((await me(back)).impersonation).toBeNull();
    expect(back).not.toContain('admin_session');
    // The view-as session is gone: the old cookie is nobody's now.
    expect((await me(viewing)).user?.id ?? null).not.toBe(athlete.userId);
    expect(await app.db.select().from(session).where(and(eq(session.userId, athlete.userId), eq(session.impersonatedBy, admin.userId)))).toEqual([]);

    const log = await auditOf(athlete.userId);
    expect(log.map((e) => [e.action, e.actorId])).toEqual([
      ['impersonation.start', admin.userId],
      ['impersonation.change', admin.userId],
      ['impersonation.stop', admin.userId],
    ]);
    expect(log[1]!.details).toMatchObject({ method: 'PATCH', path: '/api/profile', status: 200 });

    // The family sees that support viewed their account.
    const visits = await jsonOf<Array<{ startedAt: string; endedAt: string | null }>>(await app.fetch('/api/profile/support-visits', { cookie: athlete.cookie }));
    expect(visits).toHaveLength(1);
    expect(Date.parse(visits[0]!.endedAt!)).toBeGreaterThanOrEqual(Date.parse(visits[0]!.startedAt));
  });

  it('a visitor, a member, an admin on another admin, and a second view from inside one are refused', async () => {
    const sessionsBefore = (await app.db.select().from(session)).length;
    expect((await start(undefined, athlete.userId)).status).toBe(401);
    const byMember = await start(member.cookie, athlete.userId);
    expect(byMember.status).toBe(403);
    expect((await jsonOf(byMember)).message).toBe(IMPERSONATION.notAllowed);
    const onAdmin = await start(admin.cookie, secondAdmin.userId);
    expect(onAdmin.status).toBe(403);
    expect((await jsonOf(onAdmin)).message).toBe(IMPERSONATION.notAnAdmin);
    expect((await start(admin.cookie, 'no-such-user')).status).toBe(404);
    expect((await app.db.select().from(session)).length).toBe(sessionsBefore);

    const first = await start(admin.cookie, athlete.userId);
    const viewing = jar(admin.cookie, first);
    const nested = await start(viewing, member.userId);
    expect(nested.status).toBe(403);
    expect((await jsonOf(nested)).message).toBe(IMPERSONATION.alreadyViewing);
    await stop(viewing);
  });

  it('ends by itself after the hour, and Exit still brings the admin back', async () => {
    const started = await start(admin.cookie, athlete.userId);
    const viewing = jar(admin.cookie, started);
    await app.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(session.userId, athlete.userId), eq(session.impersonatedBy, admin.userId)));
    expect((await me(viewing)).user).toBeNull();
    const stopped = await stop(viewing);
    expect(stopped.status).toBe(200);
    expect((await me(jar(viewing, stopped))).user).toMatchObject({ id: admin.userId });
  });

  it('Exit without a view, or with a forged admin cookie, is refused and changes nothing', async () => {
    const plain = await stop(admin.cookie);
    expect(plain.status).toBe(400);
    expect((await jsonOf(plain)).message).toBe(IMPERSONATION.notViewing);
    const forged = await stop(`${member.cookie}; better-auth.admin_session=${encodeURIComponent('forged.value')}`);
    expect(forged.status).toBe(400);
    expect((await me(member.cookie)).user).toMatchObject({ id: member.userId });
  });
});
