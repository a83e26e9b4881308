// The quick sign-up's athlete must finish the profile (birthday and, under 18, a parent's or
// guardian's agreement) before face matching, reference photos or a reel request (issue 21,
// finding 5): the same rules and texts as the full registration, checked on the server.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_ERRORS } from '../../src/common/messages';
import { PARENTAL_CONSENT } from '../../src/common/parental-consent-messages';
import { FINISH_PROFILE } from '../../src/common/dashboard-messages';
import { COMPANY } from '../../src/common/company';
import { athleteReferences, highlightRequests, parentalConsents, userProfiles } from '../../src/server/db/schema';
import { PARENTAL_NOTICE_VERSION } from '../../src/common/constants';
import { birthdayAtAge, createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { jpeg } from '../support/dashboard-fixtures';
import { jsonOf, settle } from '../support/http';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
});
afterAll(async () => {
  await app?.close();
});

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
const quickSignUp = (fullName: string) => createVerifiedUser(app, { fullName, finishProfile: false });
const profileRow = async (id: string) => (await app.db.select().from(userProfiles).where(eq(userProfiles.id, id)))[0]!;
const finish = (u: User, json: unknown) => app.fetch('/api/profile/athlete', { method: 'PUT', json, cookie: u.cookie });
const faceMatching = (u: User, consent: boolean) => app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent }, cookie: u.cookie });
const request = (u: User, eventId = 'chicago-3v3-2024') => app.fetch('/api/requests', { method: 'POST', json: { eventId }, cookie: u.cookie });
async function referencePhoto(u: User) {
  const form = new FormData();
  form.set('photo', new Blob([new Uint8Array(await jpeg(400, 400))], { type: 'image/jpeg' }), 'face.jpg');
  return app.fetch('/api/profile/reference-photos', { method: 'POST', body: form, cookie: u.cookie });
}
async function expectIncomplete(res: Response) {
  expect(res.status).toBe(409);
  expect(await jsonOf(res)).toMatchObject({ code: 'ATHLETE_PROFILE_INCOMPLETE', message: FINISH_PROFILE.incomplete, title: FINISH_PROFILE.title });
}
const teamMails = (name: string) => app.smtp.mails.filter((m) => m.to.includes(COMPANY.teamInbox) && m.subject.includes(`Highlight reel request: ${name}`));

describe('the quick sign-up finishes the athlete profile first (issue 21, finding 5)', () => {
  it('refuses face matching, reference photos and reel requests until the birthday and the guardian are given, changing nothing', async () => {
    const u = await quickSignUp('Quinn Quick');
    // A headshot may be uploaded from the dashboard all the same.
    const avatar = new FormData();
    avatar.set('avatar', new Blob([new Uint8Array(await jpeg(320, 320))], { type: 'image/jpeg' }), 'avatar.jpg');
    expect((await app.fetch('/api/profile/avatar', { method: 'POST', body: avatar, cookie: u.cookie })).status).toBe(200);
    expect((await jsonOf(await app.fetch('/api/profile', { cookie: u.cookie }))).athleteProfileComplete).toBe(false);

    await expectIncomplete(await faceMatching(u, true));
    await expectIncomplete(await referencePhoto(u));
    await expectIncomplete(await request(u));
    const row = await profileRow(u.userId);
    expect(row.faceMatchConsentAt).toBeNull();
    expect(await app.db.select().from(athleteReferences).where(eq(athleteReferences.userId, u.userId))).toHaveLength(0);
    expect(await app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, u.userId))).toHaveLength(0);
    await settle(300);
    expect(teamMails('Quinn Quick')).toHaveLength(0);
    // Turning face matching off is never refused.
    expect((await faceMatching(u, false)).status).toBe(200);
  });

  it('takes the birthday and the guardian with the registration’s rules and texts, refusing bad input without a change', async () => {
    const u = await quickSignUp('Rae Young');
    for (const [json, message] of [
      [{}, FIELD_ERRORS.required('Birthday')],
      [{ birthday: '2010-02-30' }, FIELD_ERRORS.birthday],
      [{ birthday: birthdayAtAge(12), guardianConsent: true }, FIELD_ERRORS.parentName],
      [{ birthday: birthdayAtAge(12), guardianConsent: true, parentName: 'Pat Young' }, FIELD_ERRORS.parentalConsent],
      [{ birthday: birthdayAtAge(15) }, FIELD_ERRORS.guardianConsent],
      [{ birthday: birthdayAtAge(17), guardianConsent: false }, FIELD_ERRORS.guardianConsent],
    ] as const) {
      const res = await finish(u, json);
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    let row = await profileRow(u.userId);
    expect([row.dateOfBirth, row.guardianConsentAt]).toEqual([null, null]);

    const birthday = birthdayAtAge(15);
    const before = Date.now();
    const done = await finish(u, { birthday, guardianConsent: true });
    expect(done.status).toBe(200);
    expect((await jsonOf(done)).athleteProfileComplete).toBe(true);
    row = await profileRow(u.userId);
    expect(row.dateOfBirth).toBe(birthday);
    expect(row.guardianConsentAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    // Now face matching and a request are open.
    expect((await faceMatching(u, true)).status).toBe(200);
    expect((await request(u)).status).toBe(201);
    // A finished profile is not rewritten here.
    const again = await finish(u, { birthday: birthdayAtAge(30) });
    expect(again.status).toBe(409);
    expect((await jsonOf(again)).message).toBe(FINISH_PROFILE.alreadyComplete);
    expect((await profileRow(u.userId)).dateOfBirth).toBe(birthday);
  });

  it('a 10-year-old: the parent’s consent from this confirmed address is recorded and confirmed by mail, and opens face matching and requests (issue 34, decision 0035)', async () => {
    const u = await quickSignUp('Kit Small');
    const before = Date.now();
    const res = await finish(u, { birthday: birthdayAtAge(10), guardianConsent: true, parentName: 'Pat Small', parentalConsent: true });
    expect(res.status).toBe(200);
    expect((await jsonOf(res)).athleteProfileComplete).toBe(true);
    const [consent] = await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, u.userId));
    expect(consent).toMatchObject({ parentName: 'Pat Small', noticeVersion: PARENTAL_NOTICE_VERSION, method: 'email_plus', givenFromEmail: u.email.toLowerCase() });
    expect(consent!.givenAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await profileRow(u.userId)).parentalConsentAt).not.toBeNull();
    const mail = await app.smtp.waitFor(u.email, 'consent');
    expect(mail.text).toContain('Hi Pat Small,');
    expect((await faceMatching(u, true)).status).toBe(200);
    expect((await request(u)).status).toBe(201);
    expect((await jsonOf(await app.fetch('/api/profile', { cookie: u.cookie }))).parentalConsent).toMatchObject({ by: 'Pat Small' });

    // Withdrawn: face matching goes off with the face data, and nothing new opens until consent is given again.
    expect((await app.fetch('/api/profile/parental-consent', { method: 'DELETE' })).status).toBe(401);
    const withdrawn = await app.fetch('/api/profile/parental-consent', { method: 'DELETE', cookie: u.cookie });
    expect(withdrawn.status).toBe(200);
    expect(await jsonOf(withdrawn)).toMatchObject({ athleteProfileComplete: false, parentalConsent: null });
    const [record] = await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, u.userId));
    expect(record!.withdrawnAt).not.toBeNull();
    const row = await profileRow(u.userId);
    expect([row.faceMatchConsentAt, row.parentalConsentAt]).toEqual([null, null]);
    await expectIncomplete(await faceMatching(u, true));
    await expectIncomplete(await request(u, 'austin-fall-league-2024'));
    const again = await app.fetch('/api/profile/parental-consent', { method: 'DELETE', cookie: u.cookie });
    expect(again.status).toBe(404);
    expect((await jsonOf(again)).message).toBe(PARENTAL_CONSENT.none);
    // Given again on the finish-profile step: a new record, and matching opens again.
    expect((await finish(u, { birthday: birthdayAtAge(10), guardianConsent: true, parentName: 'Pat Small', parentalConsent: true })).status).toBe(200);
    expect(await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, u.userId))).toHaveLength(2);
    expect((await faceMatching(u, true)).status).toBe(200);
  });

  it('an adult athlete needs no guardian', async () => {
    const u = await quickSignUp('Ada Adult');
    const res = await finish(u, { birthday: birthdayAtAge(19) });
    expect(res.status).toBe(200);
    expect((await jsonOf(res)).athleteProfileComplete).toBe(true);
    expect((await profileRow(u.userId)).guardianConsentAt).toBeNull();
    expect((await request(u)).status).toBe(201);
  });
});
