/**
 * Setup through the API for the order journeys (what is not the subject of a journey): sign-in,
 * connecting QuickBooks to a fresh emulator company, submitted estimates, estimates sent to QuickBooks;
 * and the order screen's status tag and options menu as the journeys find them.
 */
import { addDays } from '@decor/contracts';
import { call, eventually } from '@decor/kit/testing';
import { consentRedirect as qboConsentRedirect } from '@decor/qbo-emulator';
import type { Page } from 'playwright-core';
import { newEmulatorCompany } from './quickbooks';
import { clickInPopup, until } from './ui';

export const STAFF = { email: 'staff@decor.example', password: 'demo1234', displayName: 'Sam Reyes' };
export const CUSTOMER = {
  email: 'customer@decor.example',
  password: 'demo1234',
  displayName: 'Casey Morgan',
};

export function orderSetup(api: string) {
  async function signInApi(who: { email: string; password: string }) {
    const answer = await call(api, '/auth/user', {
      method: 'POST',
      json: { email: who.email, password: who.password },
    });
    if (answer.status !== 200) throw new Error(`sign-in of ${who.email} answered ${answer.status}`);
    return answer.body.result as { token: string; redirecturl?: string };
  }

  /** Staff connect the product to a fresh emulator company (as the consent page would): staff's token. */
  async function connectQuickBooks(companyName: string): Promise<string> {
    const { realmId } = await newEmulatorCompany(companyName);
    const staff = await signInApi(STAFF);
    if (!staff.redirecturl) throw new Error('staff sign-in gave no QuickBooks redirect');
    const back = await qboConsentRedirect(staff.redirecturl, realmId);
    const connected = await call(api, `/auth/accessToken${back.search}`, { token: staff.token });
    if (connected.status !== 200) throw new Error(`/auth/accessToken answered ${connected.status}`);
    return staff.token;
  }

  /** Carts already submitted: the next submission waits for the new active cart the cart service makes. */
  const submittedCarts = new Set<string>();

  /** The customer's order request, through the API as the checkout sends it. */
  async function submitEstimate(
    token: string,
    fields: { groupName?: string; location?: string } = {},
  ): Promise<{ id: string; DocNumber: string }> {
    const cartId = await eventually(
      async () => {
        const session = await call(api, '/auth/jwt', { token });
        const id = session.body?.result?.cart?.id as string | undefined;
        return id && !submittedCarts.has(id) ? id : undefined;
      },
      15_000,
      'a new active cart',
    );
    const products = await call(api, '/product?gt=quantity:0&limit=1', { token });
    const productId = products.body.result[0].id as string;
    const saved = await call(api, '/saveBulk/cartProduct', {
      method: 'POST',
      token,
      json: [{ CartId: cartId, ProductId: productId, qty: 1, price: 1 }],
    });
    if (saved.status !== 200) throw new Error(`saving the cart line answered ${saved.status}`);
    const estimate = await call(api, '/estimate', {
      method: 'POST',
      token,
      json: {
        CartId: cartId,
        status: 'Pending',
        groupName: fields.groupName ?? 'Orders Gala',
        // Each order its own days: the demo stock is a few units, and orders book it by date.
        eventDate: addDays('2031-05-05', 4 * submittedCarts.size),
        location: fields.location ?? 'Hall',
      },
    });
    if (estimate.status !== 201) throw new Error(`POST /estimate answered ${estimate.status}`);
    submittedCarts.add(cartId);
    return estimate.body.result as { id: string; DocNumber: string };
  }

  /** Staff send an estimate to QuickBooks; it is queued (202, or 200 when that job already ran). */
  async function sendToQuickBooks(staffToken: string, estimateId: string): Promise<void> {
    await eventually(async () => {
      const sent = await call(api, '/qbo/estimate', {
        method: 'POST',
        token: staffToken,
        json: { id: estimateId },
      });
      return sent.status === 202 || sent.status === 200 ? sent : undefined;
    }, 30_000);
  }

  /** …and waits until it is Open. */
  async function openInQuickBooks(staffToken: string, estimateId: string): Promise<void> {
    await sendToQuickBooks(staffToken, estimateId);
    await until(
      async () => {
        const read = await call(api, `/estimate/${estimateId}`, { token: staffToken });
        return read.body?.result?.status as string | undefined;
      },
      'Open',
      'the estimate Open',
      30_000,
    );
  }

  return { signInApi, connectQuickBooks, submitEstimate, sendToQuickBooks, openInQuickBooks };
}

/** The status tag next to the order's title. */
export const statusTag = (page: Page, text: string) =>
  page.locator('section.page .ant-tag').filter({ hasText: new RegExp(`^${text}$`) });

/** Picks `name` from the order screen's options menu. */
export async function chooseOption(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Options' }).click();
  await clickInPopup(page.getByRole('menuitem', { name, exact: true }), '.ant-dropdown');
}
