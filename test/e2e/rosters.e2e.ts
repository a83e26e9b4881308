// An event's teams and rosters on the footage screen (issue 35, item 1), in a real browser on
// `npm start`: the admin imports a roster file with bad lines and reads each line's problem, then
// a good one, and sees each team with its kit and athletes; at 1280 and 390 px, through the
// accessibility gate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ROSTER } from '../../src/common/admin-messages';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;
let work: string;

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
