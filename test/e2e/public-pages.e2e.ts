// The public pages as a phone meets them: prerendered HTML with its own title, hydrated without
// a mismatch, within the JavaScript budget (bench/page-weight.ts measures the same way); and a
// rate-limited sign-in that says how long to wait, from the server's Retry-After.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { measurePageWeight, PUBLIC_PAGES } from '../../bench/page-weight';
import { launchBrowser, newPage, shot, startProduct, type Product } from './support';
import { expectAccessible } from './a11y';
import { PRICES } from '../../src/common/prices';

let product: Product;
let browser: Browser;
beforeAll(async () => {
  // Sign-in allows 2 tries per address here, so the limit is reached at once.
  product = await startProduct({ RATE_LIMIT_SCALE: '0.1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The budget of issue 7: JavaScript before the first interaction, gzip. */
const JS_BUDGET = 100 * 1024;

it.each(PUBLIC_PAGES)('%s arrives prerendered, hydrates cleanly and stays within the JavaScript budget', async (path) => {
  const html = await (await fetch(`${product.url}${path}`)).text();
  // The page's words are in the HTML itself, before any script runs.
  expect(html).toMatch(/<div id="root">(<!--\$-->)?<div class="flex min-h-dvh/);
  expect(html).toMatch(/<title>[^<]*Get It On Tape[^<]*<\/title>/);
  const { page, errors } = await newPage(browser, 390);
  await page.goto(`${product.url}${path}`, { waitUntil: 'networkidle' });
  // Hydrated: the menu button works.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('#mobile-menu').waitFor();
  expect(errors).toEqual([]);
  await page.context().close();

  const weight = await measurePageWeight(browser, product.url, path);
  expect(weight.js, `${path}: ${(weight.js / 1024).toFixed(1)} KB of JavaScript`).toBeLessThanOrEqual(JS_BUDGET);
  // Only the Latin font files.
  expect(weight.files.filter((f) => f.kind === 'font').every((f) => /latin-/.test(f.url) && !/latin-ext/.test(f.url))).toBe(true);
});

it('the home page says what a reel costs before anything is asked, in its prerendered HTML', async () => {
  const html = await (await fetch(`${product.url}/`)).text();
  expect(html).toContain(PRICES.home);
});

it('a focused field does not look like a field with an error (issue 34, item 7)', async () => {
  const { page } = await newPage(browser);
  await page.goto(`${product.url}/auth`);
  const email = page.getByLabel('Email');
  const borderOf = () => email.evaluate((el) => getComputedStyle(el).borderTopColor);
  const idle = await borderOf();
  await email.focus();
  const focused = await borderOf();
  await shot(page, 'auth-focused-field');
  // An empty sign-in marks the field with its error.
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.locator('input[aria-invalid="true"]').first().waitFor();
  expect(await email.getAttribute('aria-invalid')).toBe('true');
  await email.focus();
  const errorFocused = await borderOf();
  await shot(page, 'auth-focused-field-with-error');
  await page.getByLabel('Password').focus();
  const error = await borderOf();
  expect(focused).not.toBe(idle);
  expect(focused).not.toBe(error);
  expect(errorFocused).toBe(error);
  await page.context().close();
});

it('a rate-limited sign-in says how long to wait', async () => {
  const { page } = await newPage(browser);
  await page.goto(`${product.url}/auth`);
  await page.getByLabel('Password').fill('wrong-pass');
  // Three addresses from one browser: the third passes the address's limit (2 at this scale),
  // whose window is 5 minutes. One address three times would meet its own 15-minute rule first.
  // Each click waits for its answer, so none is swallowed while the last is on its way.
  for (let i = 0; i < 3; i++) {
    await page.getByLabel('Email').fill(`someone${i}@example.com`);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/sign-in/email') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'SIGN IN' }).click(),
    ]);
  }
  // The toast says the real wait, not "a minute".
  const toast = page.getByText(/Too many attempts\. Please wait 5 minutes and try again\./);
  await toast.waitFor();
  // The toast has slid down to its place (its text about 66 px from the top) before the picture is taken.
  await expect.poll(async () => (await toast.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(56);
  await shot(page, 'auth-rate-limited');
  await expectAccessible(page, 'sign in with a rate-limit toast');
});
