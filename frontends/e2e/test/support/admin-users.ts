/**
 * Setup and helpers of the admin users journey (`admin-users.test.ts`): the QuickBooks connection to a
 * fresh emulator company holding the demo records to import (companies and customers, some without a
 * company name or an e-mail), the screen's dialogs, and the welcome e-mail's link.
 */

import { call, eventually, mailTo } from '@decor/kit/testing';
import {
  consentRedirect as qboConsentRedirect,
  emulatorControl as qboEmulatorControl,
} from '@decor/qbo-emulator';
import type { Locator, Page } from 'playwright-core';
import { emulator } from './quickbooks';
import { escapeRegex, openedDialog, pickSelectOption, visible } from './ui';

export const ADMIN = { email: 'staff@decor.example', password: 'demo1234', displayName: 'Sam Reyes' };
export const SUPERADMIN = { email: 'owner@decor.example', password: 'demo1234', displayName: 'Olivia Grant' };

/**
 * Staff connect the product to a new emulator company with the demo records (as the consent page
 * would), so staff sign-in in the browser goes straight in and the import dialog has QuickBooks users.
 * Answers the company's realm id.
 */
export async function connectDemoQuickBooks(api: string, companyName: string): Promise<string> {
  const control = qboEmulatorControl(emulator().url);
  const { realmId } = await control.call<{ realmId: string }>('/__emulator/companies', {
    method: 'POST',
    json: { name: companyName, demo: true },
  });
  const signIn = await call(api, '/auth/user', {
    method: 'POST',
    json: { email: ADMIN.email, password: ADMIN.password },
  });
  if (signIn.status !== 200) throw new Error(`staff sign-in answered ${signIn.status}`);
  const { token, redirecturl } = signIn.body.result as { token: string; redirecturl?: string };
  if (!redirecturl) throw new Error('staff sign-in gave no QuickBooks redirect');
  const back = await qboConsentRedirect(redirecturl, realmId);
  const connected = await call(api, `/auth/accessToken${back.search}`, { token });
  if (connected.status !== 200) throw new Error(`/auth/accessToken answered ${connected.status}`);
  return realmId;
}

/** The emulator's Customer records of a realm with this DisplayName. */
export async function qboCustomersNamed(realmId: string, displayName: string): Promise<unknown[]> {
  const control = qboEmulatorControl(emulator().url);
  const records = await control.call<{ DisplayName?: string }[]>(
    `/__emulator/realms/${realmId}/records/Customer`,
  );
  return records.filter((r) => r.DisplayName === displayName);
}

/** Opens the create-user dialog and picks what to create. */
export async function openCreate(page: Page, kind: 'Company' | 'Customer' | 'Admin'): Promise<Locator> {
  await page.getByRole('button', { name: 'Create User' }).click();
  const dialog = await openedDialog(page, 'Create User');
  await dialog.getByRole('button', { name: kind, exact: true }).click();
  await visible(dialog.getByRole('button', { name: 'Submit' }));
  return dialog;
}

/** Opens the import dialog and waits for the QuickBooks users. */
export async function openImport(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Import User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Users from QuickBooks' });
  await visible(dialog.getByRole('button', { name: 'Import', exact: true }));
  // The listing has come: its search box and filter replace the loading spinner.
  await visible(dialog.getByRole('checkbox', { name: 'Hide those already on the site' }));
  return dialog;
}

/** Picks `name` in an antd Select (the parent-company picker) after typing `typed`. */
export async function pickOption(page: Page, field: Locator, typed: string, name: string): Promise<void> {
  await field.click();
  await field.fill(typed);
  await pickSelectOption(page, new RegExp(`^${escapeRegex(name)}$`));
}

const RESET_LINK = /(https?:\/\/\S+\/reset\/[\w.%-]+)/;

/** How many e-mails to `email` hold a set-password link so far. */
export async function linkMailCount(email: string): Promise<number> {
  return (await mailTo(email)).filter((m) => RESET_LINK.test(m.Text)).length;
}

/** The path of the set-password link in the next e-mail to `email` (after `before` such e-mails). */
export async function nextSetPasswordLink(email: string, before: number): Promise<string> {
  const mails = await eventually(
    async () => {
      const withLink = (await mailTo(email)).filter((m) => RESET_LINK.test(m.Text));
      return withLink.length > before ? withLink : undefined;
    },
    30_000,
    'the welcome e-mail',
  );
  const link = RESET_LINK.exec(mails.at(-1)?.Text ?? '')?.[1] ?? '';
  if (!link) throw new Error('the welcome e-mail has no set-password link');
  return new URL(link).pathname;
}
