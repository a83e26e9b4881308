import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CONTACT } from '../../src/common/messages';
import { expectAccessible } from './a11y';
import { launchBrowser, newPage, shot, startProduct } from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function fillContact(page: Page) {
  const form = page.locator('form');
  await form.getByLabel('First Name').fill('Casey');
  await form.getByLabel('Last Name').fill('Morgan');
  await form.getByLabel('Email').fill('casey@example.com');
  await form.getByLabel('Subject').fill('Filming our spring league');
  await form.getByLabel('Message', { exact: true }).fill('Do you film 14U games in Dallas?');
}

it('sends a message, mails the team and the sender, and resets the form', async () => {
  const product = await startProduct();
  try {
    const { page, errors } = await newPage(browser);
    await page.goto(`${product.url}/contact`);
    await page.getByRole('heading', { name: CONTACT.formTitle }).waitFor();
    await page.getByRole('heading', { name: CONTACT.panelTitle }).waitFor();
    await expectAccessible(page, 'contact');
    await page.getByRole('button', { name: 'SEND MESSAGE' }).click();
    await page.getByText('First name is required').waitFor();
    await expectAccessible(page, 'contact with errors');
    await fillContact(page);
    await page.getByRole('button', { name: 'SEND MESSAGE' }).click();
    await page.getByText(CONTACT.success.title).waitFor();
    expect(await page.getByLabel('First Name').inputValue()).toBe('');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    await shot(page, 'contact-01-sent');
    // The team's copy and the acknowledgement leave through the mail queue.
    const outbox = path.join(product.dataDir, 'mail');
    await expect.poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0), { timeout: 10_000 }).toBe(2);
    expect(errors).toEqual([]);
  } finally {
    await product.stop();
  }
});

it('keeps the values and shows the failure toast and alert when the message cannot be sent', async () => {
  const product = await startProduct();
  try {
    const { page } = await newPage(browser);
    // The connection drops on the way to the server.
    await page.route('**/api/contact', (route) => route.abort('connectionreset'));
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${product.url}/contact`);
    await fillContact(page);
    await page.getByRole('button', { name: 'SEND MESSAGE' }).click();
    await page.getByText(CONTACT.failure.title).waitFor({ timeout: 20_000 });
    expect(alerts).toEqual([CONTACT.failureAlert]);
    expect(await page.getByLabel('First Name').inputValue()).toBe('Casey');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('Do you film 14U games in Dallas?');
  } finally {
    await product.stop();
  }
});
