// Buying a reel end to end in Chromium with the built-in test checkout (issue 9): an approved
// request, Purchase Your Reel, a promo code, the checkout page, a declined card, a test card, and
// back on the dashboard with the order confirmed by the checkout's signed callback, the video
// unlocked and downloadable, and the receipt in the outbox. The cancel path too.
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ORDER_FILTERS, REFUNDS } from '../../src/common/admin-messages';
import { CHECKOUT, DASHBOARD, PROMO } from '../../src/common/dashboard-messages';
import { highlightRequests, orders, promoCodes, user, userVideos } from '../../src/server/db/schema';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, mailLink, newPage, shot, signUpByApi, startSeededProduct, type Product } from './support';

let product: Product;
let browser: Browser;
/** The family's signed-in page, kept for the refund that follows the purchase. */
let familyPage: Page | undefined;

/** What the admin would have done: approved the request and uploaded a Not Yet Paid reel for it. */
const seed: Parameters<typeof startSeededProduct>[1] = async ({ db, storage, userId }) => {
  const [request] = await db
    .insert(highlightRequests)
    .values({ userId, status: 'ready_to_purchase', eventId: 'chicago-3v3-2024', event: 'Chicago 3v3 (Chicago, IL, Nov 9)', games: [] })
    .returning();
  const videoId = '44444444-4444-4444-8444-444444444444';
  const key = `user-videos/${userId}/${videoId}.mp4`;
  await storage.put(key, fs.readFileSync('public/hero/desktop.mp4'), 'video/mp4');
  await db.insert(userVideos).values({
    id: videoId,
    userId,
    videoTitle: 'Chicago Highlight Reel',
    videoUrl: key,
    isVisible: false,
    isPaid: false,
    requestId: request!.id,
    width: 1280,
    height: 720,
  });
  await db.insert(promoCodes).values({ code: 'SPRING20', discountPercent: 20 });
  // A code for one use only, already used by another family's paid order.
  await db.insert(promoCodes).values({ code: 'ONCE50', discountPercent: 50, maxUses: 1 });
  await db.insert(user).values({ id: 'promo-once-user', name: 'Una Once', email: 'una.once@example.com', emailVerified: true });
  await db.insert(orders).values({ provider: 'local', userId: 'promo-once-user', amount: 7500, discountCents: 7500, status: 'completed', promoCode: 'ONCE50' });
};

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** Screenshots at 1280 px and at a 390 px phone width. */
async function shots(page: Page, name: string) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

it('buys a reel with a promo code and the test checkout; a declined card and a cancelled checkout change nothing', async () => {
  const started = await startSeededProduct('Jordan Lee', seed);
  product = started.product;
  const { email, link } = started;

  const { page, errors } = await newPage(browser);
  await page.goto(link);
  await page.waitForURL('**/dashboard');
  const reels = page.locator('section', { has: page.getByRole('heading', { name: DASHBOARD.cards.reels }) });
  await reels.waitFor();
  expect(await reels.getByText('Chicago Highlight Reel').count()).toBe(0);

  // Checkout, then back out on the provider's page: "Checkout Cancelled", nothing paid.
  await page.getByRole('button', { name: DASHBOARD.purchaseReel }).click();
  let dialog = page.getByRole('dialog', { name: DASHBOARD.purchaseReel });
  expect(await dialog.getByTestId('price').textContent()).toBe('$150.00');
  await dialog.getByRole('button', { name: CHECKOUT.checkout }).click();
  await page.waitForURL(/\/checkout\/local\/cs_local_/);
  await page.getByRole('link', { name: /Cancel and return/ }).click();
  await page.waitForURL('**/dashboard');
  await page.getByText(CHECKOUT.cancel.title).waitFor();
  await page.getByText(CHECKOUT.cancel.description).waitFor();
  await expect.poll(() => new URL(page.url()).search).toBe('');
  expect(await page.getByTestId('order-summary').count()).toBe(0);
  expect(await reels.getByText('Chicago Highlight Reel').count()).toBe(0);

  // The dialog: a code used as often as it may be is refused with its own words.
  await page.getByRole('button', { name: DASHBOARD.purchaseReel }).click();
  dialog = page.getByRole('dialog', { name: DASHBOARD.purchaseReel });
  await dialog.getByLabel('Promo code').fill('once50');
  await dialog.getByRole('button', { name: PROMO.apply }).click();
  await page.getByText(PROMO.used_up.description).first().waitFor();
  expect(await dialog.getByTestId('price').textContent()).toBe('$150.00');
  // The check's answer for a code that does not apply is a 404, which the browser logs: that one is expected.
  const refusedCheck = errors.findIndex((e) => e.includes('status of 404'));
  expect(refusedCheck).toBeGreaterThanOrEqual(0);
  errors.splice(refusedCheck, 1);
  // Then a promo code typed in another case.
  await dialog.getByLabel('Promo code').fill('spring20');
  await dialog.getByRole('button', { name: PROMO.apply }).click();
  await page.getByText(PROMO.applied('$30.00', 20)).first().waitFor();
  expect(await dialog.getByTestId('price').textContent()).toBe('Now $120.00');
  expect(await dialog.getByTestId('list-price').textContent()).toBe('Was $150.00');
  await dialog.getByTestId('saving').waitFor();
  await page.waitForTimeout(300);
  await shots(page, 'purchase-01-dialog');
  await expectAccessible(page, 'purchase dialog with a promo code');
  // Typing again resets the applied code.
  await dialog.getByLabel('Promo code').fill('spring2');
  expect(await dialog.getByTestId('price').textContent()).toBe('$150.00');
  await dialog.getByLabel('Promo code').fill('SPRING20');
  await dialog.getByRole('button', { name: PROMO.apply }).click();
  await expect.poll(() => dialog.getByTestId('price').textContent()).toBe('Now $120.00');
  await dialog.getByRole('button', { name: CHECKOUT.checkout }).click();

  // The test checkout's page.
  await page.waitForURL(/\/checkout\/local\/cs_local_[a-f0-9]+$/);
  await page.getByText('$120.00').first().waitFor();
  await page.getByText('TEST MODE', { exact: false }).waitFor();
  await shots(page, 'purchase-02-checkout');
  await expectAccessible(page, 'test checkout');

  // The declined card: the page says so, and stays.
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on card').fill('Jordan Lee');
  await page.getByRole('button', { name: 'Pay $120.00' }).click();
  await page.getByRole('alert').getByText('Your card was declined. Try a different card.').waitFor();
  await shots(page, 'purchase-03-declined');
  await expectAccessible(page, 'test checkout with a declined card');
  // Every field keeps what was typed: only the number changes for another card.
  expect(await page.getByLabel('Card number').inputValue()).toBe('4000 0000 0000 0002');
  expect(await page.getByLabel('Expiration (MM / YY)').inputValue()).toBe('12 / 34');
  expect(await page.getByLabel('Security code (CVC)').inputValue()).toBe('123');
  expect(await page.getByLabel('Name on card').inputValue()).toBe('Jordan Lee');

  // The test card: back on the dashboard; the order is confirmed by the callback.
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $120.00' }).click();
  await page.waitForURL('**/dashboard**');
  await page.getByText(CHECKOUT.success.title).waitFor();
  await page.getByText(CHECKOUT.success.description).waitFor();
  const summary = page.getByTestId('order-summary');
  await expect.poll(() => summary.getAttribute('data-status')).toBe('completed');
  expect(await summary.getByTestId('order-total').textContent()).toBe('$120.00');
  await summary.getByText(CHECKOUT.order.testPayment).waitFor();
  await expect.poll(() => new URL(page.url()).search).toBe('');

  // The reel is unlocked, plays and downloads; the purchase button has become the paid note.
  await reels.getByText('Chicago Highlight Reel').waitFor();
  await page.getByTestId('reel-paid').waitFor();
  expect(await page.getByRole('button', { name: DASHBOARD.purchaseReel }).count()).toBe(0);
  await page.waitForTimeout(500);
  await shots(page, 'purchase-04-paid-dashboard');
  await expectAccessible(page, 'dashboard after payment');
  const [download] = await Promise.all([page.waitForEvent('download'), reels.getByRole('button', { name: 'Download' }).first().click()]);
  expect(download.suggestedFilename()).toBe('Jordan Lee – Chicago 3v3 (Chicago, IL, Nov 9) – Highlight Reel.mp4');

  // The receipt is in the outbox, with a link back to the dashboard.
  expect(await mailLink(product, email, 'order is confirmed')).toBe(`${product.url}/dashboard`);

  expect(errors).toEqual([]);
  familyPage = page;
  familyEmail = email;
});
let familyEmail = '';

it('the admin finds the order and refunds it in full through the test checkout; the family sees the reel locked again', async () => {
  expect(familyPage).toBeDefined();
  const admin = await signUpByApi(product, 'Rhea Refund');
  const { page, errors } = await newPage(browser, 1280);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page, password: 'secret123' });

  // Found by the family's name; the totals count the paid orders of the search.
  await page.goto(`${product.url}/admin/orders`);
  const cards = page.getByTestId('order-card');
  await expect.poll(() => cards.count()).toBe(2);
  await page.getByLabel(ORDER_FILTERS.search).fill('jordan');
  await expect.poll(() => cards.count()).toBe(1);
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('jordan');
  const totals = page.getByTestId('order-totals');
  await totals.getByText('$120.00').first().waitFor();
  await shot(page, 'orders-01-search-1280');
  await expectAccessible(page, 'orders searched');

  // More than was paid is refused in the dialog; the whole amount is asked.
  await cards.getByRole('button', { name: /^Refund/ }).click();
  const dialog = page.getByRole('dialog', { name: REFUNDS.dialogTitle });
  expect(await dialog.getByLabel(REFUNDS.amount).inputValue()).toBe('120.00');
  await dialog.getByText(REFUNDS.whole).waitFor();
  await dialog.getByLabel(REFUNDS.amount).fill('500');
  await dialog.getByRole('button', { name: REFUNDS.confirm('$500.00') }).click();
  await dialog.getByText(REFUNDS.tooMuch(12000)).waitFor();
  await dialog.getByLabel(REFUNDS.amount).fill('120');
  await dialog.getByLabel(REFUNDS.reason).fill('Camera 2 missed the second half');
  await shots(page, 'orders-02-refund-dialog');
  await expectAccessible(page, 'refund dialog');
  await dialog.getByRole('button', { name: REFUNDS.confirm('$120.00') }).click();
  await page.getByText(REFUNDS.asked.title).first().waitFor();

  // The test checkout's callback confirms it: the order reads refunded, with its refund.
  await cards.getByText('refunded', { exact: true }).waitFor({ timeout: 20_000 });
  await cards.getByTestId('order-refund').getByText(/Refund \$120\.00 · refunded/).waitFor();
  await cards.getByText('Camera 2 missed the second half', { exact: false }).waitFor();
  expect(await cards.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
  await page.waitForTimeout(300);
  await shots(page, 'orders-03-refunded');

  // The CSV file of the search says so too.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: ORDER_FILTERS.download }).click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[1]).toMatch(/,refunded,Jordan Lee,.*,120\.00,30\.00,SPRING20,120\.00,local,pi_local_/);
  expect(errors).toEqual([]);

  // The family: told by e-mail, and the reel is locked again with the refund said, to buy again.
  expect(await mailLink(product, familyEmail, 'Your refund of $120.00')).toBe(`${product.url}/dashboard`);
  const family = familyPage!;
  await family.reload();
  await family.getByTestId('reel-refunded').getByText(CHECKOUT.refunded('$120.00', '', true).split(' on ')[0]!, { exact: false }).waitFor();
  await family.getByRole('button', { name: DASHBOARD.purchaseReel }).waitFor();
  const reels = family.locator('section', { has: family.getByRole('heading', { name: DASHBOARD.cards.reels }) });
  expect(await reels.getByText('Chicago Highlight Reel').count()).toBe(0);
  await family.waitForTimeout(300);
  await shots(family, 'purchase-05-refunded-dashboard');
});
