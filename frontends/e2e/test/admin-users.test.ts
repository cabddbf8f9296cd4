/**
 * The back office's users screens in a real Chromium against the whole product with accounting-sync
 * and the QuickBooks emulator (spec orders §2 Admin users, §4, §5, §6, §8): staff create a company and
 * a customer (required messages, success text) and find them by search, suspend and enable the
 * customer, resend the welcome e-mail whose link sets a password, import from QuickBooks with the §5
 * rules; an admin does not see the Admins tab, a superadmin does; /admin is the staff landing page
 * (links and counts) and an unknown /admin path is not found. API calls only set up what is not
 * the subject (the QuickBooks connection) or read the figures the landing page must show.
 */
import { call } from '@decor/kit/testing';
import type { Page } from 'playwright-core';
import {
  ADMIN,
  connectDemoQuickBooks,
  linkMailCount,
  nextSetPasswordLink,
  openCreate,
  openImport,
  pickOption,
  qboCustomersNamed,
  SUPERADMIN,
} from './support/admin-users';
import { screenshot } from './support/browser';
import { FIRST_LOAD_MS, useBrowserStack } from './support/browser-fixture';
import { fromUserMenu, pathOf, signInFully, until, visible } from './support/ui';

const { product, open, signedInPage, fail } = useBrowserStack({ quickBooks: true, name: 'admin-users' });
let realmId: string;
/** A journey on a busy 2-core machine (each page is a fresh context; the import waits for the sync). */
const JOURNEY_MS = 240_000;
/** This run's names (the mail catcher is shared with other runs). */
const TAG = Date.now().toString(36).slice(-5);
const COMPANY = `Maple Hall ${TAG}`;
const CUSTOMER = {
  displayName: `Nora Quinn ${TAG}`,
  email: `nora.${TAG}@maplehall.example`,
  firstName: 'Nora',
  lastName: 'Quinn',
  phone: '512-555-0142',
  ownCompany: `Maple Hall Events ${TAG}`,
};

beforeAll(async () => {
  realmId = await connectDemoQuickBooks(product.api, `Admin Users Co ${TAG}`);
});

/** The users screen, reached as staff reach it: the user menu's Users. */
async function usersScreen(who: typeof ADMIN): Promise<Page> {
  const page = await signedInPage(who);
  await fromUserMenu(page, who.displayName, 'Users');
  await visible(page.getByRole('heading', { name: 'Users', exact: true }));
  expect(pathOf(page)).toBe('/admin/users');
  return page;
}

const requiredCount = (scope: ReturnType<Page['getByRole']>) =>
  scope.getByText('This field is required', { exact: true }).count();

it(
  'staff create a company and a customer under it, then find both by search',
  async () => {
    const page = await usersScreen(ADMIN);
    try {
      // An admin sees Customers and Companies, not Admins.
      await visible(page.getByRole('tab', { name: 'Customers' }));
      await visible(page.getByRole('tab', { name: 'Companies' }));
      expect(await page.getByRole('tab', { name: 'Admins' }).count()).toBe(0);

      // Company: every required field says so, the first is focused; Enter submits.
      let dialog = await openCreate(page, 'Company');
      expect(await dialog.getByRole('button', { name: 'Admin', exact: true }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await until(() => requiredCount(dialog), 5, 'five required messages');
      await until(
        () => dialog.getByLabel('Company', { exact: true }).evaluate((el) => el === document.activeElement),
        true,
        'the company field focused',
      );
      await screenshot(page, 'u1-company-required');
      await dialog.getByLabel('Company', { exact: true }).fill(COMPANY);
      await dialog.getByLabel('Street').fill('1 Main St');
      await dialog.getByLabel('City').fill('Austin');
      await dialog.getByLabel('State').fill('TX');
      await dialog.getByLabel('Zip code').fill('78702');
      await dialog.getByLabel('Zip code').press('Enter');
      await visible(dialog.getByText('A new user has been added!', { exact: true }));
      await screenshot(page, 'u2-company-added');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Customer: 'Please select a parent company', a valid e-mail, the rest required.
      dialog = await openCreate(page, 'Customer');
      await dialog.getByLabel('Email').fill('nora-at-nowhere');
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await visible(dialog.getByText('Please select a parent company', { exact: true }));
      await visible(dialog.getByText('Please provide a valid email address', { exact: true }));
      await until(() => requiredCount(dialog), 5, 'five required messages');
      await screenshot(page, 'u3-customer-required');
      await pickOption(page, dialog.getByLabel('Parent company'), COMPANY.slice(0, 10), COMPANY);
      await until(
        () => dialog.getByText('Please select a parent company', { exact: true }).count(),
        0,
        'the parent company chosen',
      );
      await dialog.getByLabel('Company', { exact: true }).fill(CUSTOMER.ownCompany);
      await dialog.getByLabel('Display name').fill(CUSTOMER.displayName);
      await dialog.getByLabel('Email').fill(CUSTOMER.email);
      await dialog.getByLabel('First name').fill(CUSTOMER.firstName);
      await dialog.getByLabel('Last name').fill(CUSTOMER.lastName);
      await dialog.getByLabel('Phone').fill(CUSTOMER.phone);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await visible(dialog.getByText('A new user has been added!', { exact: true }));
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Found by search: the customer by company prefix, the company by name prefix.
      const customers = page.getByRole('table', { name: 'Customers' });
      await page
        .getByRole('searchbox', { name: 'Search customers by company' })
        .fill(`maple hall events ${TAG}`);
      await visible(customers.getByRole('link', { name: CUSTOMER.displayName }));
      await until(() => customers.locator('tbody tr.ant-table-row').count(), 1, 'one customer found');
      await page.getByRole('tab', { name: 'Companies' }).click();
      const companies = page.getByRole('table', { name: 'Companies' });
      await page.getByRole('searchbox', { name: 'Search companies by name' }).fill(COMPANY.slice(0, 12));
      await visible(companies.getByRole('link', { name: COMPANY }));
      await page.getByRole('searchbox', { name: 'Search companies by name' }).fill(`${COMPANY}zz`);
      await visible(page.getByText('Nothing was found', { exact: true }));
      await page.getByRole('searchbox', { name: 'Search companies by name' }).fill(COMPANY);
      await companies.getByRole('link', { name: COMPANY }).click();

      // The company's page: its details and its customers.
      await visible(page.getByRole('heading', { name: COMPANY }));
      await visible(page.getByText('1 Main St, Austin, TX 78702', { exact: true }));
      await page.getByRole('link', { name: CUSTOMER.displayName }).click();
      await visible(page.getByRole('heading', { name: new RegExp(CUSTOMER.displayName) }));
      await visible(page.getByText(CUSTOMER.email, { exact: true }));
      await visible(page.getByText(CUSTOMER.ownCompany, { exact: true }));
      await visible(page.getByRole('link', { name: COMPANY }));
      // That user's orders (none yet).
      await visible(page.getByRole('searchbox', { name: 'Search by estimate ID' }));
      await visible(page.getByText('Nothing was found', { exact: true }));
      await screenshot(page, 'u4-customer-page');
    } catch (err) {
      await fail(page, 'u-create-failed')(err);
    }
  },
  JOURNEY_MS,
);

it(
  'staff suspend and enable the customer, resend the welcome e-mail; its link sets a password',
  async () => {
    const page = await usersScreen(ADMIN);
    try {
      await page.getByRole('searchbox', { name: 'Search customers by company' }).fill(CUSTOMER.ownCompany);
      await page.getByRole('link', { name: CUSTOMER.displayName }).click();
      await visible(page.getByRole('heading', { name: new RegExp(CUSTOMER.displayName) }));
      const userId = pathOf(page).split('/').at(-1) ?? '';
      const staffToken = (await page.evaluate(() => sessionStorage.getItem('token'))) ?? '';
      const active = async () =>
        (await call(product.api, `/user/${userId}`, { token: staffToken })).body?.result?.active as boolean;

      await page.getByRole('button', { name: 'Suspend' }).click();
      await visible(page.getByRole('button', { name: 'Enable' }));
      await visible(page.getByText('This user is suspended and cannot sign in.', { exact: true }));
      await until(active, false, 'suspended on the server');
      await screenshot(page, 'u5-suspended');
      await page.getByRole('button', { name: 'Enable' }).click();
      await visible(page.getByRole('button', { name: 'Suspend' }));
      await until(active, true, 'enabled on the server');

      const before = await linkMailCount(CUSTOMER.email);
      await page.getByRole('button', { name: 'Resend welcome email' }).click();
      await visible(page.getByText('The welcome email has been sent', { exact: true }));
      const link = await nextSetPasswordLink(CUSTOMER.email, before);

      // The customer follows the link in a browser of their own and sets a password.
      const own = await open();
      await own.goto(link, { timeout: FIRST_LOAD_MS });
      await visible(own.getByRole('heading', { level: 1, name: 'Reset Your Password' }));
      await own.getByLabel('Password', { exact: true }).fill('maple-lights-42');
      await own.getByLabel('Confirm Password', { exact: true }).fill('maple-lights-42');
      await own.getByRole('button', { name: 'Submit' }).click();
      await visible(own.getByText(/Your password has been reset/));
      await signInFully(own, {
        email: CUSTOMER.email,
        password: 'maple-lights-42',
        displayName: CUSTOMER.displayName,
      });
      await screenshot(own, 'u6-new-customer-signed-in');
    } catch (err) {
      await fail(page, 'u-suspend-failed')(err);
    }
  },
  JOURNEY_MS,
);

it(
  'staff find a company and then its customer in the import dialog by search and import them, by the §5 rules',
  async () => {
    const page = await usersScreen(ADMIN);
    try {
      let dialog = await openImport(page);
      const entry = (name: string) => dialog.getByRole('checkbox', { name: new RegExp(`^${name}`) });
      /** Types in the dialog's search box and waits until `name` is listed. */
      const find = async (typed: string, name: string) => {
        await dialog.getByRole('searchbox', { name: 'Search by name, company or e-mail' }).fill(typed);
        await visible(entry(name));
      };
      // Those already on the site are hidden unless asked.
      expect(await dialog.getByRole('checkbox', { name: 'Hide those already on the site' }).isChecked()).toBe(
        true,
      );
      // By company: the company and its customers. Not selectable, each saying why.
      await find('sunset gala', 'Sunset Gala Planners');
      await visible(entry('Ava Thompson'));
      expect(await entry('Ava Thompson').isDisabled()).toBe(true);
      expect(await entry('Ava Thompson').getAttribute('aria-describedby')).toBeTruthy();
      await visible(dialog.getByText('Please import the parent company first', { exact: true }).first());
      // By name, and by e-mail.
      await find('lena', 'Lena Brooks');
      expect(await entry('Lena Brooks').isDisabled()).toBe(true);
      await visible(dialog.getByText(/Please update the user in QuickBooks/).first());
      await find('bookings@oakhollow', 'Oak Hollow Barn');
      expect(await entry('Oak Hollow Barn').isDisabled()).toBe(true);
      // Nothing ticked: Import is disabled.
      expect(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
      await find('sunset gala', 'Sunset Gala Planners');
      await screenshot(page, 'u7-import-dialog');

      await entry('Sunset Gala Planners').check();
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await visible(dialog.getByText('Users have been added!', { exact: true }));

      // Once the site has the company, its customer can be imported (reopening asks QuickBooks again).
      await until(
        async () => {
          await dialog.getByRole('button', { name: 'Done' }).click();
          await dialog.waitFor({ state: 'hidden' });
          dialog = await openImport(page);
          await find('ava thompson', 'Ava Thompson');
          return entry('Ava Thompson').isEnabled();
        },
        true,
        'Ava Thompson selectable',
        30_000,
      );
      // The company is on the site now: hidden, and shown as such once the filter is off.
      await find('sunset gala', 'Marcus Lee');
      expect(await entry('Sunset Gala Planners').count()).toBe(0);
      await dialog.getByRole('checkbox', { name: 'Hide those already on the site' }).uncheck();
      await visible(entry('Sunset Gala Planners'));
      expect(await entry('Sunset Gala Planners').isDisabled()).toBe(true);
      // Its own reason (other entries the search finds may be on the site too).
      const reasonId = await entry('Sunset Gala Planners').getAttribute('aria-describedby');
      expect(await dialog.locator(`[id="${reasonId}"]`).textContent()).toBe('Already on the site');
      await entry('Ava Thompson').check();
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await visible(dialog.getByText('Users have been added!', { exact: true }));
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('searchbox', { name: 'Search customers by company' }).fill('Sunset Gala');
      await visible(page.getByRole('link', { name: 'Ava Thompson' }));
      // Adopted, not created again in QuickBooks.
      await page.waitForTimeout(2000);
      expect(await qboCustomersNamed(realmId, 'Ava Thompson')).toHaveLength(1);
      expect(await qboCustomersNamed(realmId, 'Sunset Gala Planners')).toHaveLength(1);
    } catch (err) {
      await fail(page, 'u-import-failed')(err);
    }
  },
  JOURNEY_MS,
);

it(
  'staff land on /admin: Orders, Users and QuickBooks sync with their counts; an unknown path is not found',
  async () => {
    const page = await signedInPage(ADMIN);
    try {
      await page.goto('/admin');
      await visible(page.getByRole('heading', { name: 'Back office' }));
      // Each count is the total the list endpoint gives staff (its total_count).
      const token = await page.evaluate(() => sessionStorage.getItem('token') ?? '');
      const total = async (path: string) =>
        Number((await call(product.api, path, { token })).headers.get('total_count')).toLocaleString('en-US');
      const count = (label: string) =>
        page.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]').textContent();
      await until(
        () => count('Estimates pending review'),
        await total('/estimate?status=Pending&limit=1'),
        'pending',
      );
      await until(() => count('Customers'), await total('/user?permissions=customer&limit=1'), 'customers');
      const failed = await call(product.api, '/qbo/jobs/failed', { token });
      await until(
        () => count('Failed sync jobs'),
        String((failed.body as { result: unknown[] }).result.length),
        'failed sync jobs',
      );
      await screenshot(page, 'u9-admin-landing');
      await page.getByRole('link', { name: 'QuickBooks sync' }).click();
      await visible(page.getByRole('heading', { name: 'QuickBooks sync' }));
      expect(pathOf(page)).toBe('/admin/sync');
      await page.goBack();
      await page.getByRole('link', { name: 'Users', exact: true }).click();
      await visible(page.getByRole('heading', { name: 'Users', exact: true }));
      expect(pathOf(page)).toBe('/admin/users');

      await page.goto('/admin/no-such-screen');
      await visible(page.getByText('There is no such back-office page', { exact: true }));
      expect(await page.getByText(/coming soon/i).count()).toBe(0);
      await screenshot(page, 'u10-admin-not-found');
      await page.getByRole('link', { name: 'Back to the back office' }).click();
      await visible(page.getByRole('heading', { name: 'Back office' }));
      expect(pathOf(page)).toBe('/admin');
    } catch (err) {
      await fail(page, 'u-landing-failed')(err);
    }
  },
  JOURNEY_MS,
);

it(
  'a superadmin sees the Admins tab with the admins',
  async () => {
    const page = await usersScreen(SUPERADMIN);
    try {
      await page.getByRole('tab', { name: 'Admins' }).click();
      const admins = page.getByRole('table', { name: 'Admins' });
      await visible(admins.getByText(ADMIN.email, { exact: true }));
      await visible(admins.getByText(SUPERADMIN.email, { exact: true }));
      await page.getByRole('searchbox', { name: 'Search admins by email' }).fill('staff@');
      await until(() => admins.getByText(SUPERADMIN.email, { exact: true }).count(), 0, 'only the admin');
      await screenshot(page, 'u8-admins-tab');
    } catch (err) {
      await fail(page, 'u-admins-failed')(err);
    }
  },
  JOURNEY_MS,
);
