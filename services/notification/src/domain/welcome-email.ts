import { type Brand, button, type Email, escapeHtml, htmlDocument, paragraph } from './email';

export interface WelcomeEmailInput {
  email: string;
  /** Empty when unknown (a staff re-send names only the address). */
  displayName: string;
}

/**
 * Sent when an account is created (and again when staff re-send it). Accounts are made by staff,
 * so the new user chooses a password through the reset flow: the site's Login, 'Forgot password'.
 */
export function welcomeEmail(brand: Brand, input: WelcomeEmailInput): Email {
  const name = input.displayName.trim();
  const greeting = name ? `Hello ${name},` : 'Hello,';
  const site = `${brand.baseUrl}/`;
  const subject = `Welcome to ${brand.companyName}`;
  const text = [
    greeting,
    '',
    `An account has been created for you at ${brand.companyName}, with this e-mail address: ${input.email}`,
    '',
    'To choose your password:',
    `1. Open ${site}`,
    "2. Click Login, then 'Forgot password', and enter this e-mail address.",
    '3. Follow the link we e-mail you to set your password.',
    '',
    'Once signed in you can browse our inventory with prices, keep carts and request estimates for your events.',
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlDocument(brand, subject, [
    paragraph(escapeHtml(greeting)),
    paragraph(
      `An account has been created for you at ${escapeHtml(brand.companyName)}, with this e-mail address: <strong>${escapeHtml(input.email)}</strong>`,
    ),
    paragraph(
      `To choose your password, open <a href="${escapeHtml(site)}">${escapeHtml(site)}</a>, click <strong>Login</strong>, then <strong>Forgot password</strong>, and enter this e-mail address. We will e-mail you a link to set your password.`,
    ),
    button(site, `Visit ${brand.companyName}`),
    paragraph(
      'Once signed in you can browse our inventory with prices, keep carts and request estimates for your events.',
    ),
  ]);
  return { to: input.email, subject, text, html };
}
