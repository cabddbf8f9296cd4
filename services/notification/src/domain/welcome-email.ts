import { type Brand, button, type Email, escapeHtml, htmlDocument, link, paragraph } from './email';

export interface WelcomeEmailInput {
  email: string;
  /** Empty when unknown. */
  displayName: string;
  /** The single-use link to choose a password (the site's reset page with the user service's token). */
  setPasswordUrl: string;
  /** When the link stops working (ISO date-time). */
  expiresAt: string;
}

/** 'November 30, 2026' in UTC: the day the link stops working. */
function day(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * Sent when staff create an account (and again when they re-send it). Accounts are made by staff,
 * so the e-mail carries a link to choose a password; the link works once, until `expiresAt`, and
 * a newer welcome or reset e-mail replaces it.
 */
export function welcomeEmail(brand: Brand, input: WelcomeEmailInput): Email {
  const name = input.displayName.trim();
  const greeting = name ? `Hello ${name},` : 'Hello,';
  const site = `${brand.baseUrl}/`;
  const until = day(input.expiresAt);
  const validity = until
    ? `The link works once, until ${until}. After that, use 'Forgot password' on the site's Login.`
    : "The link works once. After that, use 'Forgot password' on the site's Login.";
  const subject = `Welcome to ${brand.companyName}`;
  const text = [
    greeting,
    '',
    `An account has been created for you at ${brand.companyName}, with this e-mail address: ${input.email}`,
    '',
    `Choose your password here: ${input.setPasswordUrl}`,
    validity,
    '',
    `Once signed in at ${site} you can browse our inventory with prices, keep carts and request estimates for your events.`,
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlDocument(brand, subject, [
    paragraph(escapeHtml(greeting)),
    paragraph(
      `An account has been created for you at ${escapeHtml(brand.companyName)}, with this e-mail address: <strong>${escapeHtml(input.email)}</strong>`,
    ),
    button(input.setPasswordUrl, 'Choose your password'),
    paragraph(`${escapeHtml(validity)} ${link(input.setPasswordUrl)}`),
    paragraph(
      `Once signed in at ${link(site)} you can browse our inventory with prices, keep carts and request estimates for your events.`,
    ),
  ]);
  return { to: input.email, subject, text, html };
}
