// An admin's video upload in a real browser (issue 23): the dialog's tus-js-client sends 8 MB
// chunks to the server's direct data path (uploads/tus-patch.ts). The uplink is slowed, and the
// server is killed half-way (a crash, a pulled plug) and started again: the browser's retries find
// it back, the upload carries on from where the server says it stopped, and the original stored is
// the picked file byte for byte. (Cutting the browser's network instead would not test the
// server: tus-js-client gives up at once while the browser says it is offline.)
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN } from '../../src/common/admin-messages';
import { makeVideo } from '../support/videos';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

const MB = 1024 * 1024;
let product: Product;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-upload-'));

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A real MP4 followed by one 'free' box of random bytes: `bytes` long, and still a whole MP4. */
function bigVideo(bytes: number): string {
  const head = fs.readFileSync(makeVideo({ container: 'mp4', seconds: 2 }));
  const free = Buffer.alloc(8);
  free.writeUInt32BE(bytes - head.length, 0);
  free.write('free', 4, 'latin1');
  const file = path.join(tmp, 'game-day.mp4');
  fs.writeFileSync(file, Buffer.concat([head, free, randomBytes(bytes - head.length - 8)]));
  return file;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];

it('an upload cut off half-way by a server restart resumes by itself, and the stored original is the file byte for byte', async () => {
  const athlete = await signUpByApi(product, 'Ava Athlete');
  const admin = await signUpByApi(product, 'Uma Uploader');
  const { page, errors } = await newPage(browser);
  await page.goto(admin.link);
  await page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page, password: 'secret123' });
  // No worker from here on: the original stays in storage as it arrived, to be compared. The
  // session lives in the database, so the page stays signed in.
  const port = Number(new URL(product.url).port);
  await product.stop(true);
  product = await startProduct({ RUN_WORKER: '0' }, { dataDir: product.dataDir, port });

  const file = bigVideo(24 * MB);
  await page.goto(`${product.url}/admin/users`);
  await page.getByPlaceholder(ADMIN.users.searchPlaceholder).fill(athlete.email);
  const card = page.getByTestId('user-card').filter({ hasText: 'Ava Athlete' });
  await card.getByRole('button', { name: ADMIN.users.uploadVideo }).click();
  const dialog = page.getByRole('dialog', { name: ADMIN.video.title });
  await dialog.getByLabel(ADMIN.video.titleLabel).fill('Game Day');
  await dialog.getByLabel(ADMIN.video.fileLabel).setInputFiles(file);
  await dialog.getByRole('radio', { name: ADMIN.video.notPaid }).check();

  // A slow uplink (4 MB/s), so the cut lands in the middle of the upload.
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/admin/uploads')) requests.push(r.method());
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * MB });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  const uploads = path.join(product.dataDir, 'uploads');
  const partial = () => filesUnder(uploads).filter((f) => !f.endsWith('.json')).map((f) => fs.statSync(f).size)[0] ?? 0;
  // Cut once the first chunk is stored and the second is on its way.
  await expect.poll(partial, { timeout: 30_000, interval: 50 }).toBeGreaterThan(9 * MB);
  await shot(page, 'upload-resume-01-uploading-1280');
  await product.kill();
  const atCut = partial();
  expect(atCut).toBeLessThan(24 * MB);
  product = await startProduct({ RUN_WORKER: '0' }, { dataDir: product.dataDir, port });
  await page.getByText(ADMIN.video.uploaded.afterPayment).waitFor({ timeout: 60_000 });
  await expectAccessible(page, 'users page after a resumed upload');
  await shot(page, 'upload-resume-02-done-1280');

  // tus-js-client asked where to go on (HEAD) and sent the rest from there.
  expect(requests.filter((m) => m === 'HEAD').length).toBeGreaterThanOrEqual(1);
  expect(requests.filter((m) => m === 'PATCH').length).toBeGreaterThanOrEqual(4);
  const originals = filesUnder(path.join(product.dataDir, 'storage')).filter((f) => f.endsWith('.source'));
  expect(originals).toHaveLength(1);
  expect(sha(fs.readFileSync(originals[0]!))).toBe(sha(fs.readFileSync(file)));
  expect(filesUnder(uploads)).toEqual([]);
  // The cut shows as failed requests in the console while the server was away; nothing else.
  expect(errors.filter((e) => !/Failed to load resource|net::ERR_/.test(e))).toEqual([]);
});
