// The provider's admin (issue 22) in a real browser: damaged footage says so plainly on the footage
// screen and can be re-indexed; a game's cameras get distinct names, the next free one suggested
// from the server's list after a reload too; on the users list an approved request from footage
// leads to Review clips and its reel's state, Reels Delivered asks first, and a delivered, paid
// request says Delivered. Screenshots at 1280px and 390px; every screen through the accessibility gate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, FOOTAGE, REVIEW } from '../../src/common/admin-messages';
import { footage, highlightRequests, orders, reelRenders } from '../../src/server/db/schema';
import { makeDamagedFootage, type DamagedFootage } from '../support/damaged-footage';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, startSeededProduct, type Product } from './support';

let browser: Browser;
let files: DamagedFootage;
const products: Product[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-provider-'));

beforeAll(async () => {
  browser = await launchBrowser();
  files = makeDamagedFootage(tmp);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const p of products) await p.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function adminPage(product: Product, width = 1280): Promise<{ page: Page; errors: string[] }> {
  const admin = await signUpByApi(product, 'Casey Coach');
  const { page, errors } = await newPage(browser, width);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page, password: 'secret123' });
  return { page, errors };
}

it('damaged footage says so plainly and can be re-indexed; camera names are distinct, the next free one suggested', async () => {
  const product = await startProduct();
  products.push(product);
  const { page, errors } = await adminPage(product);
  await page.goto(`${product.url}/admin/footage`);
  await page.getByRole('heading', { name: FOOTAGE.title }).waitFor({ timeout: 60_000 }).catch(async (e: Error) => {
    await shot(page, 'provider-00-footage-not-shown');
    throw new Error(`${e.message} at ${page.url()} ${errors.join(' ')}`);
  });
  await page.getByLabel(FOOTAGE.event).selectOption({ label: 'Austin Fall League' });
  await page.getByLabel(FOOTAGE.gameName).fill('Game 7 vs Hornets');
  await page.getByRole('button', { name: FOOTAGE.addGame }).click();
  const game = page.getByTestId('game-card').filter({ hasText: 'Game 7 vs Hornets' });
  const camera = game.getByRole('textbox', { name: FOOTAGE.camera, exact: true });
  const rows = game.getByTestId('footage-row');

  // The first camera, as suggested.
  await expect.poll(() => camera.inputValue()).toBe('Camera 1');
  await game.getByLabel(FOOTAGE.file).setInputFiles(files.intact);
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  await rows.filter({ hasText: 'Camera 1' }).waitFor();
  await expect.poll(() => camera.inputValue()).toBe('Camera 2');
  // The suggestion comes from the server's list: the same after a reload.
  await page.reload();
  await page.getByLabel(FOOTAGE.event).selectOption({ label: 'Austin Fall League' });
  // A game whose cameras are all indexed opens closed: its header opens it.
  const header = game.getByRole('button', { name: /^Game 7 vs Hornets/ });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  await rows.filter({ hasText: 'Camera 1' }).waitFor();
  await expect.poll(() => camera.inputValue()).toBe('Camera 2');

  // A name the game has already is refused, with the next free one named.
  await camera.fill('camera 1');
  await game.getByLabel(FOOTAGE.file).setInputFiles(files.intact);
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  await page.getByText(FOOTAGE.cameraTaken('Camera 1', 'Camera 2')).waitFor();
  expect(await rows.count()).toBe(1);

  // A file cut off half-way: refused at once as damaged.
  await camera.fill('Camera 2');
  await game.getByLabel(FOOTAGE.file).setInputFiles(files.cutOff);
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  await page.getByText(FOOTAGE.damaged, { exact: true }).first().waitFor();
  expect(await rows.count()).toBe(1);

  // A file whose media data is half missing: uploaded, then failed for good, said plainly.
  await game.getByLabel(FOOTAGE.file).setInputFiles(files.mediaMissing);
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  const broken = rows.filter({ hasText: 'Camera 2' });
  await broken.getByTestId('index-state').filter({ hasText: FOOTAGE.states.failed }).waitFor({ timeout: 30_000 });
  await broken.getByText(FOOTAGE.damaged, { exact: true }).waitFor();
  expect(await broken.textContent()).not.toMatch(/ffmpeg|ffprobe|\/tmp|exited|Error:/);
  // No place on the game's clock for a file that cannot be read.
  expect(await broken.getByTestId('camera-offset').count()).toBe(0);
  const reindex = broken.getByRole('button', { name: FOOTAGE.reindex });
  expect(await reindex.isEnabled()).toBe(true);
  await broken.scrollIntoViewIfNeeded();
  await shot(page, 'provider-01-damaged-footage-1280');
  await expectAccessible(page, 'footage screen with a damaged file');
  // Re-index runs it again: still damaged, it fails again with the same words.
  await reindex.click();
  await page.getByText(FOOTAGE.reindexStarted).waitFor();
  await broken.getByTestId('index-state').filter({ hasText: FOOTAGE.states.failed }).waitFor({ timeout: 30_000 });
  await broken.getByText(FOOTAGE.damaged, { exact: true }).waitFor();
  // A damaged file's name is free again: suggested for the upload that replaces it.
  await expect.poll(() => camera.inputValue()).toBe('Camera 2');

  // The same screen on a phone.
  const phone = await newPage(browser, 390);
  await phone.context.addCookies(await page.context().cookies());
  await phone.page.goto(`${product.url}/admin/footage`);
  await phone.page.getByLabel(FOOTAGE.event).selectOption({ label: 'Austin Fall League' });
  const phoneRow = phone.page.getByTestId('footage-row').filter({ hasText: 'Camera 2' });
  await phoneRow.getByText(FOOTAGE.damaged, { exact: true }).waitFor();
  await phoneRow.scrollIntoViewIfNeeded();
  await shot(phone.page, 'provider-02-damaged-footage-390');
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(phone.page, 'footage screen with a damaged file, phone');
  await phone.context.close();

  // Listed under the failed jobs while it fails.
  const failed = await page.request.get(`${product.url}/api/admin/jobs/failed`);
  expect((await failed.json()) as Array<{ name: string; error: string }>).toContainEqual(expect.objectContaining({ name: 'faces.index-footage', error: FOOTAGE.damaged }));
  expect(errors.filter((e) => !/status of (422|415)/.test(e))).toEqual([]);
}, 240_000);

it('users list: an approved request from footage leads to Review clips, Reels Delivered asks first, a delivered paid request says Delivered', async () => {
  const seeded = await startSeededProduct('Fay Filmed', async ({ db, userId }) => {
    await db.insert(footage).values({ eventId: 'austin-fall-league-2024', gameId: 'austin-sat-1', camera: 'Camera 1', sourceKey: 'game-footage/austin-fall-league-2024/x.source', sizeBytes: 1, indexState: 'indexed' });
    const [request] = await db.insert(highlightRequests).values({ userId, event: 'Austin Fall League', eventId: 'austin-fall-league-2024', status: 'ready_to_purchase', adminAcknowledgedAt: new Date() }).returning();
    await db.insert(reelRenders).values({ requestId: request!.id, state: 'ready', clips: [] });
    await db.insert(orders).values({ userId, requestId: request!.id, amount: 4900, status: 'completed', provider: 'local', completedAt: new Date() });
  });
  products.push(seeded.product);
  const product = seeded.product;
  for (const width of [1280, 390]) {
    const { page, errors } = width === 1280 ? await adminPage(product) : await adminPage(product, 390);
    await page.goto(`${product.url}/admin/users`);
    await page.getByPlaceholder(ADMIN.users.searchPlaceholder).fill('Filmed');
    const card = page.getByTestId('user-card').filter({ hasText: 'Fay Filmed' });
    await card.waitFor();
    if (width === 1280) {
      // The main action is the review, beside the reel's state; Reels Delivered is secondary.
      await card.getByRole('link', { name: REVIEW.link }).waitFor();
      await card.getByTestId('request-work').getByText(ADMIN.requestButtons.work.ready!).waitFor();
      await card.getByTestId('request-paid').waitFor();
      await shot(page, 'provider-03-users-approved-1280');
      await expectAccessible(page, 'users list with an approved request from footage');
      await card.getByRole('button', { name: ADMIN.requestButtons.delivered }).click();
      const dialog = page.getByRole('dialog', { name: ADMIN.requestButtons.deliverConfirm.title });
      await dialog.getByText(ADMIN.requestButtons.deliverConfirm.body).waitFor();
      await shot(page, 'provider-04-deliver-confirm-1280');
      await expectAccessible(page, 'mark delivered dialog');
      // Cancel changes nothing.
      await dialog.getByRole('button', { name: ADMIN.requestButtons.deliverConfirm.cancel }).click();
      await dialog.waitFor({ state: 'detached' });
      await card.getByRole('link', { name: REVIEW.link }).waitFor();
      await card.getByRole('button', { name: ADMIN.requestButtons.delivered }).click();
      await dialog.getByRole('button', { name: ADMIN.requestButtons.deliverConfirm.confirm }).click();
      await page.getByText(ADMIN.requestToasts.delivered.description).waitFor();
    }
    // Delivered and paid: Delivered, not No Request; the Delivered filter lists it.
    await card.getByTestId('request-delivered').getByText(ADMIN.requestButtons.deliveredState).waitFor();
    expect(await card.getByRole('button', { name: ADMIN.requestButtons.none }).count()).toBe(0);
    await page.getByRole('button', { name: ADMIN.users.filters.delivered, exact: true }).first().click();
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await shot(page, `provider-05-users-delivered-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAccessible(page, `users list with a delivered request, ${width}px`);
    expect(errors).toEqual([]);
    await page.context().close();
  }
}, 240_000);
