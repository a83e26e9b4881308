// Sharing a delivered reel with relatives (issue 34, item 2), in a real browser on `npm start`:
// the family makes a link on a phone (7 days, photos ticked) and copies it; a grandparent opens it
// signed out on a phone and watches the reel, the vertical cut and the photos; the family sees it
// was opened and turns it off; the link then says so, as an expired one does. Screenshots at 390
// and 1280px; every screen through the accessibility gate.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SHARE, SHARED_PAGE } from '../../src/common/dashboard-messages';
import { FAMILY } from '../../src/common/family-messages';
import { highlightRequests, orders, shareLinks, user, userProfiles, userStills, userVideos } from '../../src/server/db/schema';
import { expectAccessible } from './a11y';
import { launchBrowser, newPage, shot, startSeededProduct, type Product } from './support';

let product: Product;
let browser: Browser;
/** A link made 40 days ago for 30 days: expired. */
const expiredToken = randomBytes(32).toString('hex');

beforeAll(async () => {
  browser = await launchBrowser();
  const started = await startSeededProduct('Maya Brooks', async ({ db, storage, userId }) => {
    await db
      .update(userProfiles)
      .set({ firstName: 'Maya', lastName: 'Brooks', holderName: 'Dana Brooks', dateOfBirth: '2011-04-02', guardianConsentAt: new Date(), teamName: 'Lakeside 15U', jerseyNumber: 23 })
      .where(eq(userProfiles.id, userId));
    // Her younger brother, added to the family (decision 0036): the dashboard's switcher shows both.
    const eli = '66666666-6666-4666-8666-666666666666';
    await db.insert(user).values({ id: eli, name: 'Eli Brooks', email: `athlete-${eli}@family.invalid`, emailVerified: true });
    const [{ email } = { email: '' }] = await db.select({ email: userProfiles.email }).from(userProfiles).where(eq(userProfiles.id, userId));
    await db.update(userProfiles).set({ familyId: userId, email, firstName: 'Eli', lastName: 'Brooks' }).where(eq(userProfiles.id, eli));
    const [request] = await db
      .insert(highlightRequests)
      .values({ userId, status: 'delivered', eventId: 'chicago-3v3-2024', event: 'Chicago 3v3 (Chicago, IL, Nov 9)', games: [] })
      .returning();
    await db.insert(orders).values({ provider: 'local', userId, requestId: request!.id, amount: 15000, status: 'completed', completedAt: new Date() });
    const reel = '44444444-4444-4444-8444-444444444444';
    const social = '55555555-5555-4555-8555-555555555555';
    await storage.put(`user-videos/${userId}/${reel}.mp4`, fs.readFileSync('public/hero/desktop.mp4'), 'video/mp4');
    await storage.put(`user-videos/${userId}/${social}.mp4`, fs.readFileSync('public/hero/mobile.mp4'), 'video/mp4');
    await db.insert(userVideos).values([
      { id: reel, userId, requestId: request!.id, videoType: 'highlight_reel', videoTitle: 'Chicago 3v3 Highlights', videoUrl: `user-videos/${userId}/${reel}.mp4`, isVisible: true, isPaid: true, width: 1280, height: 720 },
      { id: social, userId, requestId: request!.id, videoType: 'social_cut', videoTitle: 'Chicago 3v3 (vertical)', videoUrl: `user-videos/${userId}/${social}.mp4`, isVisible: true, isPaid: true, width: 720, height: 1280 },
    ]);
    for (const [i, file] of ['public/about/cover.jpg', 'public/hero/desktop.jpg'].entries()) {
      const key = `user-stills/${userId}/still-share-${i}.jpg`;
      await storage.put(key, fs.readFileSync(file), 'image/jpeg');
      await db.insert(userStills).values({ userId, storageUrl: key, orderPosition: i, requestId: request!.id });
    }
    const day = 24 * 3600 * 1000;
    await db.insert(shareLinks).values({
      userId,
      requestId: request!.id,
      tokenHash: createHash('sha256').update(expiredToken).digest('hex'),
      expiresAt: new Date(Date.now() - 10 * day),
      createdAt: new Date(Date.now() - 40 * day),
    });
  });
  product = started.product;
  const family = await newPage(browser, 390);
  await family.page.goto(started.link);
  await family.page.waitForURL('**/dashboard');
  familyPage = family;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

let familyPage: Awaited<ReturnType<typeof newPage>>;

/** A frame of each video rather than a spinner, as a family sees them once loaded (the README's pictures). */
async function showFrames(page: Page) {
  await page.locator('video').evaluateAll((list) =>
    Promise.all(
      (list as HTMLVideoElement[]).map(async (v) => {
        if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
        v.currentTime = 3;
        await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
      }),
    ),
  );
  await page.waitForTimeout(500);
}

it('a family shares a delivered reel; a relative watches it signed out on a phone; turned off, and expired, it says so', async () => {
  const { page, errors } = familyPage;
  const card = page.getByTestId('share-card');
  await card.waitFor();
  await page.getByRole('navigation', { name: FAMILY.switcherLabel }).getByRole('button', { name: 'Eli' }).waitFor();

  // The expired link of the seed is listed as such.
  await card.getByTestId('share-link').filter({ hasText: /Expired on/ }).waitFor();
  await card.getByLabel(SHARE.validFor).selectOption('7');
  await card.getByLabel(SHARE.includePhotos).check();
  await card.getByRole('button', { name: SHARE.make }).click();
  await card.getByText(SHARE.created).waitFor();
  const url = await card.getByTestId('share-url').inputValue();
  expect(url).toMatch(new RegExp(`^${product.url}/share/[0-9a-f]{64}$`));
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'share-01-link-made-390');
  // The same dashboard on a laptop (the README's picture).
  const laptop = await newPage(browser, 1280);
  await laptop.context.addCookies(await page.context().cookies());
  await laptop.page.goto(`${product.url}/dashboard`);
  await laptop.page.getByTestId('share-card').waitFor();
  await showFrames(laptop.page);
  await shot(laptop.page, 'share-00-dashboard-1280');
  await laptop.page.setViewportSize({ width: 390, height: 844 });
  await showFrames(laptop.page);
  await shot(laptop.page, 'share-00-dashboard-390');
  await laptop.page.setViewportSize({ width: 1280, height: 800 });
  await expectAccessible(laptop.page, 'dashboard with a delivered reel to share');
  expect(laptop.errors).toEqual([]);
  await laptop.context.close();
  await expectAccessible(page, 'dashboard with a share link made, phone');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A grandparent's phone: no account, no cookie.
  const relative = await newPage(browser, 390);
  await relative.page.goto(url);
  await relative.page.getByRole('heading', { name: SHARED_PAGE.title('Maya') }).waitFor();
  expect(await relative.page.content()).not.toContain('Brooks');
  const videos = relative.page.locator('video');
  expect(await videos.count()).toBe(2);
  // The reel really plays from the link's own address.
  await expect.poll(() => videos.first().evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await expect.poll(() => videos.nth(1).evaluate((v: HTMLVideoElement) => v.videoHeight > v.videoWidth), { timeout: 15_000 }).toBe(true);
  expect(await relative.page.locator('img').count()).toBe(2);
  expect(await relative.page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex,nofollow');
  await shot(relative.page, 'share-02-watched-signed-out-390');
  await expectAccessible(relative.page, 'shared reel, phone');
  expect(await relative.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const wide = await newPage(browser, 1280);
  await wide.page.goto(url);
  await wide.page.getByRole('heading', { name: SHARED_PAGE.title('Maya') }).waitFor();
  await shot(wide.page, 'share-03-watched-signed-out-1280');

  // The family sees it was opened (twice: phone and laptop), and turns it off.
  await page.reload();
  const made = card.getByTestId('share-link').filter({ hasText: SHARE.withPhotos });
  await made.getByTestId('share-opened').getByText(SHARE.opened(2)).waitFor();
  await made.getByRole('button', { name: SHARE.revoke }).click();
  await page.getByText(SHARE.revokedToast.title).first().waitFor();
  await made.getByText(SHARE.revoked).waitFor();

  await relative.page.reload();
  await relative.page.getByRole('heading', { name: SHARED_PAGE.revokedTitle }).waitFor();
  await relative.page.getByText(SHARED_PAGE.revoked).waitFor();
  await shot(relative.page, 'share-04-turned-off-390');
  await expectAccessible(relative.page, 'turned-off share link, phone');
  await relative.page.goto(`${product.url}/share/${expiredToken}`);
  await relative.page.getByRole('heading', { name: SHARED_PAGE.expiredTitle }).waitFor();
  await relative.page.getByText(SHARED_PAGE.expired).waitFor();
  expect(errors).toEqual([]);
  // The turned-off and expired pages answer 410, which the browser reports; nothing else failed.
  expect(relative.errors.filter((e) => !/status of 410/.test(e))).toEqual([]);
  expect(wide.errors).toEqual([]);
}, 120_000);
