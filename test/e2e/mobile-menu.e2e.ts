import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { NAV } from '../../src/common/messages';
import { expectAccessible } from './a11y';
import { launchBrowser, newPage, shot, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;
beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

it('opens a full-screen menu at 390px that closes on every route change', async () => {
  const { page, errors } = await newPage(browser, 390);
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  await page.goto(product.url, { waitUntil: 'networkidle' });
  // Public pages load only their own code: the dashboard and admin bundles stay on the server.
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => /\/assets\/(dashboard|admin)-/.test(s))).toEqual([]);
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The desktop links are hidden at this width.
  expect(await nav.getByRole('link', { name: NAV.about }).isVisible()).toBe(false);
  await shot(page, 'mobile-01-home');

  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  await menu.waitFor();
  const box = await menu.boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(389);
  await menu.getByRole('link', { name: NAV.login }).waitFor();
  // The page you are on is marked (issue 7, rough edge 10).
  expect(await menu.getByRole('link', { name: NAV.home }).getAttribute('aria-current')).toBe('page');
  expect(await menu.getByRole('link', { name: NAV.about }).getAttribute('aria-current')).toBeNull();
  await shot(page, 'mobile-02-menu-open');
  await expectAccessible(page, 'mobile menu');

  await menu.getByRole('link', { name: NAV.about }).click();
  await page.waitForURL('**/about');
  await menu.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Open menu' }).click();
  expect(await menu.getByRole('link', { name: NAV.about }).getAttribute('aria-current')).toBe('page');
  await menu.getByRole('link', { name: NAV.contact }).click();
  await page.waitForURL('**/contact');
  await menu.waitFor({ state: 'detached' });

  // The toggle closes it too.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('button', { name: 'Close menu' }).click();
  await menu.waitFor({ state: 'detached' });
  await shot(page, 'mobile-03-contact');
  expect(errors).toEqual([]);
});
