// The full registration of /signup (POST /api/account/register, multipart), the homepage
// sign-up it links to, and the headshot that is stored without its metadata.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADSHOT_MAX_BYTES, PARENTAL_NOTICE_VERSION } from '../../src/common/constants';
import { FACE_MATCHING, FILE_TOO_LARGE_10MB } from '../../src/common/dashboard-messages';
import { ACCOUNT_EXISTS, FIELD_ERRORS, USERNAME_TAKEN } from '../../src/common/messages';
import { athleteReferences, homepageSignups, parentalConsents, user, userProfiles } from '../../src/server/db/schema';
import { decodeEmbeddings } from '../../src/server/faces/embeddings';
import { REFERENCE_MAX_BYTES } from '../../src/server/faces/references';
import { startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { GPS_TAGS, gpsTagsIn } from '../support/exif';
import { referencePhoto } from '../support/face-footage';
import { jsonOf, settle } from '../support/http';
import { linkIn } from '../support/smtp';
import { eventually } from '../support/purchase';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
});
afterAll(async () => {
  await app?.close();
});

let seq = 0;
function fields(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  seq += 1;
  const base: Record<string, string | undefined> = {
    firstName: 'Jordan',
    lastName: 'Miles',
    email: uniqueEmail('reg'),
    username: `jmiles_${Date.now().toString(36)}${seq}`,
    password: 'secret12',
    birthday: '2008-05-14',
    state: 'Texas',
    city: 'Austin',
    phoneNumber: '',
    teamName: 'Austin Elite',
    event: 'austin-fall-league-2024',
    jerseyNumber: '23',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
}

function register(values: Record<string, string>, headshot?: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.set(k, v);
  if (headshot) form.set('headshot', new Blob([new Uint8Array(headshot.bytes)], { type: headshot.type }), headshot.name);
  return app.fetch('/api/account/register', { method: 'POST', body: form });
}

const usersWith = (email: string) => app.db.select().from(user).where(eq(user.email, email));
const profileOf = async (id: string) => (await app.db.select().from(userProfiles).where(eq(userProfiles.id, id)))[0];
const mailsTo = (email: string) => app.smtp.mails.filter((m) => m.to.includes(email.toLowerCase()));
const photoPath = (userId: string) => path.join(app.dataDir, 'storage', 'profile-photos', userId, 'profile.jpg');

describe('full registration', () => {
  it('creates the account with every profile field and sends a verification mail', async () => {
    const values = fields({ jerseyNumber: '23', phoneNumber: '' });
    const res = await register(values);
    expect(res.status).toBe(201);
    const body = await jsonOf<{ userId: string; verificationRequired: boolean; headshotSaved: boolean | null }>(res);
    expect(body).toMatchObject({ verificationRequired: true, headshotSaved: null });

    const [account] = await usersWith(values.email!);
    expect(account).toMatchObject({ id: body.userId, name: 'Jordan Miles', emailVerified: false });
    const profile = await profileOf(body.userId);
    expect(profile).toMatchObject({
      email: values.email,
      username: values.username,
      firstName: 'Jordan',
      lastName: 'Miles',
      dateOfBirth: '2008-05-14',
      state: 'Texas',
      city: 'Austin',
      phone: null,
      teamName: 'Austin Elite',
      eventName: 'austin-fall-league-2024',
      jerseyNumber: 23,
      avatarUrl: null,
    });
    expect(typeof profile!.jerseyNumber).toBe('number');
    await app.smtp.waitFor(values.email!, 'Confirm');
  });

  it('keeps a given phone number, trims text, and stores a missing jersey number as null', async () => {
    const values = fields({ phoneNumber: ' (512) 555-0101 ', jerseyNumber: undefined, city: '  Round Rock ', event: 'other' });
    const res = await register(values);
    expect(res.status).toBe(201);
    const { userId } = await jsonOf<{ userId: string }>(res);
    expect(await profileOf(userId)).toMatchObject({ phone: '(512) 555-0101', jerseyNumber: null, city: 'Round Rock', eventName: 'other' });
  });

  it('refuses an email that already has an account (Account Already Exists) and changes nothing', async () => {
    const first = fields();
    expect((await register(first)).status).toBe(201);
    await app.smtp.waitFor(first.email!, 'Confirm');

    const again = fields({ email: first.email!.toUpperCase() });
    const res = await register(again);
    expect(res.status).toBe(409);
    expect(await jsonOf(res)).toEqual({ code: 'ACCOUNT_EXISTS', message: ACCOUNT_EXISTS.description, title: ACCOUNT_EXISTS.title });
    expect(await usersWith(first.email!)).toHaveLength(1);
    const taken = await app.db.select().from(userProfiles).where(eq(userProfiles.username, again.username!));
    expect(taken).toHaveLength(0);
    await settle(200);
    expect(mailsTo(first.email!)).toHaveLength(1);
  });

  it('refuses a username that is taken in any letter case (Username Taken) and changes nothing', async () => {
    const first = fields({ username: `HoopStar${Date.now().toString(36)}` });
    expect((await register(first)).status).toBe(201);

    const second = fields({ username: first.username!.toLowerCase() });
    const res = await register(second);
    expect(res.status).toBe(409);
    expect(await jsonOf(res)).toEqual({ code: 'USERNAME_TAKEN', message: USERNAME_TAKEN.description, title: USERNAME_TAKEN.title });
    expect(await usersWith(second.email!)).toHaveLength(0);
    const same = await app.db
      .select()
      .from(userProfiles)
      .where(eq(sql`lower(${userProfiles.username})`, first.username!.toLowerCase()));
    expect(same).toHaveLength(1);
    await settle(200);
    expect(mailsTo(second.email!)).toHaveLength(0);
  });

  const invalid: Array<[string, Record<string, string | undefined>, string]> = [
    ['a missing first name', { firstName: undefined }, FIELD_ERRORS.required('First name')],
    ['a blank last name', { lastName: '  ' }, FIELD_ERRORS.required('Last name')],
    ['an invalid email', { email: 'jordan@' }, FIELD_ERRORS.email],
    ['a missing username', { username: '' }, FIELD_ERRORS.required('Username')],
    ['a username with spaces', { username: 'jordan miles' }, FIELD_ERRORS.username],
    ['a too-short password', { password: 'abc' }, FIELD_ERRORS.passwordTooShort],
    ['a missing birthday', { birthday: undefined }, FIELD_ERRORS.required('Birthday')],
    ['an impossible birthday', { birthday: '2010-02-30' }, FIELD_ERRORS.birthday],
    ['a birthday in the future', { birthday: '2999-01-01' }, FIELD_ERRORS.birthday],
    ['a state that is not a US state', { state: 'Texass' }, FIELD_ERRORS.state],
    ['a state abbreviation', { state: 'TX' }, FIELD_ERRORS.state],
    ['a missing city', { city: undefined }, FIELD_ERRORS.required('City')],
    ['a missing team name', { teamName: '' }, FIELD_ERRORS.required('Team name')],
    ['an unknown event', { event: 'chess-open' }, FIELD_ERRORS.event],
    ['the old fixed event nobody runs', { event: 'stria-sport-3x3' }, FIELD_ERRORS.event],
    ['an event in other letter case', { event: 'Austin-Fall-League-2024' }, FIELD_ERRORS.event],
    ['a missing event', { event: undefined }, FIELD_ERRORS.event],
    ['a blank event', { event: '  ' }, FIELD_ERRORS.event],
    ['a non-numeric jersey number', { jerseyNumber: '12a' }, FIELD_ERRORS.jerseyNumber],
    ['a fractional jersey number', { jerseyNumber: '7.5' }, FIELD_ERRORS.jerseyNumber],
    ['a negative jersey number', { jerseyNumber: '-3' }, FIELD_ERRORS.jerseyNumber],
  ];
  it.each(invalid)('refuses %s with the schema text and creates nothing', async (_what, overrides, message) => {
    const values = fields(overrides);
    const res = await register(values);
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', message });
    const email = values.email ?? '';
    if (email) expect(await usersWith(email.toLowerCase())).toHaveLength(0);
    if (values.username) {
      const rows = await app.db.select().from(userProfiles).where(eq(userProfiles.username, values.username));
      expect(rows).toHaveLength(0);
    }
    if (email) expect(mailsTo(email)).toHaveLength(0);
  });

  it('links the homepage sign-up with the same email to the new user and marks it completed', async () => {
    const email = uniqueEmail('home');
    const saved = await app.fetch('/api/account/homepage-signups', {
      method: 'POST',
      json: { firstName: 'Jordan', lastName: 'Miles', email },
    });
    expect(saved.status).toBe(201);
    const [before] = await app.db.select().from(homepageSignups).where(eq(homepageSignups.email, email));
    expect(before).toMatchObject({ firstName: 'Jordan', lastName: 'Miles', userId: null, status: null });

    const res = await register(fields({ email }));
    expect(res.status).toBe(201);
    const { userId } = await jsonOf<{ userId: string }>(res);
    const [after] = await app.db.select().from(homepageSignups).where(eq(homepageSignups.id, before!.id));
    expect(after).toMatchObject({ userId, status: 'completed' });
  });

  it('refuses a homepage sign-up with an invalid email and stores nothing', async () => {
    const res = await app.fetch('/api/account/homepage-signups', {
      method: 'POST',
      json: { firstName: 'Jordan', lastName: 'Miles', email: 'nope' },
    });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).message).toBe(FIELD_ERRORS.email);
    expect(await app.db.select().from(homepageSignups).where(eq(homepageSignups.email, 'nope'))).toHaveLength(0);
  });

  it('stores a headshot re-encoded as JPEG without EXIF or GPS and sets the avatar', async () => {
    const headshot = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'TestCam', Model: 'Phone 1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '30/1 16/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 44/1 0/1' },
      })
      .toBuffer();
    // The input really carries a location.
    const inputTags = gpsTagsIn((await sharp(headshot).metadata()).exif);
    expect(inputTags).toEqual(expect.arrayContaining([GPS_TAGS.latitude, GPS_TAGS.longitude]));

    const res = await register(fields(), { bytes: headshot, name: 'me.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const { userId, headshotSaved } = await jsonOf<{ userId: string; headshotSaved: boolean }>(res);
    expect(headshotSaved).toBe(true);

    const file = photoPath(userId);
    expect(fs.existsSync(file)).toBe(true);
    const stored = fs.readFileSync(file);
    expect(stored.equals(headshot)).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(640);
    expect(meta.exif).toBeUndefined();
    expect(gpsTagsIn(meta.exif)).toEqual([]);
    expect(stored.includes(Buffer.from('TestCam'))).toBe(false);

    const profile = await profileOf(userId);
    expect(profile!.avatarUrl).toBe(`profile-photos/${userId}/profile.jpg`);
  });

  it('with the face-matching choice ticked, consent waits for the confirmed address: no descriptor before, the headshot’s after (issue 33, finding 5); without, keeps none', async () => {
    const face = path.join(os.tmpdir(), `giot-registration-face-${Date.now()}.jpg`);
    await referencePhoto('ava', face);
    const values = fields({ faceMatchConsent: 'on' });
    const agreed = await register(values, { bytes: fs.readFileSync(face), name: 'ava.jpg', type: 'image/jpeg' });
    expect(agreed.status).toBe(201);
    const { userId, faceMatching } = await jsonOf<{ userId: string; faceMatching: unknown }>(agreed);
    // Whoever typed the address may not own it: nothing is compared, nothing said of the headshot.
    expect(faceMatching).toEqual({ consent: false, pending: true, headshot: 'off', message: FACE_MATCHING.registered.pending });
    expect(await profileOf(userId)).toMatchObject({ faceMatchConsentAt: null, faceMatchConsentBy: null, faceMatchConsentPendingAt: expect.any(Date) });
    expect(await app.db.select().from(athleteReferences).where(eq(athleteReferences.userId, userId))).toEqual([]);
    // The confirmation link makes it consent, given by the holder of the confirmed address.
    await fetch(linkIn(await app.smtp.waitFor(values.email!, 'Confirm')), { redirect: 'manual' });
    expect(await profileOf(userId)).toMatchObject({ faceMatchConsentAt: expect.any(Date), faceMatchConsentBy: userId, faceMatchConsentPendingAt: null });
    const refs = await app.db.select().from(athleteReferences).where(eq(athleteReferences.userId, userId));
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ source: 'headshot' });
    expect(decodeEmbeddings(refs[0]!.embedding)).toHaveLength(1);

    const declined = await register(fields(), { bytes: fs.readFileSync(face), name: 'ava.jpg', type: 'image/jpeg' });
    const other = (await jsonOf<{ userId: string }>(declined)).userId;
    expect((await profileOf(other))!.faceMatchConsentAt).toBeNull();
    expect(await app.db.select().from(athleteReferences).where(eq(athleteReferences.userId, other))).toHaveLength(0);
    fs.rmSync(face, { force: true });
  }, 60_000);

  it('still creates the account when the headshot is not an image, and leaves no file', async () => {
    const values = fields();
    const res = await register(values, { bytes: Buffer.from('%PDF-1.4 this is not a picture'), name: 'me.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const { userId, headshotSaved } = await jsonOf<{ userId: string; headshotSaved: boolean }>(res);
    expect(headshotSaved).toBe(false);
    expect(await usersWith(values.email!)).toHaveLength(1);
    expect(fs.existsSync(path.dirname(photoPath(userId)))).toBe(false);
    expect((await profileOf(userId))!.avatarUrl).toBeNull();
  });

  it('takes a headshot up to the reference photos\' limit (10MB): an 8MB PNG becomes the avatar', async () => {
    expect(HEADSHOT_MAX_BYTES).toBe(REFERENCE_MAX_BYTES);
    // Random pixels do not compress, so the PNG really is about 8MB.
    const side = 1700;
    const png = await sharp(crypto.randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(png.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(png.length).toBeLessThan(HEADSHOT_MAX_BYTES);
    const res = await register(fields(), { bytes: png, name: 'big.png', type: 'image/png' });
    expect(res.status).toBe(201);
    const { userId, headshotSaved } = await jsonOf<{ userId: string; headshotSaved: boolean }>(res);
    expect(headshotSaved).toBe(true);
    expect((await profileOf(userId))!.avatarUrl).toBe(`profile-photos/${userId}/profile.jpg`);
    expect((await sharp(fs.readFileSync(photoPath(userId))).metadata()).format).toBe('jpeg');
  });

  it('refuses a headshot over 10MB with the reference photos\' text before creating anything', async () => {
    // Just over the limit (within the body's allowance for the other fields), and far over it.
    for (const size of [HEADSHOT_MAX_BYTES + 1024, 12 * 1024 * 1024]) {
      const values = fields();
      const res = await register(values, { bytes: Buffer.alloc(size, 0xff), name: 'big.jpg', type: 'image/jpeg' });
      expect(res.status, String(size)).toBe(413);
      expect(await jsonOf(res)).toMatchObject({ code: 'FILE_TOO_LARGE', message: FILE_TOO_LARGE_10MB.description, title: FILE_TOO_LARGE_10MB.title });
      expect(await usersWith(values.email!)).toHaveLength(0);
      expect(await app.db.select().from(userProfiles).where(eq(userProfiles.username, values.username!))).toHaveLength(0);
      expect(mailsTo(values.email!)).toHaveLength(0);
    }
  });
});

describe('minimum age and guardian agreement (issue 6, threat 3: children under 13 registering)', () => {
  /** The YYYY-MM-DD date `years` years before today (UTC), shifted by `days`. */
  const yearsAgo = (years: number, days = 0) => {
    const d = new Date();
    d.setUTCFullYear(d.getUTCFullYear() - years);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };

  it.each([
    ['four years old', yearsAgo(4)],
    ['a day short of 13', yearsAgo(13, 1)],
  ])('refuses an athlete who is %s without the parent’s name and consent, with the clear message, and creates nothing (issue 34)', async (_what, birthday) => {
    for (const [extra, message] of [
      [{}, FIELD_ERRORS.parentName],
      [{ parentName: 'Dana Parent' }, FIELD_ERRORS.parentalConsent],
      [{ parentalConsent: 'true' }, FIELD_ERRORS.parentName],
      [{ parentName: 'Dana <b>Parent</b>', parentalConsent: 'true' }, FIELD_ERRORS.notAName("Parent or guardian's name")],
    ] as const) {
      const values = fields({ birthday, guardianConsent: 'true', ...extra });
      const res = await register(values);
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message });
      expect(await usersWith(values.email!)).toHaveLength(0);
      await settle(200);
      expect(mailsTo(values.email!)).toHaveLength(0);
    }
  });

  it('registers a 10-year-old with the parent’s consent, which counts once the address is confirmed, is recorded and is confirmed by mail (issue 34, decision 0035)', async () => {
    const values = fields({ birthday: yearsAgo(10), guardianConsent: 'true', parentName: 'Dana Parent', parentalConsent: 'true' });
    const res = await register(values);
    expect(res.status).toBe(201);
    const [account] = await usersWith(values.email!);
    // Not yet: the address is not confirmed, so nothing is open.
    let [consent] = await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, account!.id));
    expect(consent).toMatchObject({ parentName: 'Dana Parent', noticeVersion: PARENTAL_NOTICE_VERSION, method: 'email_plus', givenAt: null, givenFromEmail: null });
    expect((await app.db.select().from(userProfiles).where(eq(userProfiles.id, account!.id)))[0]!.parentalConsentAt).toBeNull();

    const confirm = await app.smtp.waitFor(values.email!, 'Confirm');
    const before = Date.now();
    await fetch(linkIn(confirm), { redirect: 'manual' });
    [consent] = await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, account!.id));
    expect(consent!.givenAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(consent!.givenFromEmail).toBe(values.email!.toLowerCase());
    const [profile] = await app.db.select().from(userProfiles).where(eq(userProfiles.id, account!.id));
    expect(profile!.parentalConsentAt).not.toBeNull();
    // The "plus": a mail to the confirmed address says what was agreed and how to withdraw it.
    const mail = await app.smtp.waitFor(values.email!, 'consent');
    expect(mail.text).toContain('Hi Dana Parent,');
    expect(mail.text).toContain('close the account');
    await eventually(async () => (await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, account!.id)))[0]!.confirmationMailedAt);
  });

  it('a 15-year-old’s parent may give their own name: the account is theirs and the mails greet them (decision 0036)', async () => {
    const values = fields({ birthday: yearsAgo(15), guardianConsent: 'true', parentName: 'Sam Guardian' });
    expect((await register(values)).status).toBe(201);
    const [account] = await usersWith(values.email!);
    expect(await profileOf(account!.id)).toMatchObject({ firstName: 'Jordan', holderName: 'Sam Guardian', parentalConsentAt: null });
    // No consent record: that is for athletes under 13 only.
    expect(await app.db.select().from(parentalConsents).where(eq(parentalConsents.userId, account!.id))).toEqual([]);
    // An adult athlete holds the account themself: no holder name, whatever was sent.
    const adult = fields({ birthday: yearsAgo(19), parentName: 'Not Needed' });
    expect((await register(adult)).status).toBe(201);
    const [grown] = await usersWith(adult.email!);
    expect((await profileOf(grown!.id))!.holderName).toBeNull();
  });

  it('refuses an athlete of 13 to 17 without a parent or guardian agreeing, and creates nothing', async () => {
    for (const birthday of [yearsAgo(13), yearsAgo(15), yearsAgo(18, 1)]) {
      const values = fields({ birthday });
      const res = await register(values);
      expect(res.status, birthday).toBe(400);
      expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message: FIELD_ERRORS.guardianConsent });
      expect(await usersWith(values.email!)).toHaveLength(0);
    }
    const unchecked = fields({ birthday: yearsAgo(15), guardianConsent: 'false' });
    expect((await register(unchecked)).status).toBe(400);
  });

  it("records when a parent or guardian agreed for an athlete of 13 to 17", async () => {
    const before = Date.now();
    const values = fields({ birthday: yearsAgo(13), guardianConsent: 'true' });
    const res = await register(values);
    expect(res.status).toBe(201);
    const { userId } = await jsonOf<{ userId: string }>(res);
    const profile = await profileOf(userId);
    expect(profile!.dateOfBirth).toBe(values.birthday);
    expect(profile!.guardianConsentAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('an adult needs no guardian', async () => {
    const res = await register(fields({ birthday: yearsAgo(18) }));
    expect(res.status).toBe(201);
    const { userId } = await jsonOf<{ userId: string }>(res);
    expect((await profileOf(userId))!.guardianConsentAt).toBeNull();
  });
});
