// End-to-end harness: the built product started as `npm start` would start it (its own process,
// a fresh data folder, the outbox mailer), driven by playwright-core in Debian's Chromium.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/server/db/client';
import { user, userProfiles } from '../../src/server/db/schema';
import { createDiskStorage, type Storage } from '../../src/server/storage/storage';
import { freePort } from '../support/ports';
import { secretOfUri, totp } from '../support/totp';

export interface Product {
  url: string;
  dataDir: string;
  logs: string[];
  /** Stops the server; its data folder is removed unless `keepData`. */
  stop(keepData?: boolean): Promise<void>;
  /** Kills the server outright (SIGKILL, as a crash or a pulled plug would); the data stays. */
  kill(): Promise<void>;
}

export async function startProduct(
  env: Record<string, string> = {},
  opts: { dataDir?: string; port?: number; entry?: string; demoEvents?: boolean } = {},
): Promise<Product> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'giot-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const logs: string[] = [];
  const productEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: url, DATA_DIR: dataDir, SMTP_URL: '', DATABASE_URL: '', ...env };
  // A fresh install has no events; the journeys use the sample ones, added as a provider would.
  if (!opts.dataDir && opts.demoEvents !== false) {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', 'src/server/cli/admin.ts', 'seed-demo'], { env: productEnv }, (error, stdout, stderr) =>
        error ? reject(new Error(`seed:demo failed: ${stderr || stdout}`)) : resolve(),
      ),
    );
  }
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', opts.entry ?? 'src/server/main.ts'], {
    env: productEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => logs.push(String(d)));
  child.stderr!.on('data', (d) => logs.push(String(d)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok).catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    logs,
    async stop(keepData = false) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export async function newPage(browser: Browser, width = 1280): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: width > 800 ? 800 : 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

/** Waits for an outbox mail to `to` whose subject contains `subject`; returns its first link. */
export async function mailLink(product: Product, to: string, subject: string, after = 0): Promise<string> {
  const dir = path.join(product.dataDir, 'mail');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    for (const f of files) {
      const full = path.join(dir, f);
      if (fs.statSync(full).mtimeMs < after) continue;
      const mail = await simpleParser(fs.readFileSync(full));
      const recipients = JSON.stringify(mail.to ?? '');
      if (recipients.includes(to) && mail.subject?.includes(subject)) {
        const link = /https?:\/\/\S+/.exec(mail.text ?? '')?.[0];
        if (link) return link;
      }
    }
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail to ${to} in the outbox`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? path.join(os.tmpdir(), 'giot-e2e-shots');

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Signs up through the API as the simple form would; returns the address and its confirmation link. */
export async function signUpByApi(product: Product, fullName: string): Promise<{ email: string; link: string }> {
  const email = `${fullName.split(' ')[0]!.toLowerCase()}.${Date.now()}@example.com`;
  const res = await fetch(`${product.url}/api/account/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: product.url },
    body: JSON.stringify({ fullName, email, password: 'secret123' }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return { email, link: await mailLink(product, email, 'Confirm') };
}

/**
 * A product with a signed-up user and data put in place while it was stopped (PGlite allows one
 * process at a time): signs up `fullName`, stops the server, lets `seed` write to its database
 * and storage (the tutorial is marked done), and starts it again on the same port and folder.
 */
export async function startSeededProduct(
  fullName: string,
  seed: (ctx: { db: Database['db']; storage: Storage; userId: string }) => Promise<void>,
): Promise<{ product: Product; email: string; link: string }> {
  const first = await startProduct();
  const { email, link } = await signUpByApi(first, fullName);
  const port = Number(new URL(first.url).port);
  await first.stop(true);
  const database = await openDatabase({ url: null, pgliteDir: path.join(first.dataDir, 'db') });
  try {
    const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    await seed({ db: database.db, storage: createDiskStorage(path.join(first.dataDir, 'storage')), userId: row!.id });
    await database.db.update(userProfiles).set({ tutorialCompletedAt: new Date() }).where(eq(userProfiles.id, row!.id));
  } finally {
    await database.close();
  }
  return { product: await startProduct({}, { dataDir: first.dataDir, port }), email, link };
}

/**
 * Makes a confirmed account an admin with the product's own command, as the README says: `npm run
 * admin -- grant`. With `enrolIn`, the admin then enrols the second factor through the API in that
 * signed-in page (as the enrolment screen does: password, then a code from the app), so the page's
 * session reaches the admin area; the authenticator's secret comes back for later sign-ins.
 */
export async function grantAdmin(product: Product, email: string, enrolIn?: { page: Page; password: string }): Promise<string> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(path.join(root, 'node_modules/.bin/tsx'), ['src/server/cli/admin.ts', 'grant', email], { cwd: root, env: { ...process.env, DATA_DIR: product.dataDir } }, (error, out, stderr) =>
      error ? reject(new Error(stderr)) : resolve(out),
    ),
  );
  if (enrolIn) await enrolSecondFactorByApi(product, enrolIn.page, enrolIn.password);
  return stdout;
}

/** Enrols the signed-in admin of `page` in the second factor through the API; returns the secret (base32). */
export async function enrolSecondFactorByApi(product: Product, page: Page, password: string): Promise<string> {
  const headers = { origin: product.url };
  const enable = await page.request.post(`${product.url}/api/auth/two-factor/enable`, { headers, data: { password } });
  if (enable.status() !== 200) throw new Error(`enable: ${enable.status()} ${await enable.text()}`);
  const secret = secretOfUri(((await enable.json()) as { totpURI: string }).totpURI);
  const verify = await page.request.post(`${product.url}/api/auth/two-factor/verify-totp`, { headers, data: { code: totp(secret) } });
  if (verify.status() !== 200) throw new Error(`verify: ${verify.status()} ${await verify.text()}`);
  return secret;
}
