// A family with two athletes (issue 34, item 1; decision 0036), in a real browser on `npm start`:
// a parent on a phone adds a 10-year-old with the parent's consent, lands on her dashboard (which
// asks for her photo first), switches back to the older athlete and to her again, then removes her
// with the password; the admin sees the family in the users list and views the site as it.
// Screenshots at 390 and 1280px; the switcher and the dialog through the
// accessibility gate.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { anotherAthleteNote, FAMILY } from '../../src/common/family-messages';
import { ACCOUNT_EXISTS } from '../../src/common/messages';
import { PARENTAL_CONSENT } from '../../src/common/parental-consent-messages';
import { CLOSE_ACCOUNT } from '../../src/common/dashboard-messages';
import { ADMIN, IMPERSONATION } from '../../src/common/admin-messages';
import { userProfiles } from '../../src/server/db/schema';
import { expectAccessible } from './a11y';
import { grantAdmin, launchBrowser, mailLink, newPage, shot, signUpByApi, startSeededProduct, type Product } from './support';

let product: Product;
let browser: Browser;
let link: string;
let email: string;

/** YYYY-MM-DD of someone who turned `years` half a year ago. */
function birthdayAtAge(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCMonth(d.getUTCMonth() - 6);
  return d.toISOString().slice(0, 10);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const started = await startSeededProduct('Jordan Reyes', async ({ db, userId }) => {
    await db
      .update(userProfiles)
      .set({ dateOfBirth: birthdayAtAge(15), guardianConsentAt: new Date(), holderName: 'Maria Reyes', teamName: 'U16 Rockets', jerseyNumber: 11 })
      .where(eq(userProfiles.id, userId));
  });
  ({ product, link, email } = started);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const switcher = (page: Page) => page.getByRole('navigation', { name: FAMILY.switcherLabel });

/** The first-visit tutorial a new athlete's dashboard opens with, walked to its end. */
async function finishTutorial(page: Page) {
  const tutorial = page.getByTestId('tutorial');
  await tutorial.waitFor();
  const done = tutorial.getByRole('button', { name: 'Done' });
  for (let i = 0; i < 8 && !(await done.isVisible()); i++) await tutorial.getByRole('button', { name: 'Next' }).click();
  await done.click();
  await tutorial.waitFor({ state: 'detached' });
}

let phone: Awaited<ReturnType<typeof newPage>>;

it('a parent adds a 10-year-old on a phone and switches between the athletes', async () => {
  phone = await newPage(browser, 390);
  const { page, errors } = phone;
  await page.goto(link);
  await page.waitForURL('**/dashboard');
  const nav = switcher(page);
  await expect.poll(() => nav.getByRole('button', { name: 'Jordan' }).getAttribute('aria-pressed')).toBe('true');
  await shot(page, 'family-01-one-athlete-390');

  await nav.getByRole('button', { name: FAMILY.add }).click();
  const dialog = page.getByRole('dialog', { name: FAMILY.addTitle });
  await dialog.getByLabel('First Name').fill('Lily');
  await dialog.getByLabel('Last Name').fill('Reyes');
  await dialog.getByLabel('Birthday').fill(birthdayAtAge(10));
  await dialog.getByLabel('Team Name').fill('U10 Comets');
  await dialog.getByLabel(/Jersey Number/).fill('7');
  // Under 13: no consent, no athlete; the message says what is missing.
  await dialog.getByRole('button', { name: FAMILY.addSubmit }).click();
  await dialog.getByRole('alert').first().waitFor();
  await dialog.locator('input[name="guardianConsent"]').check();
  await dialog.getByLabel(PARENTAL_CONSENT.parentName).fill('Maria Reyes');
  await dialog.getByLabel(PARENTAL_CONSENT.label).check();
  await expectAccessible(page, 'add athlete dialog (390)');
  await shot(page, 'family-02-add-athlete-390');
  await dialog.getByRole('button', { name: FAMILY.addSubmit }).click();

  // Her dashboard: the switcher on Lily, her name on the profile, the tutorial asking for her photo.
  await page.waitForURL('**/dashboard');
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Lily' }).getAttribute('aria-pressed')).toBe('true');
  await shot(page, 'family-03-new-athlete-tutorial-390');
  await finishTutorial(page);
  await page.getByRole('heading', { name: /Lily/ }).first().waitFor();
  await expectAccessible(page, 'dashboard with two athletes (390)');
  await shot(page, 'family-04-lily-390');
  // The consent mail went to the family's address; its link opens the dashboard on Lily.
  const consentLink = await mailLink(product, email, 'Your consent for Lily');
  expect(consentLink).toMatch(new RegExp(`^${product.url}/dashboard\\?athlete=[\\w-]+$`));

  // The same family on a laptop.
  const laptop = await newPage(browser, 1280);
  await laptop.context.addCookies(await page.context().cookies());
  await laptop.page.goto(`${product.url}/dashboard`);
  await laptop.page.waitForURL('**/dashboard');
  await switcher(laptop.page).getByRole('button', { name: 'Lily' }).waitFor();
  await shot(laptop.page, 'family-05-switcher-1280');
  await laptop.context.close();

  // Back to Jordan; then the mail's link about Lily opens her dashboard, and the address bar forgets it.
  await switcher(page).getByRole('button', { name: 'Jordan' }).click();
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Jordan' }).getAttribute('aria-pressed')).toBe('true');
  await page.getByRole('heading', { name: /Jordan/ }).first().waitFor();
  await page.goto(consentLink);
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Lily' }).getAttribute('aria-pressed')).toBe('true');
  await expect.poll(() => page.url()).toBe(`${product.url}/dashboard`);
  await switcher(page).getByRole('button', { name: 'Jordan' }).click();
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Jordan' }).getAttribute('aria-pressed')).toBe('true');
  await switcher(page).getByRole('button', { name: 'Lily' }).click();
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Lily' }).getAttribute('aria-pressed')).toBe('true');
  expect(errors).toEqual([]);
}, 240_000);

it('the admin sees the family on each athlete’s card, and View as User on Lily opens the family on her', async () => {
  const admin = await signUpByApi(product, 'Ada Family');
  const first = await newPage(browser, 1280);
  await first.page.goto(admin.link);
  await first.page.waitForURL('**/dashboard');
  await grantAdmin(product, admin.email, { page: first.page, password: 'secret123' });
  const adminPage = first.page;
  await adminPage.goto(`${product.url}/admin/users?q=${encodeURIComponent(email)}`);
  const lines = adminPage.getByTestId('family-line');
  await expect.poll(() => lines.allTextContents()).toEqual([
    expect.stringContaining(ADMIN.users.family('Maria Reyes', 2)),
    expect.stringContaining(ADMIN.users.family('Maria Reyes', 2)),
  ]);
  await expectAccessible(adminPage, 'admin users list with a family');
  await shot(adminPage, 'family-07-admin-users-1280');
  const lily = adminPage.getByTestId('user-card').filter({ hasText: 'Lily Reyes' });
  await lily.getByRole('button', { name: IMPERSONATION.viewAsUser }).click();
  await adminPage.waitForURL('**/dashboard');
  await expect.poll(() => switcher(adminPage).getByRole('button', { name: 'Lily' }).getAttribute('aria-pressed')).toBe('true');
  // Viewing as the family: switching, but no adding or removing.
  expect(await switcher(adminPage).getByRole('button', { name: FAMILY.add }).count()).toBe(0);
  await shot(adminPage, 'family-08-view-as-1280');
  expect(first.errors).toEqual([]);
  await first.context.close();
}, 240_000);

it('the parent removes Lily with the password', async () => {
  const { page, errors } = phone;
  // Removing her: the tick and the password.
  await switcher(page).getByRole('button', { name: FAMILY.remove }).click();
  const remove = page.getByRole('dialog', { name: FAMILY.removeTitle('Lily') });
  await remove.getByLabel(CLOSE_ACCOUNT.understand).check();
  await remove.getByLabel(CLOSE_ACCOUNT.passwordLabel).fill('wrong-password');
  await remove.getByRole('button', { name: FAMILY.removeConfirm }).click();
  await remove.getByText(CLOSE_ACCOUNT.wrongPassword).waitFor();
  await shot(page, 'family-06-remove-390');
  await remove.getByLabel(CLOSE_ACCOUNT.passwordLabel).fill('secret123');
  await remove.getByRole('button', { name: FAMILY.removeConfirm }).click();
  await page.waitForURL('**/dashboard');
  await expect.poll(() => switcher(page).getByRole('button').allTextContents()).not.toContain('Lily');
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Jordan' }).getAttribute('aria-pressed')).toBe('true');
  // The wrong password's 400 is the one the browser logs.
  expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
}, 240_000);

it('a parent who registers a second child with the family’s address signs in and finds Add athlete filled in with what they typed', async () => {
  const { page, errors } = await newPage(browser, 390);
  await page.goto(`${product.url}/signup`);
  await page.getByLabel('First Name').fill('Rosa');
  await page.getByLabel('Last Name').fill('Reyes');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Username').fill(`rosa${Date.now() % 100000}`);
  await page.getByLabel('Password').fill('secret123');
  await page.getByLabel('Birthday').fill(birthdayAtAge(12));
  await page.getByLabel('State').selectOption('Texas');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('Team Name').fill('U12 Stars');
  await page.getByLabel(/Jersey Number/).fill('9');
  await page.getByLabel('Event').selectOption({ label: 'Austin Fall League' });
  await page.getByRole('checkbox', { name: /I am this athlete's parent or legal guardian, and I agree/ }).check();
  await page.getByLabel(PARENTAL_CONSENT.parentName).fill('Maria Reyes');
  await page.getByLabel(PARENTAL_CONSENT.label).check();
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  // The spec's "Account Already Exists", then the way on: sign in, and Rosa is waiting.
  await page.waitForURL('**/auth?email=**');
  await page.getByText(ACCOUNT_EXISTS.title).waitFor();
  await page.getByText(anotherAthleteNote('Rosa')).waitFor();
  await shot(page, 'family-09-account-exists-390');
  await page.getByLabel('Password').fill('secret123');
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.waitForURL('**/dashboard');
  const dialog = page.getByRole('dialog', { name: FAMILY.addTitle });
  await dialog.waitFor();
  expect(await dialog.getByLabel('First Name').inputValue()).toBe('Rosa');
  expect(await dialog.getByLabel('Birthday').inputValue()).toBe(birthdayAtAge(12));
  expect(await dialog.getByLabel('Team Name').inputValue()).toBe('U12 Stars');
  expect(await dialog.getByLabel(/Jersey Number/).inputValue()).toBe('9');
  // The consents are the parent's to give again here, never carried over.
  await dialog.locator('input[name="guardianConsent"]').check();
  await dialog.getByLabel(PARENTAL_CONSENT.parentName).fill('Maria Reyes');
  await dialog.getByLabel(PARENTAL_CONSENT.label).check();
  await shot(page, 'family-10-add-prefilled-390');
  await dialog.getByRole('button', { name: FAMILY.addSubmit }).click();
  await page.waitForURL('**/dashboard');
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Rosa' }).getAttribute('aria-pressed')).toBe('true');
  // Only the 409 of the registration is logged by the browser.
  expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
}, 240_000);

it('the parent erases the account’s own athlete on its own: Rosa stays and opens the dashboard', async () => {
  const { page, errors } = await newPage(browser, 1280);
  await page.goto(`${product.url}/auth?email=${encodeURIComponent(email)}`);
  await page.getByLabel('Password').fill('secret123');
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.waitForURL('**/dashboard');
  await switcher(page).getByRole('button', { name: 'Jordan' }).click();
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Jordan' }).getAttribute('aria-pressed')).toBe('true');
  await switcher(page).getByRole('button', { name: FAMILY.remove }).click();
  const remove = page.getByRole('dialog', { name: FAMILY.removeTitle('Jordan') });
  await remove.getByLabel(CLOSE_ACCOUNT.understand).check();
  await remove.getByLabel(CLOSE_ACCOUNT.passwordLabel).fill('secret123');
  await remove.getByRole('button', { name: FAMILY.removeConfirm }).click();
  await page.waitForURL('**/dashboard');
  await expect.poll(() => switcher(page).getByRole('button', { name: 'Rosa' }).getAttribute('aria-pressed')).toBe('true');
  await expect.poll(() => switcher(page).getByRole('button').allTextContents()).not.toContain('Jordan');
  // Rosa is the family's last athlete now: she goes only with the account.
  expect(await switcher(page).getByRole('button', { name: FAMILY.remove }).count()).toBe(0);
  await shot(page, 'family-11-own-athlete-erased-1280');
  expect(errors).toEqual([]);
}, 120_000);
