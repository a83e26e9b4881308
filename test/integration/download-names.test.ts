// Downloads are named for the family (issue 22, item 5): the server's Content-Disposition says
// "<Athlete> – <Event> – Highlight Reel.mp4", "… – Social Cut.mp4", "… – Photo 3.jpg"; an upload
// without a request keeps its own title, a still without one has no event. filename* carries the
// UTF-8 name, filename an ASCII fallback; slashes, quotes and control characters never get through.
// Who may download is unchanged: another user gets 404, a visitor 401.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED } from '../../src/common/messages';
import { MEDIA } from '../../src/common/dashboard-messages';
import { highlightRequests, userProfiles, userStills } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertStill, insertVideo, makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;

let app: TestApp;
let athlete: User;
let other: User;

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  [athlete, other] = [await createVerifiedUser(app), await createVerifiedUser(app)];
});
afterAll(async () => {
  await app?.close();
});

async function name(userId: string, firstName: string, lastName: string) {
  await app.db.update(userProfiles).set({ firstName, lastName }).where(eq(userProfiles.id, userId));
}
async function request(userId: string, event: string) {
  const [row] = await app.db.insert(highlightRequests).values({ userId, status: 'delivered', event, games: [] }).returning();
  return row!.id;
}
async function stillFor(userId: string, position: number, requestId: string | null = null) {
  const still = await insertStill(app, userId, position);
  if (requestId) await app.db.update(userStills).set({ requestId }).where(eq(userStills.id, still.id));
  return still;
}

/** The two names of a download's Content-Disposition: the UTF-8 one and the ASCII fallback. */
async function savedAs(path: string, cookie = athlete.cookie) {
  const res = await app.fetch(path, { cookie });
  expect(res.status, path).toBe(200);
  await res.arrayBuffer();
  const disposition = res.headers.get('content-disposition')!;
  expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
  return {
    utf8: decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!),
    ascii: /filename="([^"]*)"/.exec(disposition)![1]!,
  };
}

describe('the names downloads are saved under', () => {
  it('names a request\'s reel, social cut and photos "<Athlete> – <Event> – …", the ASCII fallback with hyphens', async () => {
    await name(athlete.userId, 'Sky', 'Rivera');
    const chicago = await request(athlete.userId, 'Chicago 3v3 (Chicago, IL, Nov 9)');
    const reel = await insertVideo(app, athlete.userId, { videoTitle: 'Highlight Reel', videoType: 'highlight_reel', requestId: chicago });
    const social = await insertVideo(app, athlete.userId, { videoTitle: 'Social Cut', videoType: 'social_cut', requestId: chicago, width: 1080, height: 1920 });
    expect(await savedAs(`/api/videos/${reel.id}/download`)).toEqual({
      utf8: 'Sky Rivera – Chicago 3v3 (Chicago, IL, Nov 9) – Highlight Reel.mp4',
      ascii: 'Sky Rivera - Chicago 3v3 (Chicago, IL, Nov 9) - Highlight Reel.mp4',
    });
    expect((await savedAs(`/api/videos/${social.id}/download`)).utf8).toBe('Sky Rivera – Chicago 3v3 (Chicago, IL, Nov 9) – Social Cut.mp4');

    // Photo numbers are the ones "Your Photos" shows (order_position order), not insertion order.
    const third = await stillFor(athlete.userId, 5, chicago);
    const first = await stillFor(athlete.userId, 1);
    const second = await stillFor(athlete.userId, 2, chicago);
    expect((await savedAs(`/api/stills/${third.id}/download`)).utf8).toBe('Sky Rivera – Chicago 3v3 (Chicago, IL, Nov 9) – Photo 3.jpg');
    expect((await savedAs(`/api/stills/${second.id}/download`)).utf8).toBe('Sky Rivera – Chicago 3v3 (Chicago, IL, Nov 9) – Photo 2.jpg');
    // A still that belongs to no request has no event in its name.
    expect(await savedAs(`/api/stills/${first.id}/download`)).toEqual({ utf8: 'Sky Rivera – Photo 1.jpg', ascii: 'Sky Rivera - Photo 1.jpg' });
    // The list numbers them the same way.
    const list = await jsonOf<Array<{ id: string }>>(await app.fetch('/api/stills', { cookie: athlete.cookie }));
    expect(list.map((s) => s.id)).toEqual([first.id, second.id, third.id]);
  });

  it('names an uploaded video without a request by its own title', async () => {
    await name(athlete.userId, 'Sky', 'Rivera');
    const upload = await insertVideo(app, athlete.userId, { videoTitle: 'Semifinal vs Rebels', videoType: 'highlight_reel' });
    expect(await savedAs(`/api/videos/${upload.id}/download`)).toEqual({ utf8: 'Sky Rivera – Semifinal vs Rebels.mp4', ascii: 'Sky Rivera - Semifinal vs Rebels.mp4' });
  });

  it('keeps non-Latin letters in filename* and gives an ASCII fallback', async () => {
    const family = await createVerifiedUser(app);
    await name(family.userId, 'Zoë', 'Ñandú-Łukasik');
    const cyrillic = await createVerifiedUser(app);
    await name(cyrillic.userId, 'Дарья', '李');
    const event = await request(family.userId, 'Copa São Paulo ⚽');
    const reel = await insertVideo(app, family.userId, { videoType: 'highlight_reel', requestId: event });
    expect(await savedAs(`/api/videos/${reel.id}/download`, family.cookie)).toEqual({
      utf8: 'Zoë Ñandú-Łukasik – Copa São Paulo ⚽ – Highlight Reel.mp4',
      ascii: 'Zoe Nandu-_ukasik - Copa Sao Paulo _ - Highlight Reel.mp4',
    });
    const still = await stillFor(cyrillic.userId, 0);
    const saved = await savedAs(`/api/stills/${still.id}/download`, cyrillic.cookie);
    expect(saved.utf8).toBe('Дарья 李 – Photo 1.jpg');
    expect(saved.ascii).toBe('_ _ - Photo 1.jpg');
  });

  it('makes slashes, quotes, backslashes and control characters safe in every part', async () => {
    const family = await createVerifiedUser(app);
    await name(family.userId, 'AC/DC', "O'Brien \"Jr\"");
    const event = await request(family.userId, 'Spring\\Cup /../ 2024\r\nX-Evil: 1\u202Egpj.exe');
    const reel = await insertVideo(app, family.userId, { videoType: 'social_cut', requestId: event });
    const saved = await savedAs(`/api/videos/${reel.id}/download`, family.cookie);
    expect(saved.utf8).toBe('AC DC O’Brien Jr – Spring Cup .. 2024 X-Evil 1 gpj.exe – Social Cut.mp4');
    expect(saved.ascii).toBe('AC DC OBrien Jr - Spring Cup .. 2024 X-Evil 1 gpj.exe - Social Cut.mp4');
    for (const n of [saved.utf8, saved.ascii]) expect(n).not.toMatch(/[/\\"\x00-\x1f\u202e]/);

    const titled = await insertVideo(app, family.userId, { videoTitle: '../../etc/passwd "x"' });
    expect((await savedAs(`/api/videos/${titled.id}/download`, family.cookie)).utf8).toBe('AC DC O’Brien Jr – etc passwd x.mp4');
  });

  it('filters the ASCII fallback after its normalisation: full-width slashes, colons and quotes turn safe too (issue 33)', async () => {
    const family = await createVerifiedUser(app);
    await name(family.userId, 'Ｓｋｙ／..／etc', 'Ｒｉｖｅｒａ＂＼');
    const event = await request(family.userId, 'Cup：２０２４？');
    const reel = await insertVideo(app, family.userId, { videoType: 'highlight_reel', requestId: event });
    const saved = await savedAs(`/api/videos/${reel.id}/download`, family.cookie);
    expect(saved.utf8).toBe('Ｓｋｙ／..／etc Ｒｉｖｅｒａ＂＼ – Cup：２０２４？ – Highlight Reel.mp4');
    expect(saved.ascii).toBe('Sky_.._etc Rivera__ - Cup_2024_ - Highlight Reel.mp4');
    expect(saved.ascii).not.toMatch(/[/\\:"?*<>|]/);
  });

  it('answers another user 404 and a visitor 401 exactly as before', async () => {
    const event = await request(athlete.userId, 'Chicago 3v3');
    const reel = await insertVideo(app, athlete.userId, { videoType: 'highlight_reel', requestId: event });
    const still = await stillFor(athlete.userId, 9, event);
    for (const path of [`/api/videos/${reel.id}/download`, `/api/stills/${still.id}/download`]) {
      const theirs = await app.fetch(path, { cookie: other.cookie });
      expect(theirs.status, path).toBe(404);
      expect(theirs.headers.get('content-disposition')).toBeNull();
      expect(await jsonOf(theirs)).toEqual({ code: 'NOT_FOUND', message: MEDIA.notFound });
      const visitor = await app.fetch(path);
      expect(visitor.status, path).toBe(401);
      expect(visitor.headers.get('content-disposition')).toBeNull();
      expect(await jsonOf(visitor)).toMatchObject({ message: AUTH_REQUIRED.description, title: AUTH_REQUIRED.title });
    }
  });

  it("names an admin's download of someone's file for that family, not for the admin", async () => {
    const admin = await createVerifiedUser(app);
    await makeAdmin(app, admin.userId);
    await name(admin.userId, 'Staff', 'Member');
    await name(athlete.userId, 'Sky', 'Rivera');
    const event = await request(athlete.userId, 'Fall League');
    const reel = await insertVideo(app, athlete.userId, { videoType: 'highlight_reel', requestId: event });
    expect((await savedAs(`/api/videos/${reel.id}/download`, admin.cookie)).utf8).toBe('Sky Rivera – Fall League – Highlight Reel.mp4');
  });

  it("never names a file after another family's request", async () => {
    await name(athlete.userId, 'Sky', 'Rivera');
    const theirs = await request(other.userId, 'Their Private Event');
    const video = await insertVideo(app, athlete.userId, { videoTitle: 'Odd Upload', requestId: theirs });
    expect((await savedAs(`/api/videos/${video.id}/download`)).utf8).toBe('Sky Rivera – Odd Upload.mp4');
  });
});
