// The admins' work queue (issue 36 item 1) in a real browser on `npm start`: three families ask
// for reels; the admin home says how many wait for approval and links to them; the queue lists
// them with their event, games, state and wait, filters and searches; two are approved at once
// after a confirmation that says what happens next; at 1280 and 390 px, through the
// accessibility gate.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN } from '../../src/common/admin-messages';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

it('the admin sees what waits, filters the queue, and approves two requests at once', async () => {
  const headers = { origin: product.url };
  const asked: Array<[event: string, games: string]> = [];
  // Three families, each asking for a reel of a game of an event.
  for (const [name, event] of [
    ['Avery Queue', 'austin-fall-league-2024'],
    ['Blake Queue', 'austin-fall-league-2024'],
    ['Casey Queue', 'chicago-3v3-2024'],
  ] as const) {
    const family = await signUpByApi(product, name);
    const { page, context } = await newPage(browser, 390);
    await page.goto(family.link);
    await page.waitForURL('**/dashboard');
    await page.request.put(`${product.url}/api/profile/athlete`, { headers, data: { birthday: '2011-03-14', guardianConsent: true } });
    const events = (await (await page.request.get(`${product.url}/api/events`)).json()) as Array<{ id: string; name: string; games: Array<{ id: string; label: string }> }>;
    const chosen = events.find((e) => e.id === event)!;
    const games = chosen.games.slice(0, 1);
    const res = await page.request.post(`${product.url}/api/requests`, { headers, data: { eventId: event, games: games.map((g) => g.id) } });
    expect(res.status(), await res.text()).toBe(201);
    asked.push([chosen.name, games.length ? games[0]!.label : ADMIN.queue.allGames]);
    await context.close();
  }

  const admin = await signUpByApi(product, 'Quinn Queue');
  const { page, errors } = await newPage(browser, 1280);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page, password: 'secret123' });

  // The home says what waits, and links to it.
  await page.goto(`${product.url}/admin`);
  const needs = page.getByTestId('queue-needs');
  await needs.getByRole('link', { name: '3 to approve' }).click();
  await page.waitForURL('**/admin/requests?state=approve');
  const cards = page.getByTestId('queue-request');
  await expect.poll(() => cards.count()).toBe(3);
  expect(await cards.getByTestId('queue-state').allTextContents()).toEqual([ADMIN.queue.states.approve, ADMIN.queue.states.approve, ADMIN.queue.states.approve]);
  // Each with its event and the game asked for, by its name.
  for (const [event, games] of asked) await cards.filter({ hasText: event }).filter({ hasText: games }).first().waitFor();
  await shot(page, 'queue-01-approve-1280');
  await expectAccessible(page, 'the work queue');

  // Filtered by event, then searched.
  await page.getByLabel(ADMIN.queue.event).selectOption({ label: 'Chicago 3v3' });
  await expect.poll(() => cards.count()).toBe(1);
  await cards.getByText('Casey Queue').waitFor();
  await page.getByLabel(ADMIN.queue.event).selectOption({ label: ADMIN.queue.allEvents });
  await page.getByLabel(ADMIN.queue.search).fill('blake');
  await expect.poll(() => cards.count()).toBe(1);
  await cards.getByText('Blake Queue').waitFor();
  await page.getByLabel(ADMIN.queue.search).fill('');
  await expect.poll(() => cards.count()).toBe(3);
  // An event chosen while the typed search has yet to settle: both stay, in the list and the address.
  await page.getByLabel(ADMIN.queue.search).fill('casey');
  await page.getByLabel(ADMIN.queue.event).selectOption({ label: 'Chicago 3v3' });
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('casey');
  expect(new URL(page.url()).searchParams.get('event')).toBeTruthy();
  await expect.poll(() => cards.count()).toBe(1);
  await cards.getByText('Casey Queue').waitFor();
  await page.getByLabel(ADMIN.queue.event).selectOption({ label: ADMIN.queue.allEvents });
  await page.getByLabel(ADMIN.queue.search).fill('');
  await expect.poll(() => cards.count()).toBe(3);

  // Two approved at once, after the confirmation says what happens next.
  await page.getByRole('checkbox', { name: ADMIN.queue.select('Avery Queue') }).check();
  await page.getByRole('checkbox', { name: ADMIN.queue.select('Blake Queue') }).check();
  await page.getByRole('button', { name: ADMIN.queue.approveSelected(2) }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(ADMIN.queue.confirmText).waitFor();
  await shot(page, 'queue-02-confirm-1280');
  await expectAccessible(page, 'approving two requests');
  await dialog.getByRole('button', { name: ADMIN.queue.confirm }).click();
  await page.getByText(ADMIN.queue.approved(2)).waitFor();
  await expect.poll(() => cards.count()).toBe(1);
  await cards.getByText('Casey Queue').waitFor();

  // At 390 px: the queue and the home's counts, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'queue-03-approve-390');
  await page.goto(`${product.url}/admin`);
  await needs.getByRole('link', { name: '1 to approve' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'queue-04-home-390');
  // All states: the two approved are matching (or matched), the third still waits.
  await page.goto(`${product.url}/admin/requests`);
  await expect.poll(() => cards.count()).toBe(3);
  expect(errors).toEqual([]);
}, 300_000);
