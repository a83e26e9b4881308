// A parent signing up (issue 22, item 6), in a real browser against the built product:
// "SIGN UP TODAY" opens Create Account; the registration offers the events the provider runs,
// then "Other"; a photo over the headshot limit is scaled down in the browser and becomes the
// profile photo; no connection light on the forms; a confirmation link opened again says the
// address is already confirmed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HEADSHOT_MAX_BYTES, HEADSHOT_SHRINK, OTHER_EVENT } from '../../src/common/constants';
import { BRAND, CONNECTION_STATUS, EMAIL_ALREADY_CONFIRMED, EMAIL_CONFIRMED, FIELD_ERRORS, LABELS, VERIFY_EMAIL } from '../../src/common/messages';
import { PARENTAL_CONSENT } from '../../src/common/parental-consent-messages';
import { FACE_MATCHING } from '../../src/common/dashboard-messages';
import { expectAccessible } from './a11y';
import { launchBrowser, mailLink, newPage, shot, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;
let work: string;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-parent-sign-up-'));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A PNG of random pixels (they do not compress), so its size is about width × height × 3 bytes. */
async function noisyPng(file: string, width: number, height: number): Promise<number> {
  await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toFile(file);
  return fs.statSync(file).size;
}

/** Nothing on the page says "Checking connection..." or "Connected". */
async function expectNoConnectionLight(page: Page) {
  expect(await page.getByText(/Checking connection|^Connected$/).count()).toBe(0);
  expect(await page.getByText(CONNECTION_STATUS.failed).count()).toBe(0);
}

it.each([1280, 390])('at %i px, "SIGN UP TODAY" on the home page opens the Create Account tab', async (width) => {
  const { page, errors } = await newPage(browser, width);
  await page.goto(product.url);
  await page.getByRole('link', { name: BRAND.signUpToday }).click();
  await page.waitForURL('**/auth?tab=signup');
  const tab = page.getByRole('tab', { name: LABELS.createAccount });
  await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
  await page.getByRole('form', { name: LABELS.createAccount }).getByLabel('Full Name').waitFor();
  expect(await page.getByRole('button', { name: 'SIGN IN' }).count()).toBe(0);
  await expectNoConnectionLight(page);
  await shot(page, `parent-01-create-account-${width}`);
  if (width === 1280) await expectAccessible(page, 'create account tab');
  expect(errors).toEqual([]);
});

it('registers a parent with an event from the database and a 12 MB headshot scaled down in the browser', async () => {
  const { page, errors } = await newPage(browser);
  const email = `riley.${Date.now()}@example.com`;
  const big = path.join(work, 'big.png');
  const size = await noisyPng(big, 2600, 1600);
  expect(size).toBeGreaterThan(HEADSHOT_MAX_BYTES);

  await page.goto(`${product.url}/signup`);
  // The events the provider runs, from the server, then "Other"; no fixed list.
  await expect
    .poll(() => page.getByLabel('Event').locator('option').allTextContents())
    .toEqual(['Select an event', 'Austin Fall League', 'Chicago 3v3', OTHER_EVENT.label]);
  await expectNoConnectionLight(page);
  await page.getByLabel('First Name').fill('Riley');
  await page.getByLabel('Last Name').fill('Parent');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Username').fill(`rparent${Date.now() % 100000}`);
  await page.getByLabel('Password').fill('secret123');
  await page.getByLabel('Birthday').fill('1984-06-01');
  await page.getByLabel('State').selectOption('Illinois');
  await page.getByLabel('City').fill('Chicago');
  await page.getByLabel('Team Name').fill('Windy City Hoops');
  await page.getByLabel('Event').selectOption({ label: 'Chicago 3v3' });

  // Over the limit: scaled down here instead of refused, and shown as the chosen photo.
  await page.getByLabel('Headshot').setInputFiles(big);
  await page.getByText('big.jpg').waitFor();
  expect(await page.getByRole('alert').filter({ hasText: 'smaller than' }).count()).toBe(0);
  await shot(page, 'parent-02-signup-large-headshot');

  // The server refuses a headshot over the limit (413), so an account made with it proves it was shrunk.
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/account/register') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  const answer = await answered;
  expect(answer.status()).toBe(201);
  expect(await answer.json()).toMatchObject({ headshotSaved: true });

  await page.waitForURL('**/auth/verify-email', { timeout: 15_000 });
  await page.getByText(email).waitFor();
  await page.getByText(VERIFY_EMAIL.expiry).waitFor();

  // The account has the headshot: scaled to the longest side the browser was told, stored as JPEG.
  const link = await mailLink(product, email, 'Confirm');
  await page.goto(link);
  await page.waitForURL('**/dashboard');
  await page.getByText(EMAIL_CONFIRMED.title).waitFor();
  const avatar = page.getByTestId('avatar-image');
  await avatar.waitFor();
  const src = (await avatar.getAttribute('src'))!;
  expect(src).toMatch(/^\/api\/media\/profile-photos\//);
  const stored = await page.request.get(`${product.url}${src}`);
  expect(stored.status()).toBe(200);
  const meta = await sharp(await stored.body()).metadata();
  expect(meta.format).toBe('jpeg');
  // The server keeps at most 1600 px; the browser sent at most HEADSHOT_SHRINK.maxSidePx.
  expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(Math.min(1600, HEADSHOT_SHRINK.maxSidePx));
  expect(meta.width! / meta.height!).toBeCloseTo(2600 / 1600, 1);

  // The event named at registration is chosen already on the request form (issue 34, item 7).
  await expect.poll(() => page.getByRole('radio', { name: /Chicago 3v3/ }).isChecked()).toBe(true);
  expect(await page.getByRole('radio', { name: /Austin Fall League/ }).isChecked()).toBe(false);

  // The same link again while signed in: the dashboard says the address is already confirmed.
  await page.goto(link);
  await page.waitForURL(`${product.url}/dashboard`);
  await page.getByText(EMAIL_ALREADY_CONFIRMED.signedIn).waitFor();

  // And in another browser, signed out: the sign-in page says so, with the address filled in.
  const other = await newPage(browser, 390);
  await other.page.goto(link);
  await other.page.waitForURL('**/auth?confirmed=already*');
  const notice = other.page.getByRole('status').filter({ hasText: EMAIL_ALREADY_CONFIRMED.title });
  await notice.getByText(EMAIL_ALREADY_CONFIRMED.description).waitFor();
  expect(await other.page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(email);
  expect(await other.page.getByText('Link Expired').count()).toBe(0);
  await shot(other.page, 'parent-03-link-already-used-390');
  await expectAccessible(other.page, 'sign in after an already-used confirmation link');
  await other.context.close();

  expect(errors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
});

it('a headshot under the limit is kept as it was picked, not re-encoded in the browser', async () => {
  const { page } = await newPage(browser);
  const small = path.join(work, 'small.png');
  await sharp({ create: { width: 400, height: 500, channels: 3, background: '#2563eb' } }).png().toFile(small);
  await page.goto(`${product.url}/signup`);
  await page.getByLabel('Headshot').setInputFiles(small);
  await page.getByText('small.png').waitFor();
});

it('at 390 px, a parent registers a 10-year-old: the consent is asked on the form, counted once the address is confirmed, and the dashboard is open (issue 34)', async () => {
  const { page, errors } = await newPage(browser, 390);
  const email = `dana.${Date.now()}@example.com`;
  const tenYearsAgo = new Date();
  tenYearsAgo.setUTCFullYear(tenYearsAgo.getUTCFullYear() - 10);
  await page.goto(`${product.url}/signup`);
  await page.getByLabel('First Name').fill('Milo');
  await page.getByLabel('Last Name').fill('Parent');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Username').fill(`milo${Date.now() % 100000}`);
  await page.getByLabel('Password').fill('secret123');
  await page.getByLabel('Birthday').fill(tenYearsAgo.toISOString().slice(0, 10));
  await page.getByLabel('State').selectOption('Texas');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('Team Name').fill('Austin 10U');
  await page.getByLabel('Event').selectOption({ label: 'Austin Fall League' });
  // Under 13: the notice, the parent's name and their consent, besides the guardian's agreement.
  const consent = page.getByTestId('parental-consent');
  await consent.getByText(PARENTAL_CONSENT.notice).waitFor();
  await page.getByRole('checkbox', { name: /I am this athlete's parent or legal guardian, and I agree/ }).check();
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await page.getByText(FIELD_ERRORS.parentName).waitFor();
  await consent.scrollIntoViewIfNeeded();
  await shot(page, 'parent-04-under-13-consent-390');
  await expectAccessible(page, 'registration of an athlete under 13, phone');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await consent.getByLabel(PARENTAL_CONSENT.parentName).fill('Dana Parent');
  await consent.getByLabel(PARENTAL_CONSENT.label).check();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/account/register') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  expect((await answered).status()).toBe(201);
  await page.waitForURL('**/auth/verify-email', { timeout: 15_000 });

  // Confirmed: the consent is recorded, the parent is mailed, and nothing is left to finish.
  await page.goto(await mailLink(product, email, 'Confirm'));
  await page.waitForURL('**/dashboard');
  expect(await mailLink(product, email, 'consent')).toBe(`${product.url}/dashboard`);
  await page.keyboard.press('Escape');
  expect(await page.getByTestId('finish-profile').count()).toBe(0);
  const card = page.getByTestId('face-matching');
  await card.getByLabel(FACE_MATCHING.consentLabel).check();
  await card.getByText(FACE_MATCHING.on).waitFor();

  // The record on the profile card, and withdrawing it: face matching goes off, and the
  // finish-profile step asks for consent again before anything reopens.
  const record = page.getByTestId('parental-consent-record');
  await record.getByText(/Given by Dana Parent on/).waitFor();
  await record.getByRole('button', { name: PARENTAL_CONSENT.withdraw }).click();
  const dialog = page.getByRole('dialog', { name: PARENTAL_CONSENT.withdrawConfirm.title });
  await dialog.getByText(PARENTAL_CONSENT.withdrawConfirm.body).waitFor();
  await shot(page, 'parent-05-withdraw-consent-390');
  await expectAccessible(page, 'withdraw the consent for an athlete under 13, phone');
  await dialog.getByRole('button', { name: PARENTAL_CONSENT.withdrawConfirm.confirm }).click();
  await page.getByText(PARENTAL_CONSENT.withdrawn.title).first().waitFor();
  await page.getByTestId('finish-profile').waitFor();
  expect(await record.count()).toBe(0);
  await card.getByText(FACE_MATCHING.off).waitFor();
  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});
