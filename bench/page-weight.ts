// What each public page makes a phone download before anyone touches it: the gzip size of the
// JavaScript, CSS and fonts it loads, as a table (and the page's HTML for reference). Starts the
// built product as its own process and opens each page at 390px in Chromium; a resource counts
// when it was requested before the page went quiet (load, then no request for 1.5 s).
//
//   npm run build && npx tsx bench/page-weight.ts [/path ...]
//
// `measurePageWeight` is also used by the end-to-end suite, which holds the pages to a budget.
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchBrowser, startProduct } from '../test/e2e/support';

export const PUBLIC_PAGES = ['/', '/about', '/contact', '/terms', '/auth'] as const;

export interface PageWeight {
  path: string;
  /** gzip bytes per kind of resource */
  js: number;
  css: number;
  font: number;
  html: number;
  files: Array<{ url: string; kind: string; gzip: number }>;
}

function kindOf(url: string, type: string): 'js' | 'css' | 'font' | 'html' | null {
  if (type === 'script' || /\.m?js(\?|$)/.test(url)) return 'js';
  if (type === 'stylesheet' || /\.css(\?|$)/.test(url)) return 'css';
  if (type === 'font' || /\.(woff2?|ttf|otf)(\?|$)/.test(url)) return 'font';
  if (type === 'document') return 'html';
  return null;
}

export async function measurePageWeight(browser: Browser, baseUrl: string, path: string): Promise<PageWeight> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const pending: Array<Promise<void>> = [];
  const weight: PageWeight = { path, js: 0, css: 0, font: 0, html: 0, files: [] };
  let last = Date.now();
  page.on('request', () => (last = Date.now()));
  page.on('response', (res) => {
    last = Date.now();
    const kind = kindOf(res.url(), res.request().resourceType());
    if (!kind || res.status() >= 300) return;
    pending.push(
      res.body().then(
        (body) => {
          // Fonts are compressed already; gzip would not shrink them.
          const size = kind === 'font' ? body.length : gzipSync(body, { level: 9 }).length;
          weight[kind] += size;
          weight.files.push({ url: new URL(res.url()).pathname, kind, gzip: size });
        },
        () => {},
      ),
    );
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
  while (Date.now() - last < 1500) await page.waitForTimeout(250);
  await Promise.all(pending);
  await context.close();
  return weight;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main() {
  const paths = process.argv.slice(2).length ? process.argv.slice(2) : [...PUBLIC_PAGES];
  const product = await startProduct();
  const browser = await launchBrowser();
  try {
    console.log('page'.padEnd(12), 'JS'.padStart(10), 'CSS'.padStart(10), 'fonts'.padStart(10), 'HTML'.padStart(10));
    for (const path of paths) {
      const w = await measurePageWeight(browser, product.url, path);
      console.log(path.padEnd(12), kb(w.js).padStart(10), kb(w.css).padStart(10), kb(w.font).padStart(10), kb(w.html).padStart(10));
      if (process.env.BENCH_DETAIL) for (const f of w.files) console.log('   ', f.kind.padEnd(5), kb(f.gzip).padStart(10), f.url);
    }
  } finally {
    await browser.close();
    await product.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
