// "View as User" (issue 8): an admin's session as the user, on the server, for an hour at most,
// every start, change and end in the audit log, and the admin's own session back on exit.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPERSONATION } from '../../src/common/admin-messages';
import { FACE_MATCHING } from '../../src/common/dashboard-messages';
import { runAdminCommand } from '../../src/server/admin/service';
import { admins, auditLog, session, userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, sessionNoticeFor, startTestApp, type TestApp } from '../support/app';
import { jpeg, makeAdmin } from '../support/dashboard-fixtures';
import { jar, jsonOf } from '../support/http';

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

type Visit = { startedAt: string; endedAt: string | null };
const visitsOf = async (cookie: string) => jsonOf<Visit[]>(await app.fetch('/api/profile/support-visits', { cookie }));
/** Only better-auth's session cookie, as a client that drops its dont_remember cookie sends. */
const sessionCookieOnly = (cookie: string) => cookie.split('; ').filter((c) => c.startsWith('better-auth.session_token=')).join('; ');
const viewAsRows = () => app.db.select().from(session).where(and(eq(session.userId, athlete.userId), eq(session.impersonatedBy, admin.userId)));
const HOUR = 60 * 60 * 1000;

describe('a view-as session ends with its hour and its admin (issue 21, finding 1)', () => {
  it('is never renewed, whatever cookies are sent, and is refused after the hour even if its row says otherwise', async () => {
    const started = await start(admin.cookie, athlete.userId);
    const viewing = sessionCookieOnly(jar(admin.cookie, started));
    expect(viewing).not.toContain('dont_remember');
    for (let i = 0; i < 3; i++) {
      expect((await me(viewing)).user?.id).toBe(athlete.userId);
      expect((await app.fetch('/api/profile', { method: 'PATCH', cookie: viewing, json: { firstName: 'Ava', lastName: 'Athlete' } })).status).toBe(200);
    }
    const [row] = await viewAsRows();
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(HOUR);
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + HOUR);
    expect(Date.parse((await me(viewing)).impersonation!.endsAt)).toBeLessThanOrEqual(row!.createdAt.getTime() + HOUR);

    // Started over an hour ago with a row renewed for 30 days: the server still says the hour is up.
    const rewritten = sessionNoticeFor(app, athlete.userId);
    await app.db
      .update(session)
      .set({ createdAt: new Date(Date.now() - HOUR - 60_000), expiresAt: new Date(Date.now() + 30 * 24 * HOUR) })
      .where(eq(session.id, row!.id));
    await rewritten;
    expect((await app.fetch('/api/profile', { method: 'PATCH', cookie: viewing, json: { firstName: 'Ava', lastName: 'Athlete' } })).status).toBe(401);
    expect((await me(viewing)).user).toBeNull();
    expect(await viewAsRows()).toEqual([]);
    // The family sees that visit ended, at its hour.
    const [visit] = await visitsOf(athlete.cookie);
    expect(visit!.endedAt).not.toBeNull();
    expect(Date.parse(visit!.endedAt!)).toBeLessThanOrEqual(Date.parse(visit!.startedAt) + HOUR);
    await stop(jar(admin.cookie, started));
  });

  it('a visit that ran out unseen shows its end on the family’s list', async () => {
    const started = await start(admin.cookie, athlete.userId);
    const [row] = await viewAsRows();
    const endedAt = new Date(Date.now() - 1000);
    await app.db.update(session).set({ expiresAt: endedAt }).where(eq(session.id, row!.id));
    const [visit] = await visitsOf(athlete.cookie);
    expect(visit!.endedAt).toBe(endedAt.toISOString());
    // Found later, better-auth deletes the expired session: the end stays the expiry.
    expect((await me(sessionCookieOnly(jar(admin.cookie, started)))).user).toBeNull();
    expect(await viewAsRows()).toEqual([]);
    expect((await visitsOf(athlete.cookie))[0]!.endedAt).toBe(endedAt.toISOString());
    await stop(jar(admin.cookie, started));
  });

  it('revoking the admin (the command line’s function) ends their view-as sessions at once, and an inactive admins row ends them too', async () => {
    const started = await start(admin.cookie, athlete.userId);
    const viewing = sessionCookieOnly(jar(admin.cookie, started));
    expect((await app.fetch('/api/profile', { method: 'PATCH', cookie: viewing, json: { firstName: 'Ava', lastName: 'Athlete' } })).status).toBe(200);

    const revoked = sessionNoticeFor(app, admin.userId);
    expect(await runAdminCommand(app.server.deps, 'revoke', admin.email)).toMatchObject({ ok: true });
    // Every instance forgets the admin's sessions when the database's notice reaches it.
    await revoked;
    expect((await app.fetch('/api/profile', { method: 'PATCH', cookie: viewing, json: { firstName: 'Ava', lastName: 'Athlete' } })).status).toBe(401);
    expect((await app.fetch('/api/profile/face-matching', { method: 'PUT', cookie: viewing, json: { consent: false } })).status).toBe(401);
    expect(await viewAsRows()).toEqual([]);
    const [visit] = await visitsOf(athlete.cookie);
    expect(visit!.endedAt).not.toBeNull();
    expect(Date.parse(visit!.endedAt!)).toBeGreaterThanOrEqual(Date.parse(visit!.startedAt));
    const ends = (await auditOf(athlete.userId)).filter((e) => e.action === 'impersonation.stop');
    expect(ends.at(-1)!.details).toMatchObject({ reason: 'admin revoked' });

    // The admins row made inactive some other way: the next request ends the visit.
    await app.db.update(admins).set({ isActive: true }).where(eq(admins.userId, admin.userId));
    const again = sessionCookieOnly(jar(admin.cookie, await start(admin.cookie, athlete.userId)));
    expect((await me(again)).user?.id).toBe(athlete.userId);
    const deactivated = sessionNoticeFor(app, admin.userId);
    await app.db.update(admins).set({ isActive: false }).where(eq(admins.userId, admin.userId));
    await deactivated;
    expect((await me(again)).user).toBeNull();
    expect(await viewAsRows()).toEqual([]);
    expect((await visitsOf(athlete.cookie)).every((v) => v.endedAt)).toBe(true);
    await app.db.update(admins).set({ isActive: true }).where(eq(admins.userId, admin.userId));
  });
});

describe('face matching is the family’s own act (issue 21, finding 4)', () => {
  const consent = (cookie: string, on: boolean) => app.fetch('/api/profile/face-matching', { method: 'PUT', cookie, json: { consent: on } });
  const state = async (cookie: string) =>
    jsonOf<{ consent: boolean; consentAt: string | null; consentByAccountHolder: boolean }>(await app.fetch('/api/profile/face-matching', { cookie }));
  const profileRow = async () => (await app.db.select().from(userProfiles).where(eq(userProfiles.id, athlete.userId)))[0]!;

  it('an admin viewing as the family can neither give nor withdraw consent, nor add or remove reference photos', async () => {
    const viewing = jar(admin.cookie, await start(admin.cookie, athlete.userId));
    const on = await consent(viewing, true);
    expect(on.status).toBe(403);
    expect(await jsonOf(on)).toMatchObject({ message: FACE_MATCHING.familyOnly });
    expect((await profileRow()).faceMatchConsentAt).toBeNull();
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }), 'photo.jpg');
    expect((await app.fetch('/api/profile/reference-photos', { method: 'POST', body: form, cookie: viewing })).status).toBe(403);
    expect((await app.fetch('/api/profile/reference-photos/00000000-0000-0000-0000-000000000000', { method: 'DELETE', cookie: viewing })).status).toBe(403);

    // The family's own choice is theirs, and the record says so; the admin cannot undo it either.
    expect((await consent(athlete.cookie, true)).status).toBe(200);
    expect((await consent(viewing, false)).status).toBe(403);
    expect(await profileRow()).toMatchObject({ faceMatchConsentBy: athlete.userId });
    expect(await state(athlete.cookie)).toMatchObject({ consent: true, consentByAccountHolder: true });
    await stop(viewing);

    expect((await consent(athlete.cookie, false)).status).toBe(200);
    expect(await profileRow()).toMatchObject({ faceMatchConsentAt: null, faceMatchConsentBy: null });
    expect(await state(athlete.cookie)).toMatchObject({ consent: false, consentAt: null, consentByAccountHolder: false });
  });
});
