// The footage screen tells the truth while indexing fails and is retried (issue 32), in a real
// browser on a fresh `npm start`: ffmpeg is killed in the middle of a file's decoding (through a
// wrapper named by FFMPEG_PATH, as the machine running out of memory would); the file then reads
// "Waiting to index" with the retry's words and no progress bar, its Re-index button works at once
// and indexes it; the admin home lists nothing raw. Screenshots at 1280px and 390px.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, FOOTAGE, REVIEW } from '../../src/common/admin-messages';
import { FACE_MATCHING, REEL_STATUS } from '../../src/common/dashboard-messages';
import { composeFootage, referencePhoto } from '../support/face-footage';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-footage-failure-'));
/** While this file exists, the wrapper kills ffmpeg when it is asked for the index's frames. */
const failing = path.join(tmp, 'kill-ffmpeg');
/** While this one exists, ffmpeg refuses those frames as a file it cannot read would make it. */
const refusing = path.join(tmp, 'refuse-ffmpeg');

beforeAll(async () => {
  const wrapper = path.join(tmp, 'ffmpeg');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\ncase "$*" in *rawvideo*)\n  if [ -e '${failing}' ]; then kill -9 $$; fi\n  if [ -e '${refusing}' ]; then echo 'pipe:0: Invalid data found when processing input' >&2; exit 1; fi;;\nesac\nexec ffmpeg "$@"\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(failing, '');
  [product, browser] = await Promise.all([startProduct({ FFMPEG_PATH: wrapper }), launchBrowser()]);
  await referencePhoto('ava', path.join(tmp, 'ava.jpg'));
  await composeFootage(path.join(tmp, 'camera-1.mp4'), {
    width: 640,
    height: 360,
    seconds: 4,
    appearances: [{ person: 'ava', from: 0, to: 4, faceHeight: 100, x: 0.2, y: 0.2 }],
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it('a file whose indexing failed shows it is waiting for its retry, with no progress, and Re-index indexes it now', async () => {
  const admin = await signUpByApi(product, 'Riley Ops');
  const { page, errors } = await newPage(browser);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  expect(await grantAdmin(product, admin.email, { page, password: 'secret123' })).toContain('is now an admin.');
  await page.goto(`${product.url}/admin/footage`);
  await page.getByRole('heading', { name: FOOTAGE.title }).waitFor();
  await page.getByLabel(FOOTAGE.event).selectOption({ label: 'Austin Fall League' });
  await page.getByLabel(FOOTAGE.gameName).fill('Game 7 vs Hawks');
  await page.getByLabel(/^Court/).fill('Court 1');
  await page.getByRole('button', { name: FOOTAGE.addGame }).click();
  const game = page.getByTestId('game-card').filter({ hasText: 'Game 7 vs Hawks' });
  await game.getByLabel(FOOTAGE.file).setInputFiles(path.join(tmp, 'camera-1.mp4'));
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  const row = game.getByTestId('footage-row');
  await row.waitFor({ timeout: 60_000 });

  // The first try is killed: the row says it waits for a retry, shows no progress, and can be re-indexed.
  await row.getByText(FOOTAGE.indexRetrying).waitFor({ timeout: 60_000 });
  await expect.poll(() => row.getByTestId('index-state').textContent()).toBe(FOOTAGE.states.queued);
  expect(await row.getByRole('progressbar').count()).toBe(0);
  const reindex = row.getByRole('button', { name: FOOTAGE.reindex });
  expect(await reindex.isEnabled()).toBe(true);
  await shot(page, 'footage-failure-01-waiting-1280');
  await expectAccessible(page, 'footage waiting for its retry');
  await page.setViewportSize({ width: 390, height: 844 });
  await row.scrollIntoViewIfNeeded();
  await shot(page, 'footage-failure-01-waiting-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // ffmpeg works again; Re-index runs the waiting job now rather than after its pause.
  fs.rmSync(failing);
  await reindex.click();
  await page.getByText(FOOTAGE.reindexStarted).waitFor();
  await expect.poll(() => row.getByTestId('index-state').textContent(), { timeout: 60_000 }).toBe(FOOTAGE.states.indexed);
  expect(await row.getByText(FOOTAGE.indexRetrying).count()).toBe(0);
  await shot(page, 'footage-failure-02-indexed-1280');

  // No failed job is left for the home page to list.
  await page.goto(`${product.url}/admin`);
  await page.getByText(ADMIN.portal.jobsNone).waitFor();

  // A file ffmpeg cannot read even whole fails for good at once, said plainly; the admin home
  // lists the job in plain words, the tool's own one click away.
  fs.writeFileSync(refusing, '');
  await page.goto(`${product.url}/admin/footage`);
  // Its camera indexed, the game opens closed: its header opens it.
  const header = game.getByRole('button', { name: /^Game 7 vs Hawks/ });
  await expect.poll(() => header.getAttribute('aria-expanded')).toBe('false');
  await header.click();
  await game.getByLabel(FOOTAGE.file).setInputFiles(path.join(tmp, 'camera-1.mp4'));
  await game.getByRole('button', { name: FOOTAGE.upload }).click();
  const second = game.getByTestId('footage-row').filter({ hasText: 'Camera 2' });
  await second.getByText(FOOTAGE.undecodable).waitFor({ timeout: 60_000 });
  expect(await second.getByTestId('index-state').textContent()).toBe(FOOTAGE.states.failed);
  expect(await second.getByRole('button', { name: FOOTAGE.reindex }).isEnabled()).toBe(true);
  await page.goto(`${product.url}/admin`);
  const job = page.getByRole('listitem').filter({ hasText: ADMIN.portal.jobLabels['faces.index-footage']! });
  await job.waitFor();
  await job.getByText(FOOTAGE.undecodable, { exact: true }).waitFor();
  expect(await job.getByText('Invalid data found').isVisible()).toBe(false);
  await job.getByText(ADMIN.portal.jobDetails).click();
  expect(await job.getByText('Invalid data found', { exact: false }).isVisible()).toBe(true);
  await shot(page, 'footage-failure-03-admin-home-1280');
  await expectAccessible(page, 'admin home with a failed index');
  await page.setViewportSize({ width: 390, height: 844 });
  await job.scrollIntoViewIfNeeded();
  await shot(page, 'footage-failure-03-admin-home-390');

  // A family asks for a reel of that game. Matching searched Camera 1 only: the review names
  // Camera 2 and why, and the family reads that a camera of their games is still being prepared.
  const family = await signUpByApi(product, 'Ava Stone');
  const { page: fp, errors: familyErrors } = await newPage(browser);
  await fp.goto(family.link);
  await fp.waitForURL('**/dashboard');
  await fp.getByRole('dialog').waitFor();
  await fp.keyboard.press('Escape'); // the tutorial
  const headers = { origin: product.url };
  expect((await fp.request.put(`${product.url}/api/profile/athlete`, { data: { birthday: '2010-03-14', guardianConsent: true }, headers })).status()).toBe(200);
  const faceCard = fp.getByTestId('face-matching');
  await faceCard.getByLabel(FACE_MATCHING.consentLabel).check();
  await faceCard.getByText(FACE_MATCHING.on).waitFor();
  await faceCard.getByLabel(FACE_MATCHING.addReference).setInputFiles(path.join(tmp, 'ava.jpg'));
  await fp.getByText(FACE_MATCHING.referenceAdded).waitFor({ timeout: 30_000 });
  const events = (await (await fp.request.get(`${product.url}/api/events`)).json()) as Array<{ id: string; games: Array<{ id: string; label: string }> }>;
  const austin = events.find((e) => e.id === 'austin-fall-league-2024')!;
  const gameId = austin.games.find((g) => g.label === 'Game 7 vs Hawks')!.id;
  expect((await fp.request.post(`${product.url}/api/requests`, { data: { eventId: austin.id, games: [gameId] }, headers })).status()).toBe(201);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${product.url}/admin/users`);
  const user = page.getByTestId('user-card').filter({ hasText: 'Ava Stone' });
  await user.getByRole('button', { name: ADMIN.requestButtons.received }).click();
  await page.getByRole('dialog').getByRole('button', { name: ADMIN.queue.confirm }).click();
  await user.getByRole('link', { name: REVIEW.link }).click();
  await page.getByRole('heading', { name: REVIEW.title }).waitFor();
  await page.getByTestId('matching-state').getByText(FOOTAGE.matchStates.ready!).waitFor({ timeout: 30_000 });
  const unsearched = page.getByTestId('unsearched-cameras');
  await unsearched.getByText(FOOTAGE.unsearchedTitle(1)).waitFor();
  await unsearched.getByText(FOOTAGE.unsearchedCamera('Game 7 vs Hawks', 'Camera 2', FOOTAGE.states.failed!, FOOTAGE.undecodable)).waitFor();
  await shot(page, 'footage-failure-04-review-1280');
  await expectAccessible(page, 'review with a camera not searched');

  await fp.reload();
  const reel = fp.getByTestId('reel-status');
  await reel.waitFor();
  expect(await reel.getAttribute('data-state')).toBe('finding');
  await reel.getByText(REEL_STATUS.camerasNotSearched(1)).waitFor();
  await reel.scrollIntoViewIfNeeded();
  await shot(fp, 'footage-failure-05-family-1280');
  await fp.setViewportSize({ width: 390, height: 844 });
  await reel.scrollIntoViewIfNeeded();
  await shot(fp, 'footage-failure-05-family-390');
  await expectAccessible(fp, 'family card with a camera not searched');

  fs.rmSync(refusing);
  expect(errors).toEqual([]);
  expect(familyErrors).toEqual([]);
}, 240_000);
