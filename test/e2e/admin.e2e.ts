// The admin area in a real browser (issue 8), on a fresh `npm start`: the first admin is granted
// while the server runs, finds an athlete by phone, uploads a video and three stills, approves the
// athlete's request, views the site as the athlete and comes back, delivers, deletes a video;
// the athlete's open dashboard follows along live. Every screen and dialog goes through the
// accessibility gate; screenshots at 1280px and 390px.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DASHBOARD } from '../../src/common/dashboard-messages';
import { ADMIN, IMPERSONATION, SECOND_FACTOR_SETUP } from '../../src/common/admin-messages';
import { SECOND_FACTOR } from '../../src/common/messages';
import { totp } from '../support/totp';
import { makeVideo } from '../support/videos';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, mailLink, newPage, shot, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-admin-'));

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const post = (pathname: string, init: { json?: unknown; form?: FormData; cookie?: string }) =>
  fetch(`${product.url}${pathname}`, {
    method: 'POST',
    headers: { origin: product.url, ...(init.json ? { 'content-type': 'application/json' } : {}), ...(init.cookie ? { cookie: init.cookie } : {}) },
    body: init.form ?? JSON.stringify(init.json),
    redirect: 'manual',
  });

/**
 * An admin sent to enrolment: the password, the QR code and the key, a code computed from the key
 * as the phone would, then the recovery codes. Returns the key (base32) and the codes.
 */
async function enrolThroughScreens(page: Page, password: string, width: string): Promise<{ secret: string; codes: string[] }> {
  await page.waitForURL('**/two-factor/setup');
  await page.getByRole('heading', { name: SECOND_FACTOR_SETUP.title }).waitFor();
  await page.getByLabel(SECOND_FACTOR_SETUP.passwordLabel).fill(password);
  await page.getByRole('button', { name: SECOND_FACTOR_SETUP.start }).click();
  await page.getByRole('img', { name: SECOND_FACTOR_SETUP.qrLabel }).waitFor();
  const secret = (await page.getByTestId('totp-key').textContent())!.replace(/\s+/g, '');
  expect(await page.getByTestId('totp-uri').textContent()).toContain(`secret=${secret}`);
  await shot(page, `admin-00-two-factor-setup-${width}`);
  await expectAccessible(page, 'second factor enrolment');
  // A wrong code first: its error toast must not come back once the right code has gone through.
  const wrong = totp(secret) === '000000' ? '111111' : '000000';
  await page.getByLabel(SECOND_FACTOR.codeLabel, { exact: true }).fill(wrong);
  await page.getByRole('button', { name: SECOND_FACTOR_SETUP.confirm }).click();
  await page.getByText(SECOND_FACTOR_SETUP.failed.title).waitFor();
  await page.getByLabel(SECOND_FACTOR.codeLabel, { exact: true }).fill(totp(secret));
  await page.getByRole('button', { name: SECOND_FACTOR_SETUP.confirm }).click();
  await page.getByRole('heading', { name: SECOND_FACTOR_SETUP.recoveryTitle }).waitFor();
  await page.getByText(SECOND_FACTOR_SETUP.enrolled.title).waitFor();
  // The error toast goes (its closing takes a moment), not hidden behind the new one.
  await page.getByText(SECOND_FACTOR_SETUP.failed.title).waitFor({ state: 'detached', timeout: 3_000 });
  // The success toast closes by itself; nothing stale takes its place.
  await page.getByText(SECOND_FACTOR_SETUP.enrolled.title).waitFor({ state: 'detached', timeout: 15_000 });
  await page.waitForTimeout(500);
  expect(await page.getByText(SECOND_FACTOR_SETUP.failed.title).count()).toBe(0);
  const codes = await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await shot(page, `admin-00-two-factor-recovery-codes-${width}`);
  await expectAccessible(page, 'recovery codes');
  return { secret, codes };
}

/** Registers through the full form's API (with a phone) and signs in by the confirmation link in a new page. */
async function athleteSignedIn(): Promise<{ page: Page; errors: string[]; email: string }> {
  const email = `jordan.${Date.now()}@example.com`;
  const form = new FormData();
  for (const [k, v] of Object.entries({
    firstName: 'Jordan', lastName: 'Reyes', email, username: `jreyes${Date.now() % 100000}`, password: 'secret123',
    birthday: '2000-04-12', state: 'Texas', city: 'Austin', phoneNumber: '(512) 555-0142', teamName: 'Austin Elite',
    event: 'austin-fall-league-2024', jerseyNumber: '23',
  })) form.set(k, v);
  expect((await post('/api/account/register', { form })).status).toBe(201);
  const { page, errors } = await newPage(browser);
  await page.goto(await mailLink(product, email, 'Confirm'));
  await page.waitForURL('**/dashboard');
  return { page, errors, email };
}

it('runs the request workflow from the admin area, and the athlete sees each step live', async () => {
  // The athlete: registered, confirmed, dashboard open, a reel requested.
  const athlete = await athleteSignedIn();
  const ap = athlete.page;
  await ap.getByRole('dialog').waitFor();
  await ap.keyboard.press('Escape'); // the tutorial
  const requestCard = ap.locator('section', { has: ap.getByRole('heading', { name: DASHBOARD.cards.request }) });
  await requestCard.getByRole('radio', { name: /Chicago 3v3/ }).check();
  await requestCard.getByRole('button', { name: 'Submit Request' }).click();
  await requestCard.getByRole('button', { name: DASHBOARD.requestSubmitted }).waitFor();
  await ap.locator('main[data-live="connected"]').waitFor();

  // The provider's first admin: signs up like anyone, then is granted while the server runs.
  const adminEmail = `coach.${Date.now()}@example.com`;
  expect((await post('/api/account/sign-up', { json: { fullName: 'Casey Coach', email: adminEmail, password: 'secret123' } })).status).toBe(201);
  const { page, errors } = await newPage(browser);
  await page.goto(await mailLink(product, adminEmail, 'Confirm'));
  await page.waitForURL('**/dashboard');
  expect(await grantAdmin(product, adminEmail)).toContain(`${adminEmail} is now an admin.`);
  // An admin's account is the provider's, not a family's: never asked for an athlete's profile.
  await page.reload();
  await page.locator('main[data-live]').waitFor();
  expect(await page.getByTestId('finish-profile').count()).toBe(0);

  // The admin area first asks for a second factor (issue 21): enrolment through its screens.
  await page.goto(`${product.url}/admin`);
  await enrolThroughScreens(page, 'secret123', '1280');
  await page.getByRole('button', { name: SECOND_FACTOR_SETUP.done }).click();

  // The portal.
  await page.getByRole('heading', { name: ADMIN.portal.title }).waitFor();
  // The one family; the admin is not counted among the users.
  await expect.poll(() => page.getByTestId('stat-totalUsers').textContent()).toBe('1');
  await page.getByText(ADMIN.portal.jobsNone).waitFor();
  await shot(page, 'admin-01-portal-1280');
  await expectAccessible(page, 'admin portal');

  // Users: find the athlete by phone.
  await page.getByRole('link', { name: new RegExp(ADMIN.portal.usersCard.title) }).click();
  await page.getByRole('heading', { name: ADMIN.users.title }).waitFor();
  await page.getByPlaceholder(ADMIN.users.searchPlaceholder).fill('555-0142');
  const card = page.getByTestId('user-card').filter({ hasText: 'Jordan Reyes' });
  await card.waitFor();
  await expect.poll(() => page.getByTestId('user-card').count()).toBe(1);
  await card.getByText('(512) 555-0142').waitFor();
  await card.getByText(athlete.email).waitFor();
  await shot(page, 'admin-02-users-1280');
  await expectAccessible(page, 'admin users');
  // The filters, with the search cleared: the athlete's request is submitted, the admin has none;
  // nobody has a delivered reel yet. Each filter asks the server again: on a busy machine its
  // answer can take longer than a poll's default second.
  await page.getByPlaceholder(ADMIN.users.searchPlaceholder).fill('');
  const submitted = page.getByRole('button', { name: ADMIN.users.filters.submitted });
  await submitted.click();
  await expect.poll(() => page.getByTestId('user-card').allTextContents(), { timeout: 10_000 }).toEqual([expect.stringContaining('Jordan Reyes')]);
  await page.getByRole('button', { name: ADMIN.users.filters.delivered }).click();
  await submitted.click();
  await expect.poll(() => page.getByTestId('user-card').count(), { timeout: 10_000 }).toBe(0);
  await page.getByRole('button', { name: ADMIN.users.filters.delivered }).click();
  await expect.poll(() => page.getByTestId('user-card').count(), { timeout: 10_000 }).toBe(2);
  await page.getByPlaceholder(ADMIN.users.searchPlaceholder).fill('555-0142');
  await expect.poll(() => page.getByTestId('user-card').count()).toBe(1);

  // Upload a small video, Not Yet Paid, with the progress bar.
  await card.getByRole('button', { name: ADMIN.users.uploadVideo }).click();
  const videoDialog = page.getByRole('dialog', { name: ADMIN.video.title });
  await videoDialog.getByRole('button', { name: 'Upload' }).click();
  await videoDialog.getByText(ADMIN.video.titleRequired).waitFor();
  await expectAccessible(page, 'video upload dialog');
  await videoDialog.getByLabel(ADMIN.video.titleLabel).fill('Chicago Highlights');
  await videoDialog.getByLabel(/Tournament/).fill('Chicago 3v3');
  await videoDialog.getByLabel(ADMIN.video.fileLabel).setInputFiles(makeVideo({ container: 'mp4', width: 640, height: 360, seconds: 8 }));
  await videoDialog.getByRole('radio', { name: ADMIN.video.notPaid }).check();
  await videoDialog.getByRole('button', { name: 'Upload' }).click();
  await page.getByText(ADMIN.video.uploaded.afterPayment).waitFor({ timeout: 30_000 });
  await card.getByRole('button', { name: new RegExp(`${ADMIN.users.videos} \\(1\\)`) }).click();
  const row = card.getByRole('row', { name: /Chicago Highlights/ });
  await row.waitFor();
  // Processed by the worker: the progress goes away.
  await expect.poll(() => row.getByRole('progressbar').count(), { timeout: 30_000 }).toBe(0);
  await shot(page, 'admin-03-video-row-1280');

  // Three stills; the athlete's carousel shows them without a reload.
  const stills = await Promise.all(
    ['#1d4ed8', '#b45309', '#15803d'].map(async (color, i) => {
      const file = path.join(tmp, `still-${i}.jpg`);
      await sharp({ create: { width: 1200, height: 800, channels: 3, background: color } }).jpeg().toFile(file);
      return file;
    }),
  );
  await card.getByRole('button', { name: ADMIN.users.uploadStills }).click();
  const stillsDialog = page.getByRole('dialog', { name: ADMIN.stills.title });
  await stillsDialog.locator('input[type=file]').setInputFiles(stills);
  await stillsDialog.getByRole('list', { name: 'Chosen photos' }).getByRole('img').nth(2).waitFor();
  await shot(page, 'admin-04-stills-dialog-1280');
  await expectAccessible(page, 'stills dialog');
  await stillsDialog.getByRole('button', { name: 'Upload' }).click();
  await page.getByText(ADMIN.stills.uploaded(3).description).waitFor();
  const photos = ap.locator('section', { has: ap.getByRole('heading', { name: DASHBOARD.cards.photos }) });
  await expect.poll(() => photos.getByRole('img').count(), { timeout: 10_000 }).toBe(3);

  // Approve the request: the athlete's dashboard shows Purchase Your Reel at once.
  await card.getByRole('button', { name: ADMIN.requestButtons.received }).click();
  await page.getByRole('dialog').getByRole('button', { name: ADMIN.queue.confirm }).click();
  await page.getByText(ADMIN.requestToasts.acknowledged.description).waitFor();
  await card.getByText(ADMIN.requestButtons.approved, { exact: true }).waitFor();
  await ap.getByRole('button', { name: DASHBOARD.purchaseReel }).waitFor({ timeout: 5000 });

  // View as the athlete, then back.
  await card.getByRole('button', { name: IMPERSONATION.viewAsUser }).click();
  await page.waitForURL('**/dashboard');
  await page.getByText(IMPERSONATION.started.description(athlete.email)).waitFor();
  await page.getByText(IMPERSONATION.banner(athlete.email)).waitFor();
  await page.getByText(IMPERSONATION.bannerAdmin(adminEmail)).waitFor();
  await page.getByRole('button', { name: DASHBOARD.purchaseReel }).waitFor();
  await page.getByRole('heading', { name: 'Jordan Reyes' }).waitFor();
  expect(await page.getByRole('dialog').count()).toBe(0); // no tutorial while viewing as the athlete
  await shot(page, 'admin-05-view-as-1280');
  await expectAccessible(page, 'dashboard viewed as the athlete');
  await page.getByRole('button', { name: IMPERSONATION.exit }).click();
  await page.waitForURL('**/admin/users');
  await page.getByText(IMPERSONATION.exited.description).waitFor();

  // Deliver.
  await page.getByPlaceholder(ADMIN.users.searchPlaceholder).fill('Reyes');
  // Videos uploaded by hand: the manual Reels Delivered, asked once more.
  await card.getByRole('button', { name: ADMIN.requestButtons.delivered }).click();
  const deliver = page.getByRole('dialog', { name: ADMIN.requestButtons.deliverConfirm.title });
  await deliver.getByText(ADMIN.requestButtons.deliverConfirm.body).waitFor();
  await expectAccessible(page, 'mark delivered dialog');
  await deliver.getByRole('button', { name: ADMIN.requestButtons.deliverConfirm.confirm }).click();
  await page.getByText(ADMIN.requestToasts.delivered.description).waitFor();
  // Delivered, as the Delivered filter finds it; not No Request.
  await card.getByTestId('request-delivered').getByText(ADMIN.requestButtons.deliveredState).waitFor();
  expect(await card.getByRole('button', { name: ADMIN.requestButtons.none }).count()).toBe(0);
  await ap.getByRole('button', { name: DASHBOARD.purchaseReel }).waitFor({ state: 'detached', timeout: 5000 });

  // Delete the video, after the spec's question.
  await card.getByRole('button', { name: new RegExp(`${ADMIN.users.videos} \\(1\\)`) }).click().catch(() => {});
  await card.getByRole('button', { name: 'Delete Chicago Highlights' }).click();
  const confirm = page.getByRole('dialog', { name: ADMIN.deleteVideo.title });
  await confirm.getByText(ADMIN.deleteVideo.body('Chicago Highlights')).waitFor();
  await expectAccessible(page, 'delete video dialog');
  await confirm.getByRole('button', { name: ADMIN.deleteVideo.confirm }).click();
  await page.getByText(ADMIN.deleteVideo.deleted.description).waitFor();
  await card.getByRole('button', { name: new RegExp(ADMIN.users.videos) }).waitFor({ state: 'detached' });

  // Orders, promo codes and the waiting list.
  await page.goto(`${product.url}/admin/orders`);
  await page.getByText(ADMIN.orders.empty).waitFor();
  await page.getByText(ADMIN.promoCodes.empty).waitFor();
  await page.getByLabel(ADMIN.promoCodes.code, { exact: true }).fill('Team25');
  await page.getByLabel(ADMIN.promoCodes.percent).fill('101');
  await page.getByRole('button', { name: ADMIN.promoCodes.create }).click();
  await page.getByText(ADMIN.promoCodes.invalidPercent).waitFor();
  await page.getByLabel(ADMIN.promoCodes.percent).fill('25');
  await page.getByRole('button', { name: ADMIN.promoCodes.create }).click();
  await page.getByText(ADMIN.promoCodes.created('Team25', 25).description).waitFor();
  const codes = page.getByTestId('promo-codes');
  await codes.getByText('Team25').waitFor();
  await page.getByLabel(ADMIN.promoCodes.code, { exact: true }).fill('TEAM25');
  await page.getByLabel(ADMIN.promoCodes.percent).fill('10');
  await page.getByRole('button', { name: ADMIN.promoCodes.create }).click();
  await page.getByText(ADMIN.promoCodes.taken).waitFor();
  await codes.getByRole('button', { name: `${ADMIN.promoCodes.deactivate} Team25` }).click();
  await codes.getByText(ADMIN.promoCodes.inactive).waitFor();
  await page.waitForTimeout(300);
  await shot(page, 'admin-07-orders-promo-codes-1280');
  await expectAccessible(page, 'admin orders and promo codes');
  const homepageSignup = async (firstName: string) => {
    const res = await post('/api/account/homepage-signups', { json: { firstName, lastName: 'Waiting', email: `${firstName.toLowerCase()}.waiting@example.com` } });
    expect(res.status).toBe(201);
  };
  await homepageSignup('Wren');
  await page.goto(`${product.url}/admin/waiting-list`);
  await page.getByRole('heading', { name: ADMIN.waitingList.title }).waitFor();
  await page.getByText('wren.waiting@example.com').waitFor();
  await expectAccessible(page, 'admin waiting list');
  // Clearing takes what the page showed; a sign-up that came after stays on the list.
  await homepageSignup('Wade');
  await page.getByRole('button', { name: ADMIN.waitingList.clearAll }).click();
  const clearing = page.getByRole('dialog', { name: ADMIN.waitingList.clearAll });
  await clearing.getByText(ADMIN.waitingList.clearConfirm).waitFor();
  await clearing.getByRole('button', { name: ADMIN.waitingList.clearAll }).click();
  await page.getByText(ADMIN.waitingList.cleared(1).description).waitFor();
  await page.getByText('wade.waiting@example.com').waitFor();
  await page.getByText('wren.waiting@example.com').waitFor({ state: 'detached' });
  await shot(page, 'admin-08-waiting-list-cleared-1280');

  // The same screens on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [pathname, name] of [['/admin', 'portal'], ['/admin/users', 'users'], ['/admin/orders', 'orders'], ['/admin/waiting-list', 'waiting-list']] as const) {
    await page.goto(`${product.url}${pathname}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(300);
    await shot(page, `admin-06-${name}-390`);
  }
  expect(errors.filter((e) => !/status of 40[0-9]/.test(e))).toEqual([]);
  expect(athlete.errors).toEqual([]);
});

it('a member opening the admin area is sent back with Access Denied', async () => {
  const { page } = await newPage(browser);
  const email = `member.${Date.now()}@example.com`;
  await post('/api/account/sign-up', { json: { fullName: 'Mem Ber', email, password: 'secret123' } });
  await page.goto(await mailLink(product, email, 'Confirm'));
  await page.waitForURL('**/dashboard');
  await page.goto(`${product.url}/admin/users`);
  await page.waitForURL('**/dashboard');
  await page.getByText("You don't have admin privileges").waitFor();
});

it('an admin enrols on a phone-sized screen, then signs in with the password and the code from the app', async () => {
  const email = `second.${Date.now()}@example.com`;
  await post('/api/account/sign-up', { json: { fullName: 'Sky Second', email, password: 'secret123' } });
  const { page, errors } = await newPage(browser, 390);
  await page.goto(await mailLink(product, email, 'Confirm'));
  await page.waitForURL('**/dashboard');
  expect(await grantAdmin(product, email)).toContain('is now an admin.');
  await page.goto(`${product.url}/admin/users`);
  const { secret } = await enrolThroughScreens(page, 'secret123', '390');
  await page.getByRole('button', { name: SECOND_FACTOR_SETUP.done }).click();
  await page.getByRole('heading', { name: ADMIN.portal.title }).waitFor();

  // Another browser: the password alone leads to the code prompt, not to the admin area.
  const other = await newPage(browser, 390);
  const p = other.page;
  await p.goto(`${product.url}/auth?email=${encodeURIComponent(email)}`);
  await p.getByLabel('Password').fill('secret123');
  await p.getByRole('button', { name: 'SIGN IN' }).click();
  await p.waitForURL('**/auth/two-factor');
  await p.getByRole('heading', { name: SECOND_FACTOR.promptTitle }).waitFor();
  await shot(p, 'admin-00-two-factor-prompt-390');
  await expectAccessible(p, 'code prompt');
  expect((await p.request.get(`${product.url}/api/admin/whoami`)).status()).toBe(401);
  await p.getByRole('button', { name: SECOND_FACTOR.useRecovery }).click();
  await p.getByRole('heading', { name: SECOND_FACTOR.recoveryTitle }).waitFor();
  await shot(p, 'admin-00-two-factor-recovery-390');
  await p.getByRole('button', { name: SECOND_FACTOR.useApp }).click();
  await p.getByLabel(SECOND_FACTOR.codeLabel, { exact: true }).fill('000000' === totp(secret, { steps: 1 }) ? '111111' : '000000');
  await p.getByRole('button', { name: SECOND_FACTOR.verify }).click();
  await p.getByRole('alert').filter({ hasText: SECOND_FACTOR.invalidCode }).first().waitFor();
  // The next step's code: the one that confirmed enrolment works only once.
  await p.getByLabel(SECOND_FACTOR.codeLabel, { exact: true }).fill(totp(secret, { steps: 1 }));
  await p.getByRole('button', { name: SECOND_FACTOR.verify }).click();
  await p.getByRole('heading', { name: ADMIN.portal.title }).waitFor();
  expect(errors.filter((e) => !/status of 40[0-9]/.test(e))).toEqual([]);
  expect(other.errors.filter((e) => !/status of 40[0-9]/.test(e))).toEqual([]);
});
