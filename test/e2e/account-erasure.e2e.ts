// Erasing an account in a real browser (issue 33), on a fresh `npm start`: a family closes its
// account from the dashboard (the tick, a wrong password, then the right one) and lands on the
// home page signed out; an admin erases another family from the users list by typing its address.
// Both dialogs go through the accessibility gate; screenshots at 1280px and 390px.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN } from '../../src/common/admin-messages';
import { CLOSE_ACCOUNT } from '../../src/common/dashboard-messages';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, newPage, shot, signUpByApi, startProduct, type Product } from './support';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

for (const width of [1280, 390]) {
  it(`a family closes its account from the dashboard (${width}px)`, async () => {
    const family = await signUpByApi(product, 'Nora Closing');
    const { page, errors } = await newPage(browser, width);
    await page.goto(family.link);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('tutorial').waitFor();
    await page.keyboard.press('Escape'); // the first-run tutorial
    await page.getByRole('button', { name: CLOSE_ACCOUNT.link }).click();
    const dialog = page.getByRole('dialog', { name: CLOSE_ACCOUNT.title });
    await dialog.waitFor();
    await dialog.getByLabel(CLOSE_ACCOUNT.passwordLabel).fill('wrong-password');
    await dialog.getByRole('button', { name: CLOSE_ACCOUNT.confirm }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(CLOSE_ACCOUNT.mustUnderstand);
    await dialog.getByLabel(CLOSE_ACCOUNT.understand).check();
    await dialog.getByRole('button', { name: CLOSE_ACCOUNT.confirm }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(CLOSE_ACCOUNT.wrongPassword);
    await shot(page, `erasure-01-close-account-${width}`);
    await expectAccessible(page, 'close account dialog');
    await dialog.getByLabel(CLOSE_ACCOUNT.passwordLabel).fill('secret123');
    await dialog.getByRole('button', { name: CLOSE_ACCOUNT.confirm }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText(CLOSE_ACCOUNT.done.title).waitFor();
    await shot(page, `erasure-02-closed-${width}`);
    // Signed out for good: the dashboard sends to sign-in, and signing in fails.
    const signIn = await page.request.post(`${product.url}/api/auth/sign-in/email`, { headers: { origin: product.url }, data: { email: family.email, password: 'secret123' } });
    expect(signIn.status()).toBe(401);
    // The wrong password's 400 is the one failed request the browser logs.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await page.context().close();
  }, 120_000);
}

it('an admin erases a family from the users list by typing its address', async () => {
  const admin = await signUpByApi(product, 'Ada Eraser');
  const family = await signUpByApi(product, 'Otto Erased');
  await fetch(family.link, { redirect: 'manual' });
  const first = await newPage(browser, 1280);
  await first.page.goto(admin.link);
  await first.page.waitForURL('**/dashboard');
  expect(await grantAdmin(product, admin.email, { page: first.page, password: 'secret123' })).toContain('is now an admin.');
  const signedIn = await first.context.storageState();
  await first.context.close();
  for (const width of [1280, 390]) {
    // The admin's session (past the second factor) in a browser of each width.
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, storageState: signedIn });
    const adminPage = await context.newPage();
    const errors: string[] = [];
    adminPage.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    adminPage.on('pageerror', (e) => errors.push(e.message));
    await adminPage.goto(`${product.url}/admin/users?q=${encodeURIComponent(family.email)}`);
    const card = adminPage.getByTestId('user-card').filter({ hasText: family.email });
    await card.getByRole('button', { name: ADMIN.users.erase.button }).click();
    const dialog = adminPage.getByRole('dialog', { name: ADMIN.users.erase.title });
    await dialog.waitFor();
    await dialog.getByLabel(ADMIN.users.erase.confirmLabel).fill('someone.else@example.com');
    await dialog.getByRole('button', { name: ADMIN.users.erase.confirm }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(ADMIN.users.erase.mismatch);
    await shot(adminPage, `erasure-03-admin-erase-${width}`);
    await expectAccessible(adminPage, 'admin erase dialog');
    if (width === 390) {
      await dialog.getByLabel(ADMIN.users.erase.confirmLabel).fill(family.email);
      await dialog.getByRole('button', { name: ADMIN.users.erase.confirm }).click();
      await adminPage.getByText(ADMIN.users.erase.done.title).waitFor();
      await expect.poll(() => adminPage.getByTestId('user-card').filter({ hasText: family.email }).count()).toBe(0);
      await shot(adminPage, `erasure-04-admin-erased-${width}`);
    } else await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(errors).toEqual([]);
    await context.close();
  }
}, 180_000);
