// Reel builder part 1 in a real browser, on a fresh `npm start`: the family turns on face matching
// and adds a reference photo; an admin adds a game, uploads footage from two cameras, watches it
// being indexed live, approves the athlete's request and sees where the athlete was found.
// Screenshots at 1280px and 390px; every screen through the accessibility gate.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, FOOTAGE } from '../../src/common/admin-messages';
import { FACE_MATCHING } from '../../src/common/dashboard-messages';
import { composeFootage, referencePhoto } from '../support/face-footage';
import { expectAccessible } from './a11y';
import { launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let product: Product;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-footage-'));

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  await Promise.all([
    referencePhoto('ava', path.join(tmp, 'ava.jpg')),
    composeFootage(path.join(tmp, 'camera-1.mp4'), {
      width: 1280, height: 720, seconds: 6,
      appearances: [
        { person: 'ava', from: 0, to: 4, faceHeight: 150, x: 0.1, y: 0.2, drift: 0.02 },
        { person: 'bea', from: 2, to: 6, faceHeight: 130, x: 0.6, y: 0.3 },
      ],
    }),
    composeFootage(path.join(tmp, 'camera-2.mp4'), {
      width: 1280, height: 720, seconds: 6,
      appearances: [{ person: 'ava', from: 2, to: 6, faceHeight: 120, x: 0.5, y: 0.25, drift: -0.02 }],
    }),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function grant(email: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(path.join(root, 'node_modules/.bin/tsx'), ['src/server/cli/admin.ts', 'grant', email], { cwd: root, env: { ...process.env, DATA_DIR: product.dataDir } }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    ),
  );
}

it('finds a consenting athlete in footage from two cameras, from upload to proposed clips', async () => {
  // The family: signed in, agrees to face matching, adds a reference photo that the server checks.
  const family = await signUpByApi(product, 'Ava Stone');
  const { context: familyContext, page: fp } = await newPage(browser);
  await fp.goto(family.link);
  await fp.waitForURL('**/dashboard');
  await fp.getByRole('dialog').waitFor();
  await fp.keyboard.press('Escape'); // the tutorial
  const card = fp.getByTestId('face-matching');
  await card.getByText(FACE_MATCHING.off).waitFor();
  await card.getByLabel(FACE_MATCHING.consentLabel).check();
  await card.getByText(FACE_MATCHING.on).waitFor();
  await card.getByLabel(FACE_MATCHING.addReference).setInputFiles(path.join(tmp, 'ava.jpg'));
  await fp.getByText(FACE_MATCHING.referenceAdded).waitFor({ timeout: 30_000 });
  await card.getByRole('img', { name: 'Reference photo 1' }).waitFor();
  await card.scrollIntoViewIfNeeded();
  await shot(fp, 'footage-01-consent-1280');
  await expectAccessible(fp, 'dashboard with face matching');

  // The admin: signs up, is granted, adds a game to the Austin event.
  const admin = await signUpByApi(product, 'Casey Coach');
  const { page, errors } = await newPage(browser);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  expect(await grant(admin.email)).toContain('is now an admin.');
  await page.goto(`${product.url}/admin`);
  await page.getByRole('link', { name: new RegExp(FOOTAGE.card.title) }).click();
  await page.getByRole('heading', { name: FOOTAGE.title }).waitFor();
  await page.getByLabel(FOOTAGE.event).selectOption({ label: 'Austin Fall League' });
  await page.getByLabel(FOOTAGE.gameName).fill('Game 1 vs Lakers');
  await page.getByLabel(/^Court/).fill('Court 2');
  await page.getByRole('button', { name: FOOTAGE.addGame }).click();
  const game = page.getByTestId('game-card').filter({ hasText: 'Game 1 vs Lakers' });
  await game.waitFor();

  // Two cameras, one after the other; each is indexed as soon as it is in.
  const rows = game.getByTestId('footage-row');
  for (const [i, camera] of ['camera-1.mp4', 'camera-2.mp4'].entries()) {
    await game.getByLabel(FOOTAGE.file).setInputFiles(path.join(tmp, camera));
    await game.getByRole('button', { name: FOOTAGE.upload }).click();
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(i + 1);
  }
  await rows.filter({ hasText: 'Camera 2' }).waitFor();
  await shot(page, 'footage-02-indexing-1280');
  await expect
    .poll(async () => (await game.getByTestId('index-state').allTextContents()).join(','), { timeout: 120_000 })
    .toBe(`${FOOTAGE.states.indexed},${FOOTAGE.states.indexed}`);
  await game.getByText('1280×720').first().waitFor();
  await shot(page, 'footage-03-indexed-1280');
  await expectAccessible(page, 'admin footage');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'footage-03-indexed-390');
  await expectAccessible(page, 'admin footage at 390px');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The family asks for a reel of that game.
  const events = (await (await fp.request.get(`${product.url}/api/events`)).json()) as Array<{ id: string; games: Array<{ id: string; label: string }> }>;
  const austin = events.find((e) => e.id === 'austin-fall-league-2024')!;
  const gameId = austin.games.find((g) => g.label === 'Game 1 vs Lakers')!.id;
  const requested = await fp.request.post(`${product.url}/api/requests`, { data: { eventId: austin.id, games: [gameId] }, headers: { origin: product.url } });
  expect(requested.status()).toBe(201);

  // Approving it starts the search; the proposals are one click away.
  await page.goto(`${product.url}/admin/users`);
  const user = page.getByTestId('user-card').filter({ hasText: 'Ava Stone' });
  await user.getByRole('button', { name: ADMIN.requestButtons.received }).click();
  await user.getByRole('link', { name: FOOTAGE.clipsLink }).click();
  await page.getByRole('heading', { name: FOOTAGE.clipsTitle }).waitFor();
  await page.getByText(FOOTAGE.matchStates.ready!).waitFor({ timeout: 30_000 });
  const clips = page.getByTestId('clip');
  // Found on both cameras; the other person in camera 1 is not proposed.
  await expect.poll(() => clips.count()).toBe(2);
  const texts = await clips.allTextContents();
  expect(texts.some((t) => t.includes('Camera 1'))).toBe(true);
  expect(texts.some((t) => t.includes('Camera 2'))).toBe(true);
  expect(texts.every((t) => t.includes('Game 1 vs Lakers'))).toBe(true);
  await expect.poll(() => page.locator('img[alt^="Face found"]').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await shot(page, 'footage-04-clips-1280');
  await expectAccessible(page, 'proposed clips');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'footage-04-clips-390');
  await expectAccessible(page, 'proposed clips at 390px');
  expect(errors).toEqual([]);
  await familyContext.close();
}, 300_000);
