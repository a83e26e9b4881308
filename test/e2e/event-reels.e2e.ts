// How an event's reels are made, in a real browser on a fresh `npm start` with no demo events
// (issue 34, items 3 and 5): the request form says there is nothing to ask for yet; the admin
// creates an event built from footage; the family is told so before asking, and after approval
// reads that the footage is not in yet, with nothing to pay; the admin switches the event to
// hand-made, the family's purchase dialog says when the reel arrives, and once paid the admin
// home lists the request as paid and waiting. Screenshots at 1280px and 390px.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, FOOTAGE } from '../../src/common/admin-messages';
import { CHECKOUT, DASHBOARD, REEL_STATUS, REQUEST, TUTORIAL } from '../../src/common/dashboard-messages';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct({}, { demoEvents: false });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

it('a fresh install has no events; a footage event takes no payment before a preview, a hand-made one says when, and a paid one waits on the admin home', async () => {
  const family = await signUpByApi(product, 'Jordan Lee');
  const fam = await newPage(browser, 390);
  await fam.page.goto(family.link);
  await fam.page.waitForURL('**/dashboard');
  await fam.page.getByText(TUTORIAL.steps[0]!.title).waitFor();
  const headers = { origin: product.url };
  expect((await fam.page.request.patch(`${product.url}/api/profile`, { data: { firstName: 'Jordan', lastName: 'Lee', teamName: 'Dallas Dribblers', jerseyNumber: '9' }, headers })).status()).toBe(200);
  expect((await fam.page.request.put(`${product.url}/api/profile/athlete`, { data: { birthday: '2011-05-02', guardianConsent: true }, headers })).status()).toBe(200);
  // The team and number are on file: the tutorial asks only for the photo (issue 34, item 7).
  await fam.page.reload();
  await fam.page.getByText('Step 1 of 1').waitFor();
  await fam.page.getByRole('button', { name: TUTORIAL.done }).waitFor();
  await fam.page.keyboard.press('Escape');
  await fam.page.getByTestId('tutorial').waitFor({ state: 'detached' });

  // Nothing to ask for on a fresh install, said plainly; Submit cannot be pressed.
  await fam.page.getByTestId('request-no-events').getByText(REQUEST.noEvents).waitFor();
  expect(await fam.page.getByRole('button', { name: 'Submit Request' }).isDisabled()).toBe(true);
  await fam.page.getByTestId('request-no-events').scrollIntoViewIfNeeded();
  await shot(fam.page, 'event-reels-01-no-events-390');

  // The admin creates an event; built from footage unless told otherwise.
  const adminAccount = await signUpByApi(product, 'Morgan Admin');
  const adm = await newPage(browser, 1280);
  await adm.page.goto(adminAccount.link);
  await adm.page.waitForURL('**/dashboard');
  await grantAdmin(product, adminAccount.email, { page: adm.page, password: 'secret123' });
  await adm.page.goto(`${product.url}/admin/footage`);
  await adm.page.getByRole('button', { name: FOOTAGE.newEvent }).click();
  await adm.page.getByLabel(FOOTAGE.eventName).fill('Spring Showcase');
  await adm.page.getByLabel(FOOTAGE.location).fill('Dallas, TX');
  await adm.page.getByLabel(FOOTAGE.firstDay).fill('2027-04-04');
  expect(await adm.page.getByLabel(FOOTAGE.reelSource).inputValue()).toBe('footage');
  await shot(adm.page, 'event-reels-02-new-event-1280');
  await adm.page.getByRole('button', { name: FOOTAGE.createEvent }).click();
  const source = adm.page.getByTestId('event-reel-source');
  await source.waitFor();
  expect(await source.inputValue()).toBe('footage');
  await expectAccessible(adm.page, 'footage screen with a new event');

  // The family sees it, and how its reels are made, before asking.
  await fam.page.reload();
  await fam.page.getByRole('radio', { name: /Spring Showcase/ }).check();
  await fam.page.getByTestId('request-reel-source').getByText(REQUEST.fromFootage).waitFor();
  await fam.page.getByRole('button', { name: 'Submit Request' }).click();
  await fam.page.getByText(REQUEST.submitted.title).first().waitFor();
  const [request] = (await (await fam.page.request.get(`${product.url}/api/requests`)).json()) as Array<{ id: string }>;
  expect((await adm.page.request.post(`${product.url}/api/admin/requests/${request!.id}/acknowledge`, { headers })).status()).toBe(200);

  // Approved, but no footage yet: said so, and nothing to buy.
  await fam.page.reload();
  const status = fam.page.getByTestId('reel-awaiting-footage');
  await status.getByText(REEL_STATUS.awaitingFootage('Jordan')).waitFor();
  expect(await fam.page.getByRole('button', { name: DASHBOARD.purchaseReel }).count()).toBe(0);
  await status.scrollIntoViewIfNeeded();
  await shot(fam.page, 'event-reels-03-awaiting-footage-390');
  await expectAccessible(fam.page, 'dashboard waiting for footage, phone');
  expect(await fam.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const refused = await fam.page.request.post(`${product.url}/api/checkout`, { data: { requestId: request!.id }, headers });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ message: CHECKOUT.previewNotReady });

  // The admin makes the event hand-made: the family can buy, and the dialog says when it arrives.
  await source.selectOption('hand');
  await adm.page.getByText(FOOTAGE.reelSourceChanged).first().waitFor();
  await fam.page.reload();
  await fam.page.getByRole('button', { name: DASHBOARD.purchaseReel }).click();
  const dialog = fam.page.getByRole('dialog', { name: DASHBOARD.purchaseReel });
  await dialog.getByTestId('purchase-note').getByText(CHECKOUT.purchaseNote).waitFor();
  await shot(fam.page, 'event-reels-04-hand-made-dialog-390');
  await fam.page.keyboard.press('Escape');

  // Paid (a 100% code, as a family with a voucher would): the admin home lists it as waiting.
  expect((await adm.page.request.post(`${product.url}/api/admin/promo-codes`, { data: { code: 'SPRINGFREE', discountPercent: 100 }, headers })).status()).toBe(201);
  expect((await fam.page.request.post(`${product.url}/api/checkout`, { data: { requestId: request!.id, promoCode: 'SPRINGFREE' }, headers })).status()).toBe(200);
  for (const width of [1280, 390]) {
    const view = width === 1280 ? adm : await newPage(browser, 390);
    if (width === 390) await view.context.addCookies(await adm.page.context().cookies());
    await view.page.goto(`${product.url}/admin`);
    const waiting = view.page.getByTestId('paid-waiting');
    await waiting.getByText(ADMIN.portal.paidWaitingCount(1)).waitFor();
    const row = waiting.getByTestId('paid-waiting-row');
    await row.getByText('Jordan Lee').waitFor();
    await row.getByText(/paid \d+ minutes? ago/).waitFor();
    await shot(view.page, `event-reels-05-paid-waiting-${width}`);
    await expectAccessible(view.page, `admin home with a paid request waiting, ${width}px`);
    expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  // The link opens the users list on that family.
  await adm.page.getByTestId('paid-waiting-row').getByRole('link', { name: ADMIN.portal.paidWaitingOpen }).click();
  await adm.page.getByTestId('user-card').filter({ hasText: 'Jordan Lee' }).waitFor();

  // A second event at once (issue 34, item 1): the locked form opens again for an event not asked for yet.
  expect((await adm.page.request.post(`${product.url}/api/admin/events`, { data: { name: 'Summer Cup', location: 'Waco, TX', dates: 'Jun 6', reelSource: 'hand' }, headers })).status()).toBe(201);
  await fam.page.reload();
  const form = fam.page.locator('section', { has: fam.page.getByRole('heading', { name: DASHBOARD.cards.request }) });
  await form.getByRole('button', { name: DASHBOARD.requestSubmitted }).waitFor();
  await form.getByTestId('request-another').click();
  const spring = form.getByRole('radio', { name: /Spring Showcase/ });
  expect(await spring.isDisabled()).toBe(true);
  await form.getByText(REQUEST.requested).waitFor();
  await form.getByRole('radio', { name: /Summer Cup/ }).check();
  await form.getByTestId('request-reel-source').getByText(REQUEST.byHand).waitFor();
  await form.getByRole('button', { name: 'Submit Request' }).click();
  await form.getByRole('button', { name: DASHBOARD.requestSubmitted }).waitFor();
  await expect.poll(() => form.getByTestId('open-request').count()).toBe(2);
  expect(await form.getByTestId('request-another').count()).toBe(0);
  const summer = ((await (await fam.page.request.get(`${product.url}/api/requests`)).json()) as Array<{ id: string; event: string }>).find((r) => r.event.startsWith('Summer Cup'))!;
  expect((await adm.page.request.post(`${product.url}/api/admin/requests/${summer.id}/acknowledge`, { headers })).status()).toBe(200);
  // Each approved request has its own card: one paid, one to buy.
  await fam.page.reload();
  const reels = fam.page.getByTestId('request-reel');
  await expect.poll(() => reels.count()).toBe(2);
  await reels.filter({ hasText: 'Summer Cup' }).getByRole('button', { name: DASHBOARD.purchaseReel }).waitFor();
  await reels.filter({ hasText: 'Spring Showcase' }).getByTestId('reel-paid').waitFor();
  await shot(fam.page, 'event-reels-06-two-events-390');
  await expectAccessible(fam.page, 'dashboard with two events at once, phone');
  expect(await fam.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(fam.errors).toEqual([]);
  expect(adm.errors).toEqual([]);
}, 240_000);
