// An event's teams and rosters on the footage screen (issue 35, item 1), in a real browser on
// `npm start`: the admin imports a roster file with bad lines and reads each line's problem, then
// a good one, and sees each team with its kit and athletes; at 1280 and 390 px, through the
// accessibility gate. Then a player who never shows his face is found by his number on his
// team's kit (items 2–4): the review says why, and the rendered social cut follows him.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { FOOTAGE, REVIEW, ROSTER } from '../../src/common/admin-messages';
import { CHECKOUT, DASHBOARD, REQUEST } from '../../src/common/dashboard-messages';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';
import { HIS_KIT, numberedPlayerVideo } from '../support/people-footage';

let product: Product;
let browser: Browser;
let work: string;
/** The admin's session (past the second factor), for the next test's review. */
let adminCookies: Awaited<ReturnType<import('playwright-core').BrowserContext['cookies']>> = [];

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-rosters-'));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const file = (name: string, lines: string[]) => {
  const at = path.join(work, name);
  fs.writeFileSync(at, lines.join('\n'));
  return at;
};

it('the admin imports a roster: every bad line is named, nothing is taken, then the fixed file lists the teams', async () => {
  const admin = await signUpByApi(product, 'Remy Roster');
  const { page, errors } = await newPage(browser, 1280);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page, password: 'secret123' });
  adminCookies = await page.context().cookies();
  await page.goto(`${product.url}/admin/footage`);
  const card = page.getByTestId('rosters');
  await card.getByText(ROSTER.none).waitFor();
  const input = card.locator('input[type="file"]');

  await input.setInputFiles(file('bad.csv', ['team,number,name,kit color,number color', 'Falcons,12,Ava Stone,#1e40af,#ffffff', 'Falcons,twelve,Lee Jordan', 'Hawks,3,Mia Park,red,#000000']));
  const refusal = card.getByTestId('roster-refusal');
  await refusal.getByText(ROSTER.badRows(2)).waitFor();
  expect(await refusal.getByRole('listitem').allTextContents()).toEqual(['Line 3: “twelve” is not a jersey number (0 to 9999).', 'Line 4: “red” is not a colour like #1e40af.']);
  expect(await card.getByTestId('roster-team').count()).toBe(0);
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'rosters-01-bad-lines-1280');
  await expectAccessible(page, 'roster file refused');

  await input.setInputFiles(
    file('good.csv', ['team,number,name,kit color,number color', 'Falcons,12,Ava Stone,#1e40af,#ffffff', 'Falcons,4,Lee Jordan', 'Hawks,3,Mia Park,#b91c1c,#000000', 'Hawks,8,Zoe Lin']),
  );
  await card.getByTestId('roster-team').first().waitFor();
  expect(await card.getByTestId('roster-refusal').count()).toBe(0);
  expect(await card.getByTestId('roster-team').locator('h3').allTextContents()).toEqual(['Falcons', 'Hawks']);
  expect(await card.getByTestId('roster-team').first().getByRole('listitem').allTextContents()).toEqual(['#4 Lee Jordan', '#12 Ava Stone']);
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'rosters-02-imported-1280');
  await expectAccessible(page, 'rosters imported');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'rosters-03-imported-390');

  // Removing a team asks first.
  page.once('dialog', (dialog) => void dialog.accept());
  await card.getByTestId('roster-team').filter({ hasText: 'Hawks' }).getByRole('button', { name: ROSTER.removeTeam }).click();
  await expect.poll(() => card.getByTestId('roster-team').count()).toBe(1);
  // The refused file's 400 is the one the browser logs.
  expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
}, 240_000);

it('a family names the team and number; when another family names the same athlete, the reel waits for the admin, who confirms it in the review', async () => {
  const headers = { origin: product.url };
  // Family A, on a phone: their profile says Falcons #12, so the request form is filled in.
  const a = await signUpByApi(product, 'Ava Stone');
  const family = await newPage(browser, 390);
  await family.page.goto(a.link);
  await family.page.waitForURL('**/dashboard');
  await family.page.request.patch(`${product.url}/api/profile`, { headers, data: { firstName: 'Ava', lastName: 'Stone', teamName: 'Falcons', jerseyNumber: '12' } });
  await family.page.request.put(`${product.url}/api/profile/athlete`, { headers, data: { birthday: '2011-03-14', guardianConsent: true } });
  await family.page.request.post(`${product.url}/api/profile/tutorial`, { headers });
  await family.page.reload();
  const card = family.page.locator('section', { has: family.page.getByRole('heading', { name: DASHBOARD.cards.request }) });
  await card.getByRole('radio', { name: /Austin Fall League/ }).check();
  await card.getByRole('group', { name: 'Games' }).getByRole('checkbox').first().check();
  const team = card.getByTestId('request-team');
  expect(await team.getByLabel(REQUEST.team).inputValue()).toBe('Falcons');
  expect(await team.getByLabel(REQUEST.number).inputValue()).toBe('12');
  await team.scrollIntoViewIfNeeded();
  await shot(family.page, 'rosters-04-request-team-390');
  await card.getByRole('button', { name: 'Submit Request' }).click();
  await card.getByRole('button', { name: DASHBOARD.requestSubmitted }).waitFor();

  // Family B names the same athlete.
  const b = await signUpByApi(product, 'Sly Stranger');
  const other = await newPage(browser, 390);
  await other.page.goto(b.link);
  await other.page.waitForURL('**/dashboard');
  await other.page.request.put(`${product.url}/api/profile/athlete`, { headers, data: { birthday: '2011-05-01', guardianConsent: true } });
  expect((await other.page.request.post(`${product.url}/api/requests`, { headers, data: { eventId: 'austin-fall-league-2024', games: ['austin-sat-1'], team: 'Falcons', jerseyNumber: 12 } })).status()).toBe(201);
  await other.context.close();

  // The admin approves A's request: A is told the team checks first, and cannot pay yet.
  const admin = await newPage(browser, 1280);
  await admin.context.addCookies(adminCookies);
  const [request] = (await (await family.page.request.get(`${product.url}/api/requests`)).json()) as Array<{ id: string }>;
  expect((await admin.page.request.post(`${product.url}/api/admin/requests/${request!.id}/acknowledge`, { headers })).status()).toBe(200);
  await family.page.reload();
  await family.page.getByTestId('reel-roster-checking').getByText(CHECKOUT.rosterUnconfirmed).waitFor();
  expect(await family.page.getByRole('button', { name: DASHBOARD.purchaseReel }).count()).toBe(0);
  await shot(family.page, 'rosters-05-family-waits-390');
  await expectAccessible(family.page, 'reel waiting for the roster check');

  // The review says why, and the admin confirms.
  await admin.page.goto(`${product.url}/admin/requests/${request!.id}`);
  const link = admin.page.getByTestId('roster-link');
  await link.getByText(ROSTER.link.doubts.claimed_twice).waitFor();
  await link.getByText(ROSTER.link.rosterName('Ava Stone')).waitFor();
  await shot(admin.page, 'rosters-06-review-doubt-1280');
  await expectAccessible(admin.page, 'review with a doubtful roster link');
  await link.getByRole('button', { name: ROSTER.link.confirm }).click();
  await link.getByText(ROSTER.link.confirmed).waitFor();
  await family.page.reload();
  await family.page.getByRole('button', { name: DASHBOARD.purchaseReel }).first().waitFor();
  expect(family.errors).toEqual([]);
  expect(admin.errors).toEqual([]);
}, 240_000);


it('a player who never shows their face is found by the number on their team’s kit: the review says why, and the social cut follows him', async () => {
  const headers = { origin: product.url };
  const admin = await newPage(browser, 1280);
  await admin.context.addCookies(adminCookies);
  const { page } = admin;
  // The admin's roster: the Greys in his shirt's colour, #23 among them.
  await page.goto(`${product.url}/admin/footage`);
  const rosters = page.getByTestId('rosters');
  await rosters.locator('input[type="file"]').setInputFiles(file('greys.csv', ['team,number,name,kit color', `Greys,23,Sam Reed,${HIS_KIT}`, 'Oranges,23,Olly Park,#d2691e']));
  await rosters.getByTestId('roster-team').filter({ hasText: 'Greys' }).waitFor();
  // A game and its camera file: his face blurred past finding, 23 on his shirt.
  await page.getByLabel(FOOTAGE.event).selectOption({ label: 'Austin Fall League' });
  await page.getByLabel(FOOTAGE.gameName).fill('Greys vs Oranges');
  await page.getByRole('button', { name: FOOTAGE.addGame }).click();
  const game = page.getByTestId('game-card').filter({ hasText: 'Greys vs Oranges' });
  await game.waitFor();
  await game.getByLabel(FOOTAGE.file).setInputFiles(await numberedPlayerVideo(work, 'greys.mp4', true));
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  await expect.poll(async () => (await game.getByTestId('index-state').allTextContents()).join(','), { timeout: 150_000 }).toBe(FOOTAGE.states.indexed);

  // Sam's family asks for that game as Greys #23, without face matching.
  const sam = await signUpByApi(product, 'Sam Reed');
  const family = await newPage(browser, 390);
  await family.page.goto(sam.link);
  await family.page.waitForURL('**/dashboard');
  await family.page.request.put(`${product.url}/api/profile/athlete`, { headers, data: { birthday: '2011-03-14', guardianConsent: true } });
  const events = (await (await family.page.request.get(`${product.url}/api/events`)).json()) as Array<{ id: string; games: Array<{ id: string; label: string }> }>;
  const gameId = events.find((e) => e.id === 'austin-fall-league-2024')!.games.find((g) => g.label === 'Greys vs Oranges')!.id;
  expect((await family.page.request.post(`${product.url}/api/requests`, { headers, data: { eventId: 'austin-fall-league-2024', games: [gameId], team: 'Greys', jerseyNumber: 23 } })).status()).toBe(201);
  const [request] = (await (await family.page.request.get(`${product.url}/api/requests`)).json()) as Array<{ id: string }>;
  expect((await page.request.post(`${product.url}/api/admin/requests/${request!.id}/acknowledge`, { headers })).status()).toBe(200);

  // The review: one clip, his whole time on camera, sure, and why.
  await page.goto(`${product.url}/admin/requests/${request!.id}`);
  await page.getByRole('heading', { name: REVIEW.title }).waitFor();
  await page.getByTestId('matching-state').getByText(FOOTAGE.matchStates.ready!).waitFor({ timeout: 60_000 });
  const moment = page.getByTestId('moment');
  await expect.poll(() => moment.count()).toBe(1);
  await moment.getByTestId('reason').getByText(FOOTAGE.reasons.number_and_kit!).waitFor();
  await moment.getByTestId('seen').getByText(REVIEW.tracked('0:00.0–0:03.5', 8)).waitFor();
  expect(await moment.getByText(FOOTAGE.unsure, { exact: true }).count()).toBe(0);
  await moment.scrollIntoViewIfNeeded();
  await shot(page, 'people-01-found-by-number-1280');
  await expectAccessible(page, 'review of a clip found by number and kit');
  await page.setViewportSize({ width: 390, height: 844 });
  await moment.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'people-02-found-by-number-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Who's who: the frame with the people tracked on it; the admin marks the man on the left "not the athlete".
  await moment.getByRole('button', { name: new RegExp(`^${REVIEW.people.open} `) }).click();
  const picker = page.getByTestId('people-picker');
  await picker.waitFor();
  await expect.poll(() => picker.getByTestId('person-box').count()).toBeGreaterThanOrEqual(4);
  await picker.locator('img').evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve))));
  await shot(page, 'people-04-whos-who-1280');
  await expectAccessible(page, "who's who on a frame");
  const boxes = await picker.getByTestId('person-box').evaluateAll((els) => els.map((el) => ({ label: el.getAttribute('aria-label'), left: parseFloat((el as HTMLElement).style.left), height: parseFloat((el as HTMLElement).style.height) })));
  const leftmost = boxes.filter((b) => b.height > 30).sort((a, b) => a.left - b.left)[0]!;
  await picker.getByRole('button', { name: leftmost.label!, exact: true }).click();
  await picker.getByRole('button', { name: REVIEW.people.notAthlete }).click();
  await page.getByText(REVIEW.people.labelled).waitFor();
  await picker.getByRole('button', { name: `${leftmost.label!}, marked not the athlete`, exact: true }).waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'people-05-whos-who-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.keyboard.press('Escape');
  // Matching ran again: Sam's clip stays, the man on the left was never him.
  await page.getByTestId('matching-state').getByText(FOOTAGE.matchStates.ready!).waitFor({ timeout: 60_000 });
  await expect.poll(() => moment.count()).toBe(1);
  await moment.getByTestId('reason').getByText(FOOTAGE.reasons.number_and_kit!).waitFor();

  // Any frame of the game's cameras, clip or no clip: the admin steps through them to point.
  await page.getByRole('button', { name: REVIEW.people.find }).click();
  const steps = page.getByTestId('frame-steps');
  await steps.getByText(REVIEW.people.at('0:00.0')).waitFor();
  await steps.getByRole('button', { name: REVIEW.people.step.forward5 }).click();
  // Never past the camera's last sample (the file is 4 s long).
  await steps.getByText(REVIEW.people.at('0:03.5')).waitFor();
  await steps.getByRole('button', { name: REVIEW.people.step.back }).click();
  await steps.getByText(REVIEW.people.at('0:03.0')).waitFor();
  expect(await page.getByTestId('people-picker').locator('img').getAttribute('src')).toContain('t=3');
  await expect.poll(() => page.getByTestId('people-picker').getByTestId('person-box').count()).toBeGreaterThanOrEqual(4);
  await page.getByTestId('people-picker').locator('img').evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve))));
  await shot(page, 'people-06-point-out-1280');
  await expectAccessible(page, 'pointing out the athlete on any frame');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'people-07-point-out-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.keyboard.press('Escape');

  // Accepted and rendered: the social cut's frame follows him, so his number is in it.
  await moment.getByRole('button', { name: new RegExp(`^${REVIEW.accept} `) }).first().click();
  await moment.getByTestId('decision').getByText(REVIEW.accepted).waitFor();
  const started = await page.request.post(`${product.url}/api/admin/requests/${request!.id}/render`, { headers, data: { spotlight: true } });
  expect(started.status()).toBe(202);
  await expect
    .poll(
      async () => {
        const review = (await (await page.request.get(`${product.url}/api/admin/requests/${request!.id}/review`)).json()) as { render: { state: string } | null; outputs: Array<{ videoType: string }> };
        return review.render?.state === 'ready' ? review.outputs.map((o) => o.videoType).sort() : review.render?.state;
      },
      { timeout: 240_000 },
    )
    .toEqual(['highlight_reel', 'social_cut']);
  await page.reload();
  await page.getByRole('heading', { name: REVIEW.title }).waitFor();
  await shot(page, 'people-03-rendered-1280');
  expect(admin.errors).toEqual([]);
  expect(family.errors).toEqual([]);
}, 480_000);
