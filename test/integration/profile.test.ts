// The athlete's own profile (GET/PATCH /api/profile) and the first-run tutorial flag.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, FIELD_ERRORS } from '../../src/common/messages';
import { userProfiles } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { jsonOf } from '../support/http';

let app: TestApp;
let athlete: Awaited<ReturnType<typeof createVerifiedUser>>;
let other: Awaited<ReturnType<typeof createVerifiedUser>>;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  athlete = await createVerifiedUser(app, { fullName: 'Jordan Miles' });
  other = await createVerifiedUser(app, { fullName: 'Casey Other' });
});
afterAll(async () => {
  await app?.close();
});

const profileRow = async (id: string) => (await app.db.select().from(userProfiles).where(eq(userProfiles.id, id)))[0]!;
const getProfile = (cookie?: string) => app.fetch('/api/profile', { cookie });
const patch = (json: unknown, cookie = athlete.cookie) => app.fetch('/api/profile', { method: 'PATCH', json, cookie });

const valid = {
  firstName: 'Jordan',
  lastName: 'Miles',
  teamName: 'Austin Elite',
  phone: '(512) 555-0101',
  city: 'Austin',
  state: 'Texas',
  jerseyNumber: '23',
};

/** Puts the athlete's profile in a known state before a test. */
async function reset() {
  const res = await patch(valid);
  expect(res.status).toBe(200);
  return profileRow(athlete.userId);
}

describe('GET /api/profile', () => {
  it('is refused to a visitor with 401 and the Authentication Required texts', async () => {
    const res = await getProfile();
    expect(res.status).toBe(401);
    expect(await jsonOf(res)).toEqual({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
    expect((await app.fetch('/api/profile', { cookie: 'better-auth.session_token=forged.value' })).status).toBe(401);
  });

  it("returns the caller's own profile, split from the sign-up name, never cached", async () => {
    const res = await getProfile(athlete.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await jsonOf(res);
    expect(body).toMatchObject({
      id: athlete.userId,
      email: athlete.email,
      firstName: 'Jordan',
      lastName: 'Miles',
      avatarUrl: null,
      originalAvatarUrl: null,
      bannerUrl: null,
      tutorialCompleted: false,
    });
    const mine = await jsonOf(await getProfile(other.cookie));
    expect(mine).toMatchObject({ id: other.userId, email: other.email, firstName: 'Casey', lastName: 'Other' });
  });

  it("offers no way to read someone else's profile", async () => {
    for (const path of [`/api/profile/${other.userId}`, `/api/profile?id=${other.userId}`, `/api/profile?userId=${other.userId}`]) {
      const res = await app.fetch(path, { cookie: athlete.cookie });
      if (res.status === 200) expect((await jsonOf(res)).id).toBe(athlete.userId);
      else expect(res.status).toBe(404);
    }
  });
});

describe('PATCH /api/profile', () => {
  it('saves the fields, trimmed, and answers the updated profile', async () => {
    const res = await patch({
      firstName: '  Jordan ',
      lastName: ' Miles-Cruz ',
      teamName: '  Round Rock Rebels  ',
      phone: ' (512) 555-0199 ',
      city: ' Round Rock ',
      state: ' Texas ',
      jerseyNumber: '12',
    });
    expect(res.status).toBe(200);
    const expected = {
      firstName: 'Jordan',
      lastName: 'Miles-Cruz',
      teamName: 'Round Rock Rebels',
      phone: '(512) 555-0199',
      city: 'Round Rock',
      state: 'Texas',
      jerseyNumber: 12,
    };
    expect(await jsonOf(res)).toMatchObject({ id: athlete.userId, ...expected });
    const row = await profileRow(athlete.userId);
    expect(row).toMatchObject(expected);
    expect(typeof row.jerseyNumber).toBe('number');
    expect(await jsonOf(await getProfile(athlete.cookie))).toMatchObject(expected);
  });

  it('saves empty or blank team, phone, city and state as null, and an empty jersey number as null', async () => {
    await reset();
    const res = await patch({ firstName: 'Jordan', lastName: 'Miles', teamName: '', phone: '   ', city: '', state: ' ', jerseyNumber: '' });
    expect(res.status).toBe(200);
    const empty = { teamName: null, phone: null, city: null, state: null, jerseyNumber: null };
    expect(await jsonOf(res)).toMatchObject(empty);
    expect(await profileRow(athlete.userId)).toMatchObject(empty);
  });

  it('accepts a jersey number given as a number, and null', async () => {
    await reset();
    expect(await jsonOf(await patch({ ...valid, jerseyNumber: 7 }))).toMatchObject({ jerseyNumber: 7 });
    expect((await profileRow(athlete.userId)).jerseyNumber).toBe(7);
    expect(await jsonOf(await patch({ ...valid, jerseyNumber: null }))).toMatchObject({ jerseyNumber: null });
    expect((await profileRow(athlete.userId)).jerseyNumber).toBeNull();
    expect(await jsonOf(await patch({ ...valid, jerseyNumber: ' 0 ' }))).toMatchObject({ jerseyNumber: 0 });
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['a missing first name', { firstName: undefined }, FIELD_ERRORS.required('First name')],
    ['an empty first name', { firstName: '' }, FIELD_ERRORS.required('First name')],
    ['a blank first name', { firstName: '   ' }, FIELD_ERRORS.required('First name')],
    ['a missing last name', { lastName: undefined }, FIELD_ERRORS.required('Last name')],
    ['a blank last name', { lastName: ' ' }, FIELD_ERRORS.required('Last name')],
    ['a fractional jersey number', { jerseyNumber: '1.5' }, FIELD_ERRORS.jerseyNumber],
    ['a non-numeric jersey number', { jerseyNumber: 'abc' }, FIELD_ERRORS.jerseyNumber],
    ['a jersey number with letters', { jerseyNumber: '12a' }, FIELD_ERRORS.jerseyNumber],
    ['a negative jersey number', { jerseyNumber: '-4' }, FIELD_ERRORS.jerseyNumber],
    ['a fractional numeric jersey number', { jerseyNumber: 2.5 }, FIELD_ERRORS.jerseyNumber],
  ];
  it.each(refused)('refuses %s with the schema text and changes nothing', async (_what, overrides, message) => {
    const before = await reset();
    const body = { ...valid, teamName: 'Changed Team', city: 'Changed City', ...overrides };
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ code: 'VALIDATION_ERROR', message });
    const after = await profileRow(athlete.userId);
    expect(after).toEqual(before);
  });

  it('refuses a body that is not JSON and changes nothing', async () => {
    const before = await reset();
    const res = await app.fetch('/api/profile', {
      method: 'PATCH',
      cookie: athlete.cookie,
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(await profileRow(athlete.userId)).toEqual(before);
  });

  it("changes only the caller's profile, whatever ids the body names", async () => {
    await reset();
    const otherBefore = await profileRow(other.userId);
    const res = await patch({ ...valid, id: other.userId, userId: other.userId, email: 'hijack@example.com', teamName: 'Mine Only' });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ id: athlete.userId, email: athlete.email, teamName: 'Mine Only' });
    expect(await profileRow(other.userId)).toEqual(otherBefore);
    expect((await profileRow(athlete.userId)).email).toBe(athlete.email);
  });

  it('is refused to a visitor with 401 and changes nothing', async () => {
    const before = await reset();
    const res = await app.fetch('/api/profile', { method: 'PATCH', json: { ...valid, teamName: 'Visitor' } });
    expect(res.status).toBe(401);
    expect(await profileRow(athlete.userId)).toEqual(before);
  });
});

describe('POST /api/profile/tutorial', () => {
  it('marks the tutorial completed, and it stays completed', async () => {
    expect((await jsonOf(await getProfile(other.cookie))).tutorialCompleted).toBe(false);
    const res = await app.fetch('/api/profile/tutorial', { method: 'POST', cookie: other.cookie });
    expect(res.status).toBe(200);
    expect((await jsonOf(res)).tutorialCompleted).toBe(true);
    expect((await jsonOf(await getProfile(other.cookie))).tutorialCompleted).toBe(true);
    expect((await profileRow(other.userId)).tutorialCompletedAt).toBeInstanceOf(Date);

    // Completing it again and editing the profile keep it completed.
    expect((await jsonOf(await app.fetch('/api/profile/tutorial', { method: 'POST', cookie: other.cookie }))).tutorialCompleted).toBe(true);
    expect((await patch({ ...valid, firstName: 'Casey', lastName: 'Other' }, other.cookie)).status).toBe(200);
    expect((await jsonOf(await getProfile(other.cookie))).tutorialCompleted).toBe(true);
  });

  it("does not touch anyone else's flag, and is refused to a visitor", async () => {
    expect((await app.fetch('/api/profile/tutorial', { method: 'POST' })).status).toBe(401);
    expect((await profileRow(athlete.userId)).tutorialCompletedAt).toBeNull();
  });
});

describe('PATCH /api/profile with fields left out', () => {
  it('keeps the optional fields the body does not name', async () => {
    const u = await createVerifiedUser(app);
    const first = await app.fetch('/api/profile', {
      method: 'PATCH',
      cookie: u.cookie,
      json: { firstName: 'Ana', lastName: 'Lopez', teamName: 'Rockets', jerseyNumber: 9, city: 'Austin' },
    });
    expect(first.status).toBe(200);
    const res = await app.fetch('/api/profile', { method: 'PATCH', cookie: u.cookie, json: { firstName: 'Ana', lastName: 'Lopez', city: '' } });
    expect(res.status).toBe(200);
    const profile = (await res.json()) as { teamName: string | null; jerseyNumber: number | null; city: string | null };
    expect(profile).toMatchObject({ teamName: 'Rockets', jerseyNumber: 9, city: null });
  });
});
