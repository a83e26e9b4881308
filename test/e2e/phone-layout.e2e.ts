// A parent's phone (issue 22, items 1 and 5): every screen a parent meets fits 390 px and 320 px
// wide in every state of the dashboard (new account, request pending, ready to purchase, paid and
// being processed, delivered with reels and 12 photos, long names), nothing reaching past the
// screen's right edge; the photos open full size in a viewer (buttons, arrow keys, swipe, Escape)
// and every download is saved under the family's name.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DASHBOARD, PHOTO_VIEWER } from '../../src/common/dashboard-messages';
import { openDatabase } from '../../src/server/db/client';
import { highlightRequests, orders, user, userProfiles, userStills, userVideos } from '../../src/server/db/schema';
import { createDiskStorage, type Storage } from '../../src/server/storage/storage';
import { expectAccessible } from './a11y';
import { launchBrowser, newPage, shot, SHOTS_DIR, signUpByApi, startProduct, type Product } from './support';

const PHONE_WIDTHS = [390, 320] as const;
const CHICAGO = { eventId: 'chicago-3v3-2024', event: 'Chicago 3v3 (Chicago, IL, Nov 9)' };

/** A long, unbroken name, a long team and (from the first name) a long e-mail address. */
const LONG = {
  fullName: 'Maximiliana-Alexandrina Wolfeschlegelsteinhausenbergerdorff',
  team: 'Northside Thunderbolts Elite Basketball Academy Under-14 Girls Travel Team',
};

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];
interface Family {
  state: string;
  fullName: string;
  email: string;
  link: string;
  userId: string;
  context?: BrowserContext;
  page?: Page;
}

let product: Product;
let browser: Browser;
const families: Family[] = [];

/** The profile a reel request needs: a birthday (15 and a half years ago) and a guardian's agreement. */
const birthday = new Date(Date.now() - 15.5 * 365.25 * 24 * 3600_000).toISOString().slice(0, 10);
async function completeProfile(db: Db, userId: string, values: Partial<typeof userProfiles.$inferInsert> = {}) {
  await db
    .update(userProfiles)
    .set({ dateOfBirth: birthday, guardianConsentAt: new Date(), tutorialCompletedAt: new Date(), ...values })
    .where(eq(userProfiles.id, userId));
}

async function putVideo(storage: Storage, userId: string, id: string, file: string) {
  const key = `user-videos/${userId}/${id}.mp4`;
  await storage.put(key, fs.readFileSync(file), 'video/mp4');
  return key;
}

/** Each state of the dashboard, put in place while the product is stopped (PGlite is one process). */
const SEEDS: Record<string, (db: Db, storage: Storage, userId: string) => Promise<void>> = {
  // A new account: nothing but the quick sign-up (no birthday yet, so "finish the profile" shows).
  empty: async (db, _storage, userId) => {
    await db.update(userProfiles).set({ tutorialCompletedAt: new Date() }).where(eq(userProfiles.id, userId));
  },
  requested: async (db, _storage, userId) => {
    await completeProfile(db, userId, { teamName: 'Austin Elite', jerseyNumber: 7 });
    await db.insert(highlightRequests).values({ userId, status: 'pending', ...CHICAGO, games: [] });
  },
  ready: async (db, storage, userId) => {
    await completeProfile(db, userId, { teamName: LONG.team, jerseyNumber: 23 });
    const [request] = await db.insert(highlightRequests).values({ userId, status: 'ready_to_purchase', ...CHICAGO, games: [] }).returning();
    const id = '51111111-1111-4111-8111-111111111111';
    const key = await putVideo(storage, userId, id, 'public/hero/desktop.mp4');
    await db.insert(userVideos).values({ id, userId, videoTitle: 'Chicago Highlight Reel', videoUrl: key, isVisible: false, isPaid: false, requestId: request!.id, width: 1280, height: 720 });
  },
  // Paid, and the reel is still being made: "Video Being Processed".
  processing: async (db, _storage, userId) => {
    await completeProfile(db, userId, { teamName: 'Austin Elite', jerseyNumber: 12 });
    const [request] = await db.insert(highlightRequests).values({ userId, status: 'ready_to_purchase', ...CHICAGO, games: [] }).returning();
    await db.insert(orders).values({ provider: 'local', userId, requestId: request!.id, amount: 15000, status: 'completed', completedAt: new Date(), stripeSessionId: `cs_test_${userId}` });
    await db.insert(userVideos).values({
      userId,
      videoTitle: 'Highlight Reel',
      tournamentName: CHICAGO.event,
      videoType: 'highlight_reel',
      videoUrl: null,
      isVisible: true,
      isPaid: true,
      processingState: 'processing',
      processingProgress: 40,
      requestId: request!.id,
    });
  },
  // Delivered: the horizontal reel, the vertical social cut, an upload for no request, 12 photos;
  // the long name, team and e-mail.
  delivered: async (db, storage, userId) => {
    await completeProfile(db, userId, { teamName: LONG.team, jerseyNumber: 99, phone: '+1 (512) 555-0123', city: 'Round Rock', state: 'TX', username: 'maximiliana_wolfeschlegelsteinhausen' });
    const [request] = await db.insert(highlightRequests).values({ userId, status: 'delivered', ...CHICAGO, games: [] }).returning();
    await db.insert(orders).values({ provider: 'local', userId, requestId: request!.id, amount: 15000, status: 'completed', completedAt: new Date(), stripeSessionId: `cs_test_${userId}` });
    const ids = ['61111111-1111-4111-8111-111111111111', '62222222-2222-4222-8222-222222222222', '63333333-3333-4333-8333-333333333333'];
    const now = Date.now();
    await db.insert(userVideos).values([
      { id: ids[0], userId, videoTitle: 'Highlight Reel', tournamentName: CHICAGO.event, videoType: 'highlight_reel', requestId: request!.id, videoUrl: await putVideo(storage, userId, ids[0]!, 'public/hero/desktop.mp4'), isVisible: true, isPaid: true, width: 1280, height: 720, createdAt: new Date(now) },
      { id: ids[1], userId, videoTitle: 'Social Cut', tournamentName: CHICAGO.event, videoType: 'social_cut', requestId: request!.id, videoUrl: await putVideo(storage, userId, ids[1]!, 'public/hero/mobile.mp4'), isVisible: true, isPaid: true, width: 720, height: 1280, createdAt: new Date(now) },
      { id: ids[2], userId, videoTitle: 'Championship Game vs Lakeway Lightning: Full Second Half', tournamentName: 'Austin Fall League Championship Weekend', videoType: 'full_video', videoUrl: await putVideo(storage, userId, ids[2]!, 'public/hero/desktop.mp4'), isVisible: true, isPaid: true, width: 1280, height: 720, createdAt: new Date(now - 3600_000) },
    ]);
    const pictures = ['public/about/cover.jpg', 'public/hero/desktop.jpg', 'public/hero/mobile.jpg'];
    for (let i = 0; i < 12; i++) {
      const key = `user-stills/${userId}/still-${i}.jpg`;
      await storage.put(key, fs.readFileSync(pictures[i % pictures.length]!), 'image/jpeg');
      await db.insert(userStills).values({ userId, storageUrl: key, orderPosition: i, requestId: request!.id, originalFilename: `IMG_${1000 + i}.jpg` });
    }
  },
};

const NAMES: Record<string, string> = {
  empty: LONG.fullName,
  requested: 'Jordan Lee',
  ready: 'Sam Okafor',
  processing: 'Riley Chen',
  delivered: LONG.fullName,
};

beforeAll(async () => {
  browser = await launchBrowser();
  // One product for all the families: signed up, stopped, seeded, started again on its folder.
  const first = await startProduct();
  for (const state of Object.keys(SEEDS)) {
    const { email, link } = await signUpByApi(first, NAMES[state]!);
    families.push({ state, fullName: NAMES[state]!, email, link, userId: '' });
  }
  const port = Number(new URL(first.url).port);
  await first.stop(true);
  const database = await openDatabase({ url: null, pgliteDir: path.join(first.dataDir, 'db') });
  try {
    const storage = createDiskStorage(path.join(first.dataDir, 'storage'));
    for (const family of families) {
      const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, family.email));
      family.userId = row!.id;
      await SEEDS[family.state]!(database.db, storage, family.userId);
    }
  } finally {
    await database.close();
  }
  product = await startProduct({}, { dataDir: first.dataDir, port });
}, 180_000);
afterAll(async () => {
  for (const f of families) await f.context?.close();
  await browser?.close();
  await product?.stop();
});

/**
 * What reaches past the right edge of the screen: the document's own width, and each visible
 * element whose box (clipped by its scrolling or hidden-overflow ancestors) ends beyond it,
 * named by tag, class and text. Only the outermost offender of a branch is named. A control or
 * text cut off by a card's hidden overflow is named too (clipping hides an overflow from the
 * first check, not from the parent); a carousel's slides (data-carousel) are meant to be cut.
 */
async function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: string[] = [];
    const docWidth = document.documentElement.scrollWidth;
    if (docWidth > width) problems.push(`document is ${docWidth}px wide on a ${width}px screen`);
    const offenders: Element[] = [];
    const cuts: Element[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let right = box.right;
      let left = box.left;
      let cutBy: Element | null = null;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible') {
          const clip = a.getBoundingClientRect();
          if (box.right > clip.right + 1 && !a.closest('[data-carousel]') && !cutBy) cutBy = a;
          right = Math.min(right, clip.right);
          left = Math.max(left, clip.left);
        }
      }
      if (left >= right) continue; // wholly clipped away, e.g. a carousel slide off screen
      if (right > width + 0.5 && !offenders.some((o) => o.contains(el))) offenders.push(el);
      else if (cutBy && !cuts.some((o) => o.contains(el))) cuts.push(el);
    }
    const describe = (el: Element) => {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
      const cls = (el.getAttribute('class') ?? '').slice(0, 90);
      return `<${el.tagName.toLowerCase()} class="${cls}"> "${text}" ends at ${Math.round(el.getBoundingClientRect().right)}px`;
    };
    for (const el of offenders.slice(0, 8)) problems.push(describe(el));
    for (const el of cuts.slice(0, 8)) problems.push(`cut off by an ancestor's hidden overflow: ${describe(el)}`);
    return problems;
  });
}

/**
 * The overflow at each phone width, with a screenshot at each and at 1280 px: the whole page, or
 * for a full-screen dialog what the screen shows.
 */
async function checkWidths(page: Page, name: string, problems: string[], opts: { screenOnly?: boolean } = {}) {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const capture = (file: string) =>
    opts.screenOnly ? page.screenshot({ path: path.join(SHOTS_DIR, `${file}.png`) }).then(() => undefined) : shot(page, file);
  for (const width of PHONE_WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    await page.waitForTimeout(250);
    for (const p of await overflowProblems(page)) problems.push(`${name} at ${width}px: ${p}`);
    await capture(`phone-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(150);
  await capture(`phone-${name}-1280`);
}

async function signIn(family: Family): Promise<Page> {
  const { context, page } = await newPage(browser, 390);
  family.context = context;
  family.page = page;
  await page.goto(family.link);
  await page.waitForURL('**/dashboard');
  return page;
}

const section = (page: Page, title: string) => page.locator('section', { has: page.getByRole('heading', { name: title }) });

it('fits every public screen a parent meets at 390 px and 320 px', async () => {
  const { context, page } = await newPage(browser, 390);
  const problems: string[] = [];
  for (const pathname of ['/', '/auth', '/signup', '/verify-email', '/reset-password', '/about', '/contact', '/terms', '/privacy']) {
    await page.goto(`${product.url}${pathname}`);
    await page.waitForLoadState('networkidle');
    await checkWidths(page, `public${pathname === '/' ? '-home' : pathname.replace('/', '-')}`, problems);
  }
  await context.close();
  expect(problems).toEqual([]);
}, 120_000);

it('fits the dashboard at 390 px and 320 px in every state, long names included', async () => {
  const problems: string[] = [];
  const ready: Record<string, (page: Page) => Promise<unknown>> = {
    empty: (page) => section(page, DASHBOARD.cards.reels).getByText('Your reels will appear here once they are ready.').waitFor(),
    requested: (page) => page.getByTestId('open-request').waitFor(),
    ready: (page) => page.getByTestId('open-request').waitFor(),
    processing: (page) => section(page, DASHBOARD.cards.reels).getByText(DASHBOARD.videoProcessing).waitFor(),
    delivered: async (page) => {
      await section(page, DASHBOARD.cards.reels).locator('video').nth(2).waitFor();
      await expect.poll(() => section(page, DASHBOARD.cards.photos).getByRole('listitem').count()).toBe(12);
      // The photos load lazily: bring them into view so the screenshots show them.
      await section(page, DASHBOARD.cards.photos).scrollIntoViewIfNeeded();
      await expect.poll(() => section(page, DASHBOARD.cards.photos).locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    },
  };
  for (const family of families) {
    const page = await signIn(family);
    await ready[family.state]!(page);
    await page.waitForTimeout(300);
    await checkWidths(page, `dashboard-${family.state}`, problems);
  }
  expect(problems).toEqual([]);
}, 180_000);

it('opens a photo full size: next and previous by button, arrow key and swipe; Escape returns focus; downloads named for the family', async () => {
  const family = families.find((f) => f.state === 'delivered')!;
  const page = family.page ?? (await signIn(family));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const problems: string[] = [];
  const photos = section(page, DASHBOARD.cards.photos);
  await page.setViewportSize({ width: 390, height: 844 });

  await photos.getByRole('button', { name: PHOTO_VIEWER.open(1) }).click();
  const viewer = page.getByRole('dialog', { name: PHOTO_VIEWER.title });
  const counter = viewer.getByTestId('photo-counter');
  await expect.poll(() => counter.textContent()).toBe('Photo 1 of 12');
  await expect.poll(() => viewer.getByTestId('photo-full').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Fit to the screen: the whole photo is inside the viewport.
  const box = (await viewer.getByTestId('photo-full').boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  await checkWidths(page, 'photo-viewer', problems, { screenOnly: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, 'photo viewer');

  await viewer.getByRole('button', { name: PHOTO_VIEWER.next }).click();
  await expect.poll(() => counter.textContent()).toBe('Photo 2 of 12');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => counter.textContent()).toBe('Photo 3 of 12');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => counter.textContent()).toBe('Photo 2 of 12');
  await viewer.getByRole('button', { name: PHOTO_VIEWER.previous }).click();
  await viewer.getByRole('button', { name: PHOTO_VIEWER.previous }).click();
  await expect.poll(() => counter.textContent()).toBe('Photo 12 of 12');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => counter.textContent()).toBe('Photo 1 of 12');

  // Swipes (pointer events): left brings the next photo, right the previous; a short drag nothing.
  const stage = (await viewer.getByTestId('photo-stage').boundingBox())!;
  const y = stage.y + stage.height / 2;
  const drag = async (from: number, to: number) => {
    await page.mouse.move(from, y);
    await page.mouse.down();
    await page.mouse.move((from + to) / 2, y + 4, { steps: 3 });
    await page.mouse.move(to, y + 6, { steps: 3 });
    await page.mouse.up();
  };
  await drag(300, 120);
  await expect.poll(() => counter.textContent()).toBe('Photo 2 of 12');
  await drag(300, 120);
  await expect.poll(() => counter.textContent()).toBe('Photo 3 of 12');
  await drag(120, 300);
  await expect.poll(() => counter.textContent()).toBe('Photo 2 of 12');
  await drag(200, 170);
  await page.waitForTimeout(200);
  expect(await counter.textContent()).toBe('Photo 2 of 12');

  // Focus stays inside the viewer.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="photo-viewer"]')))).toBe(true);
  }

  // The viewer's Download saves the photo under the family's name.
  const [photo] = await Promise.all([page.waitForEvent('download'), viewer.getByRole('link', { name: PHOTO_VIEWER.download }).click()]);
  expect(photo.suggestedFilename()).toBe(`${family.fullName} – ${CHICAGO.event} – Photo 2.jpg`);

  // Escape closes it, and focus is back on the thumbnail of the photo last shown. The dialog's
  // focus scope hands focus back a task after it unmounts, so this waits for it.
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(PHOTO_VIEWER.open(2));

  // Each reel is saved under the family's name too: the request's event and the kind, or the upload's title.
  const reels = section(page, DASHBOARD.cards.reels);
  const downloadOf = async (title: string) => {
    const item = reels.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
    const [file] = await Promise.all([page.waitForEvent('download'), item.getByRole('button', { name: 'Download' }).click()]);
    return file.suggestedFilename();
  };
  expect(await downloadOf('Highlight Reel')).toBe(`${family.fullName} – ${CHICAGO.event} – Highlight Reel.mp4`);
  expect(await downloadOf('Social Cut')).toBe(`${family.fullName} – ${CHICAGO.event} – Social Cut.mp4`);
  expect(await downloadOf('Championship Game vs Lakeway Lightning: Full Second Half')).toBe(`${family.fullName} – Championship Game vs Lakeway Lightning Full Second Half.mp4`);

  // A photo's own Download link under the carousel gives the same name as the viewer's.
  const [still] = await Promise.all([page.waitForEvent('download'), photos.getByRole('link', { name: 'Download' }).nth(1).click()]);
  expect(still.suggestedFilename()).toBe(`${family.fullName} – ${CHICAGO.event} – Photo 2.jpg`);

  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
}, 120_000);
