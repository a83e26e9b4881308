// Issue 22 in Chromium: a family whose reel was made from the event's footage sees a short,
// watermarked preview of it before paying and can play it, while the full reel answers 404 to
// them; the purchase dialog says the reel unlocks at once and does not put the keyboard up. A
// family whose athlete was not found sees what they can do instead of a purchase button.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ADMIN, FOOTAGE } from '../../src/common/admin-messages';
import { CHECKOUT, DASHBOARD, REEL_STATUS } from '../../src/common/dashboard-messages';
import { footage, highlightRequests, reelRenders, userVideos } from '../../src/server/db/schema';
import { renderPreview } from '../../src/server/reels/preview';
import { storageKeys } from '../../src/server/storage/keys';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, startSeededProduct, type Product } from './support';

let product: Product | undefined;
let browser: Browser;
const EVENT = 'austin-fall-league-2024';
const EVENT_TEXT = 'Austin Fall League (Austin, TX, Oct 18-19)';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  await product?.stop();
  product = undefined;
});
afterAll(async () => {
  await browser?.close();
});

async function shots(page: Page, name: string) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

type Seed = Parameters<typeof startSeededProduct>[1];

/** The event's footage, indexed (the request's reel comes from it). */
const seedFootage: Seed = async ({ db }) => {
  await db.insert(footage).values({ eventId: EVENT, gameId: 'austin-sat-1', camera: 'Camera 1', sourceKey: `game-footage/${EVENT}/seeded.source`, sizeBytes: 1000, indexState: 'indexed' });
};

it('an unpaid family plays the watermarked preview of their reel; the full reel stays 404 to them', async () => {
  const reelKey = { current: '' };
  const previewKey = { current: '' };
  const started = await startSeededProduct('Maya Cruz', async (ctx) => {
    await seedFootage(ctx);
    const { db, storage, userId } = ctx;
    const [request] = await db
      .insert(highlightRequests)
      .values({ userId, status: 'ready_to_purchase', eventId: EVENT, event: EVENT_TEXT, games: ['Saturday Court 1: Austin Elite vs Round Rock Rebels'], matchingState: 'ready' })
      .returning();
    const [render] = await db.insert(reelRenders).values({ requestId: request!.id, clips: [], state: 'ready', progress: 100, finishedAt: new Date() }).returning();
    // The preview as the render job makes it, from a real video.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-preview-'));
    const file = path.join(work, 'preview.mp4');
    await renderPreview({ reel: 'public/hero/desktop.mp4', reelDurationS: 12, hasAudio: false, work, output: file });
    previewKey.current = storageKeys.reelPreview(userId, render!.id);
    await storage.putFile(previewKey.current, file, 'video/mp4', { move: true });
    fs.rmSync(work, { recursive: true, force: true });
    await db.update(reelRenders).set({ previewKey: previewKey.current }).where(eq(reelRenders.id, render!.id));
    // The full reel, rendered and hidden until paid.
    const videoId = '55555555-5555-4555-8555-555555555555';
    reelKey.current = `/api/videos/${videoId}/stream`;
    const key = storageKeys.video(userId, videoId, 'mp4');
    await storage.put(key, fs.readFileSync('public/hero/desktop.mp4'), 'video/mp4');
    await db.insert(userVideos).values({ id: videoId, userId, videoTitle: 'Highlight Reel', videoType: 'highlight_reel', videoUrl: key, isVisible: false, isPaid: false, requestId: request!.id, renderId: render!.id, width: 1280, height: 720 });
  });
  product = started.product;

  const { page, errors } = await newPage(browser);
  await page.goto(started.link);
  await page.waitForURL('**/dashboard');
  const card = page.getByTestId('reel-status');
  await card.waitFor();
  expect(await card.getAttribute('data-state')).toBe('preview');
  await card.getByRole('heading', { name: REEL_STATUS.previewTitle }).waitFor();
  await card.getByText(REEL_STATUS.previewCaption).waitFor();

  // The preview plays: the browser loads it and time moves.
  const video = card.getByTestId('reel-preview');
  expect(await video.getAttribute('aria-label')).toBe(REEL_STATUS.previewLabel('Maya'));
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([640, 360]);
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 2;
  });
  await page.waitForTimeout(500);
  await shots(page, 'reel-preview-01-card');
  await expectAccessible(page, 'dashboard with a reel preview');

  // Same browser, same session: the preview answers, the full reel does not.
  const preview = await page.request.get(`${product.url}/api/media/${previewKey.current}`, { headers: { range: 'bytes=0-99' } });
  expect(preview.status()).toBe(206);
  expect((await page.request.get(`${product.url}${reelKey.current}`)).status()).toBe(404);
  expect(await page.getByText('Highlight Reel', { exact: true }).count()).toBe(0);

  // The purchase dialog: the reel is ready, so no "7-10 business days"; the keyboard stays down.
  await card.getByRole('button', { name: DASHBOARD.purchaseReel }).click();
  const dialog = page.getByRole('dialog', { name: DASHBOARD.purchaseReel });
  await dialog.waitFor();
  expect(await dialog.getByTestId('purchase-note').textContent()).toBe(CHECKOUT.purchaseNoteReady);
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(CHECKOUT.checkout);
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
  await page.waitForTimeout(300);
  await shots(page, 'reel-preview-02-dialog');
  await expectAccessible(page, 'purchase dialog of a rendered reel');
  expect(errors).toEqual([]);
}, 180_000);

it('when the athlete was not found, the family is told what helps instead of being offered a purchase', async () => {
  const started = await startSeededProduct('Noah Park', async (ctx) => {
    await seedFootage(ctx);
    await ctx.db.insert(highlightRequests).values({ userId: ctx.userId, status: 'ready_to_purchase', eventId: EVENT, event: EVENT_TEXT, games: [], matchingState: 'ready' });
  });
  product = started.product;
  const { page, errors } = await newPage(browser);
  await page.goto(started.link);
  await page.waitForURL('**/dashboard');
  const card = page.getByTestId('reel-status');
  await card.waitFor();
  expect(await card.getAttribute('data-state')).toBe('not_found');
  await card.getByText(REEL_STATUS.notFound('Noah')).waitFor();
  await card.getByRole('heading', { name: REEL_STATUS.title('Noah') }).waitFor();
  expect(await page.getByRole('button', { name: DASHBOARD.purchaseReel }).count()).toBe(0);
  expect(await page.getByTestId('open-request').textContent()).toContain('being prepared');
  await shots(page, 'reel-preview-03-not-found');
  await expectAccessible(page, 'dashboard when the athlete was not found');
  // The way to what helps: the face-matching card with its reference photos.
  await card.getByRole('link', { name: REEL_STATUS.addPhotos }).click();
  await expect.poll(() => new URL(page.url()).hash).toBe('#face-matching');
  // Scrolled into view (it is the page's last card, so it may stop short of the top).
  await expect.poll(() => page.getByTestId('face-matching').evaluate((el) => el.getBoundingClientRect().top < window.innerHeight / 2 && el.getBoundingClientRect().bottom > 0)).toBe(true);

  // The team sees it before anyone is asked to pay: on the users list and on the review.
  await grantAdmin(product, started.email, { page, password: 'secret123' });
  await page.goto(`${product.url}/admin/users`);
  const badge = page.getByTestId('request-nothing-found');
  await badge.waitFor();
  expect(await badge.textContent()).toBe(ADMIN.requestButtons.nothingFound);
  await shots(page, 'reel-preview-04-admin-users');
  await badge.click();
  await page.waitForURL('**/admin/requests/**');
  await page.getByTestId('nothing-found').getByText(FOOTAGE.nothingFoundWarning).waitFor();
  await shots(page, 'reel-preview-05-admin-review');
  expect(errors).toEqual([]);
}, 180_000);
