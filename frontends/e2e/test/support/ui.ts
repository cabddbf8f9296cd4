import { eventually } from '@decor/kit/testing';
import type { Locator, Page } from 'playwright-core';
import { checkScreenOnce } from './a11y';

/** Waits until `read` returns `expected` (compared as JSON), failing with the last value seen. */
export async function until<T>(
  read: () => Promise<T>,
  expected: T,
  what: string,
  ms = 15_000,
): Promise<void> {
  let last: T | undefined;
  try {
    await eventually(
      async () => {
        last = await read();
        return JSON.stringify(last) === JSON.stringify(expected) ? true : undefined;
      },
      ms,
      what,
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; expected ${JSON.stringify(expected)}, last ${JSON.stringify(last)}`,
    );
  }
}

/** The visible, trimmed text of each element `locator` matches (whitespace collapsed). */
export async function texts(locator: Locator): Promise<string[]> {
  return (await locator.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/**
 * Waits until `locator` is visible; the first time the page shows this path it is then checked with
 * axe (./a11y `checkScreenOnce`), so every screen a journey waits on gets checked.
 */
export async function visible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
  await checkScreenOnce(locator.page());
}
export const gone = (locator: Locator) => locator.waitFor({ state: 'detached' });

/**
 * Waits until `locator`'s element and its subtree run no animation (an antd modal zooming in) and
 * carry none of rc-motion's classes (`ant-zoom-appear-prepare`, …-start, …-active): a click while its
 * buttons still move can land beside them on a busy machine. The classes count because a motion's
 * first frames run no animation yet (a reopened modal read as settled in its prepare step, and the
 * click on 'Yes, cancel the order' was lost in a full run).
 */
export const settled = (locator: Locator) =>
  until(
    () =>
      locator.evaluate((el) => {
        const inMotion = (e: Element) => [...e.classList].some((c) => /-(appear|enter|leave)(-|$)/.test(c));
        const moving = [el, ...el.querySelectorAll('[class]')].filter(inMotion).length;
        return el.getAnimations({ subtree: true }).length + moving;
      }),
    0,
    'animations ended',
  );

/**
 * Clicks `item` of an antd popup (a dropdown menu, a select's list) once the popup has stopped
 * sliding in: on a loaded full run a click on an item still moving was lost (the popup stayed open).
 */
export async function clickInPopup(
  item: Locator,
  popup: '.ant-dropdown' | '.ant-select-dropdown',
): Promise<void> {
  await settled(item.page().locator(popup).filter({ has: item }));
  await item.click();
}

/** Picks the option whose text matches `text` from the antd select list open on `page`. */
export const pickSelectOption = (page: Page, text: RegExp) =>
  clickInPopup(page.locator('.ant-select-item-option').filter({ hasText: text }), '.ant-select-dropdown');

/** `text` taken literally in a regular expression. */
export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The dialog named `name`, once it has `settled` (for a first click in a dialog just opened). */
export async function openedDialog(page: Page, name: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await settled(dialog);
  return dialog;
}

const SIGNED_IN = 'Login Successful!';

/** The top bar's Login modal 'Welcome': fills it in, submits with Enter, waits for `outcome`. */
export async function signIn(
  page: Page,
  who: { email: string; password: string },
  outcome = SIGNED_IN,
): Promise<Locator> {
  const modal = page.getByRole('dialog', { name: 'Welcome' });
  if (!(await modal.isVisible())) await page.getByRole('button', { name: 'Login', exact: true }).click();
  await modal.getByLabel('Email').waitFor();
  await checkScreenOnce(page, 'the login modal');
  await modal.getByLabel('Email').fill(who.email);
  const password = modal.getByLabel('Password', { exact: true });
  await password.fill(who.password);
  await watchDialogsFor(page, outcome);
  await password.press('Enter');
  // False too when the page left (a staff sign-in sent to QuickBooks): the error says where it is.
  if (!(await page.evaluate(`window.${SHOWN}`).catch(() => false))) {
    const shown = await screenText(page);
    throw new Error(
      `the login modal did not say "${outcome}" within ${OUTCOME_MS} ms (${page.url()}): ${shown}`,
    );
  }
  // A success closes the modal 500 ms later, zooming out: the screen is checked once it has gone, not
  // while axe could read the fading dialog (the check's own settle is shorter than those 500 ms).
  if (outcome === SIGNED_IN) await modal.waitFor({ state: 'hidden', timeout: OUTCOME_MS });
  await checkScreenOnce(page);
  return modal;
}

const SHOWN = 'decorDialogSaid';
const OUTCOME_MS = 15_000;

/**
 * Starts watching the page's dialogs for `text`, which `window[SHOWN]` then resolves to having seen:
 * the login modal closes 500 ms after 'Login Successful!', and a poll on a busy machine can miss it.
 */
function watchDialogsFor(page: Page, text: string): Promise<void> {
  return page.evaluate(
    ([wanted, key, ms]) => {
      const said = () =>
        [...document.querySelectorAll('[role="dialog"] *')].some(
          (el) => el.textContent?.replace(/\s+/g, ' ').trim() === wanted,
        );
      Object.assign(window, {
        [key]: new Promise<boolean>((resolve) => {
          const observer = new MutationObserver(() => {
            if (!said()) return;
            observer.disconnect();
            resolve(true);
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
          setTimeout(() => {
            observer.disconnect();
            resolve(said());
          }, ms);
        }),
      });
    },
    [text, SHOWN, OUTCOME_MS] as const,
  );
}

/** Signs in (the modal closes 500 ms after 'Login Successful!') and waits for the user menu. */
export async function signInFully(
  page: Page,
  who: { email: string; password: string; displayName: string },
): Promise<void> {
  await signIn(page, who);
  await visible(userMenuButton(page, who.displayName));
}

export const userMenuButton = (page: Page, displayName: string) =>
  page.getByRole('button', { name: `User menu of ${displayName}` });

/** Opens the top bar's user menu and picks `item` (Profile, Carts, Orders, Checkout, Logout). */
export async function fromUserMenu(page: Page, displayName: string, item: string): Promise<void> {
  await userMenuButton(page, displayName).click();
  await clickInPopup(page.getByRole('menuitem', { name: item, exact: true }), '.ant-dropdown');
}

/** The path (and query) the page shows now. */
export const pathOf = (page: Page) => {
  const u = new URL(page.url());
  return decodeURI(u.pathname) + u.search;
};

/** True when the page is no wider than its viewport (nothing sticks out sideways on a phone). */
export const fitsViewport = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The open dialogs' text, else the page's (whitespace collapsed, cut to 800 characters). */
export async function screenText(page: Page): Promise<string> {
  const dialogs = page.getByRole('dialog');
  const shown = (await dialogs.count()) > 0 ? dialogs : page.locator('body');
  return (await shown.allInnerTexts()).join(' | ').replace(/\s+/g, ' ').trim().slice(0, 800);
}

/** Hydrated (or rendered) by React: its fiber is on the main element. */
export const reactOwnsMain = (page: Page) =>
  page.waitForFunction(() => {
    const main = document.getElementById('main');
    return main !== null && Object.keys(main).some((key) => key.startsWith('__reactFiber'));
  });
