// Erasing an account (issue 33, finding 1): the family closes it from the dashboard with their
// password, an admin erases it from the users list, or the command line does; registrations
// never confirmed go after UNCONFIRMED_ACCOUNT_DAYS. Afterwards nothing of the person is left: every
// table that points at the user (found from the database's own foreign keys, so a table added
// later is checked too) and every column named like an e-mail hold nothing of theirs, every
// storage folder of theirs is empty, their media URLs answer 404 to admins too, sign-in answers
// 401, and orders stay only as anonymous records.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../src/common/admin-messages';
import { CLOSE_ACCOUNT } from '../../src/common/dashboard-messages';
import { eraseUnconfirmedAccounts, USER_BUCKETS } from '../../src/server/accounts/erasure';
import { runAdminCommand } from '../../src/server/admin/service';
import {
  appearances,
  athleteReferences,
  auditLog,
  contactMessages,
  eventGames,
  faceTracks,
  footage,
  highlightRequests,
  homepageSignups,
  orders,
  reelRenders,
  user,
  userProfiles,
} from '../../src/server/db/schema';
import { storageKeys } from '../../src/server/storage/keys';
import { cookiesFrom, createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { settle } from '../support/http';
import { insertStill, insertVideo, jpeg, makeAdmin, storageOf } from '../support/dashboard-fixtures';

let app: TestApp;
let admin: Awaited<ReturnType<typeof createVerifiedUser>>;
const EVENT = 'austin-fall-league-2024';

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Ada Admin' });
  await makeAdmin(app, admin.userId);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const rowsOf = async (query: ReturnType<typeof sql>) => ((await app.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

/**
 * A family with something in every place personal data lives: profile pictures, a reference
 * photo with a descriptor, a request with a clip on a matched face track, a render with a
 * preview, a paid order, a video, a still, a waiting-list row and a contact message from the
 * same address, a reset token and a support visit. Returns what to look for afterwards.
 */
async function familyWithEverything(fullName: string) {
  const family = await createVerifiedUser(app, { fullName });
  const storage = storageOf(app);
  const picture = await jpeg(64, 64);
  const keys = [
    storageKeys.profilePhoto(family.userId),
    storageKeys.avatar(family.userId),
    storageKeys.banner(family.userId),
    storageKeys.referencePhoto(family.userId),
    storageKeys.videoThumbnail(family.userId, randomUUID()),
  ];
  for (const key of keys) await storage.put(key, picture, 'image/jpeg');
  await app.db.update(userProfiles).set({ avatarUrl: keys[1], bannerUrl: keys[2], phone: '5125550100', city: 'Austin' }).where(eq(userProfiles.id, family.userId));
  await app.db.insert(athleteReferences).values({ userId: family.userId, source: 'photo', photoKey: keys[3], embedding: Buffer.alloc(512), faceHeight: 200 });
  const [game] = await app.db.insert(eventGames).values({ id: `g-${randomUUID()}`, eventId: EVENT, label: 'Erasure game', position: 99 }).returning();
  const [file] = await app.db.insert(footage).values({ eventId: EVENT, gameId: game!.id, camera: 'Camera 1', sourceKey: `game-footage/${EVENT}/${randomUUID()}.source`, sizeBytes: 1, durationSeconds: 60, indexState: 'indexed' }).returning();
  const track = async (startS: number) =>
    (await app.db.insert(faceTracks).values({ footageId: file!.id, startS, endS: startS + 2, bestS: startS, box: { x: 1, y: 1, w: 50, h: 50 }, faceHeight: 50, score: 0.9, quality: 0.5, embeddings: Buffer.alloc(512), thumbnail: Buffer.from('jpeg') }).returning())[0]!;
  const [theirs, someoneElse] = [await track(1), await track(20)];
  const [request] = await app.db.insert(highlightRequests).values({ userId: family.userId, event: 'Austin Fall League', eventId: EVENT, status: 'ready_to_purchase' }).returning();
  await app.db.insert(appearances).values({ requestId: request!.id, footageId: file!.id, gameId: game!.id, camera: 'Camera 1', startS: 0.5, endS: 3.5, confidence: 0.9, distance: 0.3, faceHeight: 50, trackId: theirs.id, trackIds: [theirs.id], rank: 1 });
  const renderId = randomUUID();
  const previewKey = storageKeys.reelPreview(family.userId, renderId);
  await storage.put(previewKey, Buffer.from('preview'), 'video/mp4');
  await app.db.insert(reelRenders).values({ id: renderId, requestId: request!.id, clips: [], state: 'ready', previewKey });
  const [order] = await app.db.insert(orders).values({ userId: family.userId, requestId: request!.id, amount: 4999, status: 'completed', provider: 'local', checkoutUrl: 'http://127.0.0.1/checkout/x', completedAt: new Date() }).returning();
  const video = await insertVideo(app, family.userId, { requestId: request!.id });
  const still = await insertStill(app, family.userId, 0);
  await app.db.insert(homepageSignups).values({ email: family.email.toUpperCase(), firstName: 'Ava', lastName: 'Stone' });
  await app.db.insert(contactMessages).values({ firstName: 'Ava', lastName: 'Stone', email: family.email, subject: 'Hello', message: 'About my reel' });
  await app.db.execute(sql`INSERT INTO verification (id, identifier, value, expires_at) VALUES (${randomUUID()}, ${`reset-password:${randomUUID()}`}, ${family.userId}, now() + interval '1 hour')`);
  await app.db.insert(auditLog).values({ actorId: admin.userId, action: 'impersonation.start', subjectUserId: family.userId });
  return { ...family, keys: [...keys, previewKey, video.key!, still.key], orderId: order!.id, theirs: theirs.id, someoneElse: someoneElse.id, requestId: request!.id };
}

/** Every (table, column) of the database that points at "user"(id): what an erasure must empty. */
async function columnsPointingAtUser(): Promise<Array<{ table: string; column: string }>> {
  const rows = await rowsOf(sql`
    SELECT kcu.table_name AS "table", kcu.column_name AS "column"
    FROM information_schema.referential_constraints rc
    JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = rc.constraint_name AND kcu.constraint_schema = rc.constraint_schema
    JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = rc.unique_constraint_name AND ccu.constraint_schema = rc.unique_constraint_schema
    WHERE ccu.table_name = 'user' AND ccu.column_name = 'id' AND kcu.table_schema = 'public'`);
  return rows.map((r) => ({ table: String(r.table), column: String(r.column) }));
}

/** Every text column of the public tables whose name says it holds an e-mail address. */
async function emailColumns(): Promise<Array<{ table: string; column: string }>> {
  const rows = await rowsOf(sql`SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
    WHERE table_schema = 'public' AND column_name LIKE '%email%' AND data_type = 'text'`);
  return rows.map((r) => ({ table: String(r.table), column: String(r.column) }));
}

/** Proves nothing of the erased family is left anywhere. */
async function expectNothingLeft(family: Awaited<ReturnType<typeof familyWithEverything>>) {
  const pointing = await columnsPointingAtUser();
  // The tables known today; a new one appears here by its foreign key and is checked below.
  expect(pointing.map((p) => p.table)).toEqual(expect.arrayContaining(['session', 'account', 'user_profiles', 'athlete_references', 'highlight_requests', 'user_videos', 'user_stills', 'orders', 'audit_log', 'homepage_signups']));
  for (const { table, column } of pointing) {
    const [row] = await rowsOf(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${family.userId}`);
    expect({ table, column, rows: row!.n }).toEqual({ table, column, rows: 0 });
  }
  for (const { table, column } of await emailColumns()) {
    const [row] = await rowsOf(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE lower(${sql.identifier(column)}) = ${family.email.toLowerCase()}`);
    expect({ table, column, rows: row!.n }).toEqual({ table, column, rows: 0 });
  }
  const [user_] = await rowsOf(sql`SELECT count(*)::int AS n FROM "user" WHERE id = ${family.userId}`);
  expect(user_!.n).toBe(0);
  const [tokens] = await rowsOf(sql`SELECT count(*)::int AS n FROM verification WHERE value = ${family.userId}`);
  expect(tokens!.n).toBe(0);
  // Every storage folder of the user is empty, and each file's URL answers 404 to an admin.
  for (const bucket of USER_BUCKETS) expect({ bucket, keys: await storageOf(app).list(`${bucket}/${family.userId}/`) }).toEqual({ bucket, keys: [] });
  for (const key of family.keys) expect({ key, status: (await app.fetch(`/api/media/${key}`, { cookie: admin.cookie })).status }).toEqual({ key, status: 404 });
  // The face track their clip matched is gone; another child's stays.
  expect(await app.db.select({ id: faceTracks.id }).from(faceTracks).where(eq(faceTracks.id, family.theirs))).toEqual([]);
  expect(await app.db.select({ id: faceTracks.id }).from(faceTracks).where(eq(faceTracks.id, family.someoneElse))).toHaveLength(1);
  // The order stays for accounting, with no one's name, address or checkout link.
  const [order] = await app.db.select().from(orders).where(eq(orders.id, family.orderId));
  expect(order).toMatchObject({ userId: null, requestId: null, amount: 4999, status: 'completed', checkoutUrl: null });
  const adminOrders = (await (await app.fetch('/api/admin/orders', { cookie: admin.cookie })).json()) as { orders: Array<{ id: string; email: string | null; customerName: string | null }> };
  expect(adminOrders.orders.find((o) => o.id === family.orderId)).toMatchObject({ email: null, customerName: null });
  // Signing in answers 401; the users list no longer shows the address.
  const signIn = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email: family.email, password: family.password } });
  expect(signIn.status).toBe(401);
  const list = await (await app.fetch(`/api/admin/users?search=${encodeURIComponent(family.email)}`, { cookie: admin.cookie })).text();
  expect(list).not.toContain(family.email);
  // The session the family had is over.
  expect((await app.fetch('/api/account/me', { cookie: family.cookie })).status).toBe(200);
  expect(await (await app.fetch('/api/account/me', { cookie: family.cookie })).json()).toEqual({ user: null });
}

const close = (cookie: string, body: unknown) => app.fetch('/api/account/close', { method: 'POST', cookie, json: body });

describe('the family closes the account', () => {
  it('refuses a wrong password, a missing tick, a visitor and an admin viewing as the family, and changes nothing', async () => {
    const family = await familyWithEverything('Bea Refused');
    const before = await rowsOf(sql`SELECT count(*)::int AS n FROM "user"`);
    const wrong = await close(family.cookie, { password: 'not-the-password', understood: true });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD', message: CLOSE_ACCOUNT.wrongPassword });
    const unticked = await close(family.cookie, { password: family.password });
    expect(unticked.status).toBe(400);
    expect(await unticked.json()).toMatchObject({ message: CLOSE_ACCOUNT.mustUnderstand });
    expect((await close('', { password: family.password, understood: true })).status).toBe(401);
    const start = await app.fetch('/api/auth/impersonation/start', { method: 'POST', cookie: admin.cookie, json: { userId: family.userId } });
    expect(start.status).toBe(200);
    const viewing = await close(cookiesFrom(start), { password: family.password, understood: true });
    expect(viewing.status).toBe(403);
    expect(await viewing.json()).toMatchObject({ message: CLOSE_ACCOUNT.viewingAs });
    expect(await rowsOf(sql`SELECT count(*)::int AS n FROM "user"`)).toEqual(before);
    expect(await app.db.select({ id: user.id }).from(user).where(eq(user.id, family.userId))).toHaveLength(1);
    for (const key of family.keys) expect(await storageOf(app).stat(key)).not.toBeNull();
  }, 60_000);

  it('with the password and the tick, erases everything at once and mails the address', async () => {
    const family = await familyWithEverything('Cleo Closing');
    const res = await close(family.cookie, { password: family.password, understood: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ erased: true });
    await expectNothingLeft(family);
    const mail = await app.smtp.waitFor(family.email, 'Your account has been erased');
    expect(mail.text).toContain('Your Get It On Tape account has been closed and erased.');
    expect(mail.text).not.toContain('Cleo');
    const [entry] = await app.db.select().from(auditLog).where(sql`${auditLog.details}->>'erasedUserId' = ${family.userId}`);
    expect(entry).toMatchObject({ action: 'account.erase', actorId: null, subjectUserId: null, details: { erasedUserId: family.userId, by: 'self' } });
  }, 60_000);
});

describe('an admin erases an account', () => {
  const erase = (userId: string, confirmEmail: unknown, cookie = admin.cookie) => app.fetch(`/api/admin/users/${userId}/erase`, { method: 'POST', cookie, json: { confirmEmail } });

  it('needs the address typed, refuses an admin account and a family, and changes nothing then', async () => {
    const family = await familyWithEverything('Dana Kept');
    const mismatch = await erase(family.userId, 'someone.else@example.com');
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ code: 'CONFIRMATION_MISMATCH', message: ADMIN.users.erase.mismatch });
    const otherAdmin = await createVerifiedUser(app, { fullName: 'Olga Admin' });
    await makeAdmin(app, otherAdmin.userId);
    const refused = await erase(otherAdmin.userId, otherAdmin.email);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'ADMIN_ACCOUNT', message: ADMIN.users.erase.refusedAdmin });
    const byFamily = await erase(family.userId, family.email, family.cookie);
    expect(byFamily.status).toBe(403);
    expect((await erase(family.userId, family.email, '')).status).toBe(401);
    expect(await app.db.select({ id: user.id }).from(user).where(eq(user.id, family.userId))).toHaveLength(1);
    expect(await app.db.select({ id: user.id }).from(user).where(eq(user.id, otherAdmin.userId))).toHaveLength(1);
  }, 60_000);

  it('with the address typed, erases everything, audited with the admin', async () => {
    const family = await familyWithEverything('Eve Erased');
    const res = await erase(family.userId, ` ${family.email.toUpperCase()} `);
    expect(res.status).toBe(200);
    await expectNothingLeft(family);
    const [entry] = await app.db.select().from(auditLog).where(sql`${auditLog.details}->>'erasedUserId' = ${family.userId}`);
    expect(entry).toMatchObject({ action: 'account.erase', actorId: admin.userId, details: { by: 'admin' } });
    await app.smtp.waitFor(family.email, 'Your account has been erased');
  }, 60_000);
});

describe('the command line and the unconfirmed sweep', () => {
  it('npm run admin -- erase <email> erases the account; an admin is refused', async () => {
    const family = await familyWithEverything('Fay Command');
    expect(await runAdminCommand(app.server.deps, 'erase', family.email)).toMatchObject({ ok: true });
    await expectNothingLeft(family);
    expect(await runAdminCommand(app.server.deps, 'erase', admin.email)).toMatchObject({ ok: false, message: expect.stringContaining('is an admin: revoke first') });
    expect(await runAdminCommand(app.server.deps, 'erase', 'nobody.here@example.com')).toMatchObject({ ok: false, message: 'No account with the email nobody.here@example.com.' });
  }, 60_000);

  it('registrations never confirmed are erased after the days set, without a mail; newer ones and confirmed ones stay', async () => {
    const day = 24 * 3600 * 1000;
    const make = async (email: string, verified: boolean, ageDays: number) => {
      const id = randomUUID();
      await app.db.insert(user).values({ id, name: 'Never Confirmed', email, emailVerified: verified, createdAt: new Date(Date.now() - ageDays * day) });
      return id;
    };
    const staleEmail = `stale.${Date.now()}@example.com`;
    const stale = await make(staleEmail, false, 8);
    const fresh = await make(`fresh.${Date.now()}@example.com`, false, 6);
    const confirmed = await make(`old.${Date.now()}@example.com`, true, 30);
    await storageOf(app).put(storageKeys.profilePhoto(stale), await jpeg(32, 32), 'image/jpeg');
    expect(await eraseUnconfirmedAccounts(app.server.deps, 7)).toBe(1);
    const left = (await app.db.select({ id: user.id }).from(user)).map((u) => u.id);
    expect(left).not.toContain(stale);
    expect(left).toEqual(expect.arrayContaining([fresh, confirmed]));
    expect(await storageOf(app).list(`profile-photos/${stale}/`)).toEqual([]);
    // No mail to the erased address (another test's mail may still be on its way: only this one counts).
    await settle(500);
    expect(app.smtp.mails.filter((m) => m.to.includes(staleEmail))).toEqual([]);
  }, 60_000);
});
