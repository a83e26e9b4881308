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
import { ADMIN, FOOTAGE } from '../../src/common/admin-messages';
import { composeFootage } from '../support/face-footage';
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
  fs.rmSync(refusing);
  expect(errors).toEqual([]);
}, 240_000);
