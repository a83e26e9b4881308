// The accessibility gate itself: it must fail on a deliberate violation and pass a clean page,
// or the checks in the other end-to-end tests would prove nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectAccessible } from './a11y';
import { launchBrowser, newPage } from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Gate test</title></head><body style="background:#0a0a0a;color:#f5f5f5"><main><h1>Gate</h1>${body}</main></body></html>`;

describe('the accessibility gate', () => {
  it('fails on deliberate serious violations, naming each rule', async () => {
    const { page: p, context } = await newPage(browser);
    await p.setContent(
      page(`<p style="color:#737373;background:#171717">Grey helper text</p>
            <button></button>
            <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
            <input type="text">`),
    );
    const error = await expectAccessible(p, 'deliberate violations').then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/color-contrast/);
    expect(error?.message).toMatch(/button-name/);
    expect(error?.message).toMatch(/image-alt/);
    expect(error?.message).toMatch(/label/);
    expect(error?.message).toContain('[1280px]');
    expect(error?.message).toContain('[390px]');
    await context.close();
  });

  it('passes a page without violations', async () => {
    const { page: p, context } = await newPage(browser);
    await p.setContent(page('<p>Readable text</p><button type="button">Save</button><label>Name <input type="text"></label>'));
    await expect(expectAccessible(p, 'clean page')).resolves.toBeUndefined();
    expect(p.viewportSize()?.width).toBe(1280);
    await context.close();
  });
});
