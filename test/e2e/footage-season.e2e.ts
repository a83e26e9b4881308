// Footage for a season (issue 36 item 2) in a real browser on `npm start`: an event made with its
// first and last day and then edited (the families' dates follow); three games; three camera files
// dropped at once on one game, named Camera 1, 2 and 3 as they came (one renamed before upload),
// sent in parallel and indexed; a camera renamed after; the other games say which cameras they
// miss; an archived game hidden until asked for; games found by a search; a camcorder's AVCHD
// .MTS taken and indexed. At 1280 and 390 px.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FOOTAGE } from '../../src/common/admin-messages';
import { CAMERA_ENCODINGS, encodeCameraFile } from '../support/camera-encodings';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-season-'));
let cameraFile = '';
let avchdFile = '';

beforeAll(async () => {
  [product, browser, cameraFile, avchdFile] = await Promise.all([startProduct(), launchBrowser(), encodeCameraFile(tmp, CAMERA_ENCODINGS[0]!), encodeCameraFile(tmp, CAMERA_ENCODINGS.find((e) => e.ext === 'm2ts')!)]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it('an event with dates as dates, edited; three camera files dropped at once; games at a glance, searched and archived', async () => {
  const admin = await signUpByApi(product, 'Sasha Season');
  const { page, errors } = await newPage(browser, 1280);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page, password: 'secret123' });
  await page.goto(`${product.url}/admin/footage`);
  await page.getByRole('heading', { name: FOOTAGE.title }).waitFor();

  // A new event with its first and last day: the families' dates are written from them.
  await page.getByRole('button', { name: FOOTAGE.newEvent }).click();
  const create = page.getByRole('form', { name: FOOTAGE.newEvent });
  await create.getByLabel(FOOTAGE.eventName).fill('Spring Cup');
  await create.getByLabel(FOOTAGE.location).fill('Austin, TX');
  await create.getByLabel(FOOTAGE.firstDay).fill('2027-03-06');
  await create.getByLabel(FOOTAGE.lastDay).fill('2027-03-07');
  await create.getByRole('button', { name: FOOTAGE.createEvent }).click();
  await page.getByText('Spring Cup · Austin, TX · Mar 6-7, 2027').waitFor();

  // Edited: a new name and a third day.
  await page.getByRole('button', { name: FOOTAGE.editEvent }).click();
  const edit = page.getByRole('form', { name: FOOTAGE.editEvent });
  expect(await edit.getByLabel(FOOTAGE.firstDay).inputValue()).toBe('2027-03-06');
  await edit.getByLabel(FOOTAGE.eventName).fill('Spring Cup 2027');
  await edit.getByLabel(FOOTAGE.lastDay).fill('2027-03-08');
  await shot(page, 'season-01-event-edit-1280');
  await edit.getByRole('button', { name: FOOTAGE.save }).click();
  await page.getByText('Spring Cup 2027 · Austin, TX · Mar 6-8, 2027').waitFor();
  // The new title can arrive through the event bus before the save's own answer closes the form.
  await page.getByRole('form', { name: FOOTAGE.editEvent }).waitFor({ state: 'detached' });
  expect(await page.getByRole('form', { name: FOOTAGE.editEvent }).count()).toBe(0);

  // Three games, the third typed while the second is still being added: the form keeps it.
  const gameName = page.getByLabel(FOOTAGE.gameName, { exact: true });
  await gameName.fill('Game 1 vs Hawks');
  await page.getByRole('button', { name: FOOTAGE.addGame }).click();
  await page.getByTestId('game-card').filter({ hasText: 'Game 1 vs Hawks' }).waitFor();
  await expect.poll(() => gameName.inputValue()).toBe('');
  await gameName.fill('Game 2 vs Owls');
  await page.getByRole('button', { name: FOOTAGE.addGame }).click();
  await gameName.fill('Game 3 vs Bears');
  await page.getByTestId('game-card').filter({ hasText: 'Game 2 vs Owls' }).waitFor();
  const addGame = page.getByRole('button', { name: FOOTAGE.addGame });
  await expect.poll(() => addGame.isEnabled()).toBe(true);
  expect(await gameName.inputValue()).toBe('Game 3 vs Bears');
  await addGame.click();
  await page.getByTestId('game-card').filter({ hasText: 'Game 3 vs Bears' }).waitFor();

  // Three camera files dropped at once on the first game: Camera 1, 2, 3 in the order they came.
  const game1 = page.getByTestId('game-card').filter({ hasText: 'Game 1 vs Hawks' });
  const bytes = fs.readFileSync(cameraFile).toString('base64');
  const dropped = await page.evaluateHandle((b64) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    for (const name of ['court-north.mp4', 'court-south.mp4', 'baseline.mp4']) transfer.items.add(new File([data], name, { type: 'video/mp4' }));
    return transfer;
  }, bytes);
  await game1.getByTestId('footage-drop').dispatchEvent('drop', { dataTransfer: dropped });
  const pending = game1.getByTestId('footage-pending');
  await expect.poll(() => pending.count()).toBe(3);
  expect(await game1.getByLabel(FOOTAGE.cameraFor('court-north.mp4')).inputValue()).toBe('Camera 1');
  expect(await game1.getByLabel(FOOTAGE.cameraFor('court-south.mp4')).inputValue()).toBe('Camera 2');
  expect(await game1.getByLabel(FOOTAGE.cameraFor('baseline.mp4')).inputValue()).toBe('Camera 3');
  // Named before the upload.
  await game1.getByLabel(FOOTAGE.cameraFor('baseline.mp4')).fill('Baseline');
  await shot(page, 'season-02-three-dropped-1280');
  await expectAccessible(page, 'footage screen with three files dropped');
  await game1.getByRole('button', { name: FOOTAGE.uploadMany(3) }).click();
  const rows = game1.getByTestId('footage-row');
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(3);
  await expect.poll(() => pending.count()).toBe(0);
  for (const camera of ['Camera 1', 'Camera 2', 'Baseline']) await rows.filter({ hasText: camera }).waitFor();
  await expect
    .poll(async () => (await game1.getByTestId('index-state').allTextContents()).sort().join(','), { timeout: 120_000 })
    .toBe([FOOTAGE.states.indexed, FOOTAGE.states.indexed, FOOTAGE.states.indexed].join(','));

  // Renamed after the upload.
  await rows.filter({ hasText: 'Baseline' }).getByRole('button', { name: `${FOOTAGE.rename} Baseline` }).click();
  await rows.getByLabel(`${FOOTAGE.camera}: baseline.mp4`).fill('Camera 3');
  await rows.getByRole('button', { name: FOOTAGE.save }).click();
  await page.getByText(FOOTAGE.renamed).first().waitFor();
  await rows.filter({ hasText: 'Camera 3' }).waitFor();

  // At a glance: the first game has its three indexed, the others miss them.
  await game1.getByTestId('game-glance').getByText(FOOTAGE.glance.indexed(3)).waitFor();
  const game2 = page.getByTestId('game-card').filter({ hasText: 'Game 2 vs Owls' });
  await game2.getByTestId('game-glance').getByText(FOOTAGE.glance.missing('Camera 1, Camera 2, Camera 3')).waitFor();
  await shot(page, 'season-03-glance-1280');

  // An archived game is hidden until asked for.
  const game3 = page.getByTestId('game-card').filter({ hasText: 'Game 3 vs Bears' });
  await game3.getByRole('button', { name: FOOTAGE.archiveGame }).click();
  await game3.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: FOOTAGE.showArchivedGames(1) }).click();
  await game3.getByText(FOOTAGE.archived).waitFor();
  await page.getByRole('button', { name: FOOTAGE.hideArchivedGames }).click();
  await game3.waitFor({ state: 'detached' });

  // Found by a search.
  await page.getByLabel(FOOTAGE.findGame).fill('owls');
  await expect.poll(() => page.getByTestId('game-card').count()).toBe(1);
  await game2.waitFor();
  await page.getByLabel(FOOTAGE.findGame).fill('nobody');
  await page.getByText(FOOTAGE.noGamesMatch).waitFor();
  await page.getByLabel(FOOTAGE.findGame).fill('');
  await expect.poll(() => page.getByTestId('game-card').count()).toBe(2);

  // A camcorder's AVCHD file (.MTS, an MPEG transport stream), chosen as a file is: taken, and indexed.
  const mts = fs.readFileSync(avchdFile);
  await game2.getByLabel(FOOTAGE.camera, { exact: true }).fill('Camcorder');
  await game2.getByLabel(FOOTAGE.file).setInputFiles({ name: '00012.MTS', mimeType: 'video/mp2t', buffer: mts });
  await game2.getByRole('button', { name: FOOTAGE.upload, exact: true }).click();
  const game2Rows = game2.getByTestId('footage-row');
  await game2Rows.filter({ hasText: 'Camcorder' }).waitFor({ timeout: 60_000 });
  await expect.poll(async () => (await game2.getByTestId('index-state').allTextContents()).join(','), { timeout: 120_000 }).toBe(FOOTAGE.states.indexed);
  await shot(page, 'season-035-camcorder-indexed-1280');

  // A reload: the game whose cameras are all indexed opens closed, and says so in its header.
  await page.reload();
  await page.getByLabel(FOOTAGE.event).selectOption({ label: 'Spring Cup 2027' });
  const header = game1.getByRole('button', { name: /^Game 1 vs Hawks/ });
  await expect.poll(() => header.getAttribute('aria-expanded')).toBe('false');
  expect(await rows.count()).toBe(0);
  await shot(page, 'season-04-collapsed-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await shot(page, 'season-04-collapsed-390');
  await expectAccessible(page, 'footage screen at 390px');
  await header.click();
  await expect.poll(() => rows.count()).toBe(3);
  await shot(page, 'season-05-open-390');
  expect(errors).toEqual([]);
});
